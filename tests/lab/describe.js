// What the page shows, measured in the browser for tests/lab/lab.js to judge:
// per cell and output, the MIME type Lab rendered, its text, and its pictures
// (inline <svg> or <img>), tables and, for each visible SVG label, where it
// lies and its colour against what is drawn behind it.

// outputs returns the rendered output children of cell i in view.
function outputs(view, i) {
  const cell = document.querySelector(`#${view} .cell[data-i="${i}"]`);
  return cell ? [...cell.querySelectorAll('.jp-OutputArea-child')] : [];
}

function rgba(css) {
  const m = css && css.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
  return [r, g, b, a];
}

// luminance and contrast follow WCAG 2's definitions.
function luminance([r, g, b]) {
  const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// backdrop is the colour drawn behind the centre of label t: the topmost
// filled shape of the picture under it, else the first HTML background.
function backdrop(t, svg) {
  const r = t.getBoundingClientRect();
  for (const e of document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2)) {
    if (e.closest('text')) continue;
    if (e !== svg && svg.contains(e)) {
      const st = getComputedStyle(e);
      const fill = rgba(st.fill);
      if (fill && fill[3] * Number(st.fillOpacity) * Number(st.opacity) > 0.5) return { colour: fill, by: e.tagName };
      continue;
    }
    for (let a = e; a; a = a.parentElement) {
      const bg = rgba(getComputedStyle(a).backgroundColor);
      if (bg && bg[3] > 0) return { colour: bg, by: 'page' };
    }
  }
  return { colour: [255, 255, 255, 1], by: 'page' };
}

// quad is the box of label t's glyphs in picture coordinates (rotation
// included), its top and bottom fifth and a pixel at each end left out: the
// font's ascent and descent padding that neighbouring lines may share.
function quad(t, box) {
  const b = t.getBBox();
  const m = t.getScreenCTM();
  const [x0, x1, y0, y1] = [b.x + 1, b.x + b.width - 1, b.y + b.height * 0.2, b.y + b.height * 0.8];
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].map(([x, y]) => {
    const p = new DOMPoint(x, y).matrixTransform(m);
    return [Math.round((p.x - box.left) * 10) / 10, Math.round((p.y - box.top) * 10) / 10];
  });
}

// labels describes the visible, non-empty <text> elements of svg; those
// reaching outside the picture (where the <svg> clips them) go to cut.
function labels(svg) {
  svg.scrollIntoView({ block: 'center' });
  const box = svg.getBoundingClientRect();
  const out = { labels: [], cut: [] };
  for (const t of svg.querySelectorAll('text')) {
    const st = getComputedStyle(t);
    const s = t.textContent.trim();
    if (!s || st.visibility === 'hidden' || st.display === 'none' || Number(st.opacity) === 0) continue;
    const q = quad(t, box);
    if (q.some(([x, y]) => x < -1 || y < -1 || x > box.width + 1 || y > box.height + 1)) { out.cut.push(s); continue; }
    const fill = rgba(st.fill) || [0, 0, 0, 1];
    const back = backdrop(t, svg);
    out.labels.push({
      s, font: st.fontFamily.split(',')[0].trim().replace(/["']/g, ''), quad: q,
      fill: fill.slice(0, 3), back: back.colour.slice(0, 3), by: back.by,
      contrast: Math.round(contrast(fill, back.colour) * 100) / 100,
    });
  }
  return out;
}

function describeSvg(svg) {
  const b = svg.getBoundingClientRect();
  return {
    proflens: svg.classList.contains('proflens'), width: Math.round(b.width), height: Math.round(b.height),
    titles: svg.querySelectorAll('title').length,
    shapes: svg.querySelectorAll('path, rect, circle, ellipse, polygon, polyline, line').length,
    ...labels(svg),
  };
}

function describeTable(t) {
  const body = [...t.querySelectorAll('tbody tr')];
  const rows = (body.length ? body : [...t.querySelectorAll('tr')].slice(1)).slice(0, 50);
  return {
    rows: t.querySelectorAll('tr').length,
    cells: rows.map((tr) => [...tr.children].map((c) => c.innerText.trim())),
    align: rows.length ? [...rows[0].children].map((c) => getComputedStyle(c).textAlign) : [],
  };
}

// describe returns, for every output of cell i in view, what Lab shows.
export function describe(view, i) {
  return outputs(view, i).map((child) => {
    const out = child.querySelector('.jp-OutputArea-output');
    return {
      mime: out ? out.getAttribute('data-mime-type') : null,
      text: child.innerText.trim().slice(0, 5000),
      svgs: [...child.querySelectorAll('svg')].filter((s) => !s.closest('svg svg') && !s.closest('.jp-OutputPrompt')).map(describeSvg),
      imgs: [...child.querySelectorAll('img')].map((im) => ({ natural: [im.naturalWidth, im.naturalHeight], shown: [im.width, im.height] })),
      tables: [...child.querySelectorAll('table')].map(describeTable),
    };
  });
}

// hoverTarget scrolls to picture k of output o of cell i and returns a point
// on the largest titled node where that node is the element under the
// pointer, with its title; null when no such point exists.
export function hoverTarget(view, i, o, k) {
  const svg = outputs(view, i)[o].querySelectorAll('svg.proflens')[k];
  svg.scrollIntoView({ block: 'center' });
  const nodes = [...svg.querySelectorAll('title')].map((t) => t.parentElement).filter((g) => g !== svg);
  const area = (g) => { const r = g.getBoundingClientRect(); return r.width * r.height; };
  for (const g of nodes.sort((a, b) => area(b) - area(a)).slice(0, 3)) {
    const r = (g.querySelector('path, rect, circle') || g).getBoundingClientRect();
    for (let y = 1; y < 10; y++) {
      for (let x = 1; x < 10; x++) {
        const px = r.left + (r.width * x) / 10;
        const py = r.top + (r.height * y) / 10;
        if (g.contains(document.elementFromPoint(px, py))) return { x: px, y: py, title: g.querySelector(':scope > title').textContent };
      }
    }
  }
  return null;
}

// hovered returns the title of the innermost titled element under :hover in
// picture k of output o of cell i.
export function hovered(view, i, o, k) {
  const svg = outputs(view, i)[o].querySelectorAll('svg.proflens')[k];
  const g = [...svg.querySelectorAll(':hover')].reverse().find((e) => e.querySelector(':scope > title'));
  return g ? g.querySelector(':scope > title').textContent : null;
}
