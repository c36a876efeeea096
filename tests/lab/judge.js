// The assertions of the JupyterLab-stack test. Each takes the cells of one
// notebook run, c = {i, source, raises, status, msgs, outputs, live, saved}
// (live and saved: describe.js's view of each output, trusted and untrusted),
// and returns its failures, each a sentence naming the cell, the output and
// what the front end showed.
'use strict';

const MIN_CONTRAST = 3; // WCAG's minimum for large text and graphics

function where(c, o) {
  const src = c.source.replace(/\s*\n\s*/g, ' ⏎ ');
  return `cell ${c.i} \`${src.length > 60 ? src.slice(0, 57) + '...' : src}\`` + (o === undefined ? '' : ` output ${o}`);
}

function quote(s, n = 120) {
  s = s.replace(/\s+/g, ' ');
  return JSON.stringify(s.length > n ? s.slice(0, n) + '…' : s);
}

function html(out) {
  const h = out.data && out.data['text/html'];
  return Array.isArray(h) ? h.join('') : h || '';
}

// isPicture: a saved output that carries a picture in any MIME type.
function isPicture(out) {
  const d = out.data || {};
  return Boolean(d['image/svg+xml'] || d['image/png'] || d['image/jpeg'] || /<(svg|img)[\s>]/.test(html(out)));
}

function pictures(c) {
  return c.outputs.map((out, o) => [out, o]).filter(([out]) => isPicture(out));
}

// counts tells what a notebook's outputs hold, so that checks with nothing
// to look at are not run (and not counted as passing).
function counts(cells) {
  const outs = cells.flatMap((c) => c.outputs);
  return {
    cells: cells.length,
    pictures: cells.reduce((n, c) => n + pictures(c).length, 0),
    svgs: cells.reduce((n, c) => n + c.live.reduce((m, d) => m + d.svgs.length, 0), 0),
    tables: outs.filter((out) => html(out).includes('<table')).length,
    errors: outs.filter((out) => out.output_type === 'error').length,
  };
}

function cellsRun(cells) {
  return cells.flatMap((c) => {
    if (c.raises && c.status !== 'error') return [`${where(c)} is tagged raises-exception but replied ${c.status}`];
    if (!c.raises && c.status !== 'ok') {
      const e = c.outputs.find((out) => out.output_type === 'error');
      return [`${where(c)} replied ${c.status}` + (e ? `: ${e.ename}: ${e.evalue}` : '')];
    }
    return [];
  });
}

// livePictures: every picture is an inline <svg> (an <img> has no tooltips);
// proflens's own carry <title>s, and hovering a node (t.hover) puts its
// titled element under the pointer. Gonum charts need no tooltips.
async function livePictures(cells, hover) {
  const fails = [];
  for (const c of cells) {
    for (const [out, o] of pictures(c)) {
      const d = c.live[o];
      if (!d.svgs.some((s) => s.shapes > 0)) {
        fails.push(`${where(c, o)}: no inline <svg>; Lab rendered ${d.mime}` +
          (d.imgs.length ? ' as an <img>' : '') + ` (saved as ${Object.keys(out.data).join(', ')}), showing ${quote(d.text)}`);
        continue;
      }
      for (const [k, s] of d.svgs.filter((x) => x.proflens).entries()) {
        if (s.titles === 0) { fails.push(`${where(c, o)}: picture ${k} has no <title> tooltips`); continue; }
        const err = await hover(c.i, o, k);
        if (err) fails.push(`${where(c, o)}: picture ${k}: ${err}`);
      }
    }
  }
  return fails;
}

// firstTitle is the text of the first <title> (a tooltip) in out's HTML, its
// entities decoded and its white space collapsed, or null.
function firstTitle(out) {
  const m = html(out).match(/<title>([\s\S]*?)<\/title>/);
  if (!m) return null;
  const ent = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
  return m[1].replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ent[e]).replace(/\s+/g, ' ').trim();
}

// untrustedPictures: rebuilt from the saved notebook with trusted: false, a
// picture still shows as an inline <svg> or a loaded <img> at least 50 px
// wide, and no tooltip's text is left lying around as loose text.
function untrustedPictures(cells) {
  const fails = [];
  for (const c of cells) {
    for (const [out, o] of pictures(c)) {
      const d = c.saved[o];
      const svg = d.svgs.some((s) => s.shapes > 0 && s.width > 50 && s.height > 50);
      const img = d.imgs.some((im) => im.natural[0] > 0 && im.shown[0] > 50);
      const title = firstTitle(out);
      if (!svg && !img) {
        fails.push(`${where(c, o)}: untrusted, Lab rendered ${d.mime} of [${Object.keys(out.data).join(', ')}] and shows ` +
          `${d.svgs.length} <svg>, ${d.imgs.length} <img>, only the text ${quote(d.text)}`);
      } else if (title && d.text.replace(/\s+/g, ' ').includes(title)) {
        fails.push(`${where(c, o)}: untrusted, the picture shows but a tooltip's text lies in the output as loose text: ${quote(title, 80)}`);
      }
    }
  }
  return fails;
}

// tables: an output whose HTML holds a table shows a <table> with as many
// rows, live and untrusted.
function tables(cells) {
  const fails = [];
  for (const c of cells) {
    c.outputs.forEach((out, o) => {
      const h = html(out);
      if (!h.includes('<table')) return;
      const rows = (h.match(/<tr[\s>]/g) || []).length;
      for (const [view, d] of [['live', c.live[o]], ['untrusted', c.saved[o]]]) {
        const t = d.tables[0];
        if (!t) fails.push(`${where(c, o)}: ${view}, Lab rendered ${d.mime} with no <table>: ${quote(d.text)}`);
        else if (t.rows !== rows) fails.push(`${where(c, o)}: ${view} table has ${t.rows} rows, the HTML ${rows}`);
      }
    });
  }
  return fails;
}

// tableLooks: columns of words are left-aligned (Lab right-aligns table
// cells unless told otherwise), live and untrusted.
function tableLooks(cells) {
  const fails = [];
  for (const c of cells) {
    c.outputs.forEach((out, o) => {
      for (const [view, d] of [['live', c.live[o]], ['untrusted', c.saved[o]]]) {
        for (const t of d.tables) {
          t.align.forEach((align, j) => {
            const vals = t.cells.map((r) => r[j] || '').filter(Boolean);
            const words = vals.filter((v) => !/^[-+−]?[\d.]/.test(v)).length;
            if (words * 2 > vals.length && !['left', 'start'].includes(align)) {
              fails.push(`${where(c, o)}: ${view}, column ${j} holds text (${quote(vals[0], 30)}) but is ${align}-aligned`);
            }
          });
        }
      }
    });
  }
  return fails;
}

// codeSpan finds a markdown code span left unconverted: a backtick that
// opens after a space or the start of a line and closes before a space,
// punctuation or the end. A backtick between two letters of one word is a
// name's own (DTrace's and our native "libc.so.6`malloc"), not markdown.
const codeSpan = /(^|[\s(\[{"'])`[^`\n]*`(?=$|[\s.,;:!?)\]}"'])/m;

// backticks: what Lab renders as HTML or markdown shows no markdown code
// span left unconverted.
function backticks(cells) {
  const fails = [];
  for (const c of cells) {
    c.live.forEach((d, o) => {
      const m = codeSpan.exec(d.text);
      const k = m ? m.index + m[1].length : -1;
      if (k >= 0 && ['text/html', 'text/markdown'].includes(d.mime)) {
        fails.push(`${where(c, o)}: the ${d.mime} output shows a literal backtick: ${quote(d.text.slice(Math.max(0, k - 40), k + 40), 90)}`);
      }
    });
  }
  return fails;
}

// errors: every error output shows its ename and evalue, live and untrusted.
function errors(cells) {
  const fails = [];
  for (const c of cells) {
    c.outputs.forEach((out, o) => {
      if (out.output_type !== 'error') return;
      for (const [view, d] of [['live', c.live[o]], ['untrusted', c.saved[o]]]) {
        const missing = [out.ename, out.evalue].filter((s) => !d.text.includes(s));
        if (missing.length) fails.push(`${where(c, o)}: ${view}, the error output lacks ${missing.map((s) => quote(s, 60)).join(' and ')}; it shows ${quote(d.text)}`);
      }
    });
  }
  return fails;
}

function rgb(c) {
  return `rgb(${c.join(',')})`;
}

// contrast: every visible label of every live picture stands out from what
// is drawn behind it by at least MIN_CONTRAST, in the current theme.
function contrast(cells) {
  const fails = [];
  for (const c of cells) {
    c.live.forEach((d, o) => d.svgs.forEach((s, k) => {
      const bad = s.labels.filter((l) => l.contrast < MIN_CONTRAST);
      if (!bad.length) return;
      const eg = bad.slice(0, 3).map((l) => `${quote(l.s, 30)} ${rgb(l.fill)} on ${l.by === 'page' ? 'the page' : 'a ' + l.by} ${rgb(l.back)} (${l.contrast}:1)`);
      fails.push(`${where(c, o)}: picture ${k}: ${bad.length} of ${s.labels.length} labels below ${MIN_CONTRAST}:1, e.g. ${eg.join('; ')}`);
    }));
  }
  return fails;
}

// separated tells whether two convex quadrilaterals are apart: some edge of
// one is an axis on which their projections do not meet.
function separated(a, b) {
  for (const q of [a, b]) {
    for (let k = 0; k < 4; k++) {
      const [x0, y0] = q[k];
      const [x1, y1] = q[(k + 1) % 4];
      const axis = [y0 - y1, x1 - x0];
      const proj = (p) => p.map(([x, y]) => x * axis[0] + y * axis[1]);
      const [pa, pb] = [proj(a), proj(b)];
      if (Math.max(...pa) <= Math.min(...pb) || Math.max(...pb) <= Math.min(...pa)) return true;
    }
  }
  return false;
}

// overlaps: no two visible labels of one picture cover each other (their
// glyph boxes, rotation included, less the ascent and descent padding).
function overlaps(cells) {
  const fails = [];
  for (const c of cells) {
    c.live.forEach((d, o) => d.svgs.forEach((s, k) => {
      const pairs = [];
      s.labels.forEach((a, x) => s.labels.slice(x + 1).forEach((b) => {
        if (!separated(a.quad, b.quad)) pairs.push(`${quote(a.s, 24)} × ${quote(b.s, 24)} at (${a.quad[0].join(', ')})`);
      }));
      if (pairs.length) fails.push(`${where(c, o)}: picture ${k}: ${pairs.length} overlapping label pairs, e.g. ${pairs.slice(0, 3).join('; ')}`);
    }));
  }
  return fails;
}

// cut: no label reaches outside its picture, where the <svg> clips it (a
// legend cut after so many entries, a title wider than the picture).
function cut(cells) {
  const fails = [];
  for (const c of cells) {
    c.live.forEach((d, o) => d.svgs.forEach((s, k) => {
      if (s.cut.length) fails.push(`${where(c, o)}: picture ${k} (${s.width}×${s.height} px): ${s.cut.length} labels reach outside it: ${s.cut.slice(0, 6).map((x) => quote(x, 24)).join(', ')}`);
    }));
  }
  return fails;
}

// fonts: all pictures' labels use one font family (the first one named).
function fonts(cells) {
  const seen = new Map();
  for (const c of cells) {
    c.live.forEach((d, o) => d.svgs.forEach((s) => s.labels.forEach((l) => {
      if (!seen.has(l.font)) seen.set(l.font, where(c, o));
    })));
  }
  if (seen.size <= 1) return [];
  return [`${seen.size} font families: ${[...seen].map(([f, w]) => `${quote(f)} (first in ${w})`).join(', ')}`];
}

// FIELDS are the fields nbformat 4 allows in each kind of output.
const FIELDS = {
  stream: ['output_type', 'name', 'text'],
  display_data: ['output_type', 'data', 'metadata'],
  execute_result: ['output_type', 'data', 'metadata', 'execution_count'],
  error: ['output_type', 'ename', 'evalue', 'traceback'],
};

// outputFields: the outputs as Lab saves them (an iopub message's content
// and its type) hold only nbformat's fields, or the saved notebook does not
// validate and the classic Notebook and jupyter_server warn on opening it.
function outputFields(cells) {
  const fails = [];
  for (const c of cells) {
    c.outputs.forEach((out, o) => {
      const allowed = FIELDS[out.output_type] || [];
      const extra = Object.keys(out).filter((k) => !allowed.includes(k));
      if (extra.length) fails.push(`${where(c, o)}: the ${out.output_type} message's content has ${extra.map((k) => `${k}=${JSON.stringify(out[k])}`).join(', ')}, which nbformat does not allow in a saved ${out.output_type} output`);
    });
  }
  return fails;
}

// expectedOutputs applies a cell's iopub messages as the messaging spec
// defines them: outputs append (consecutive streams of one name merge),
// clear_output empties, update_display_data replaces every output of its
// display_id in place.
function expectedOutputs(msgs) {
  let outs = [];
  for (const m of msgs) {
    const last = outs[outs.length - 1];
    if (m.type === 'clear_output') outs = [];
    else if (m.type === 'stream' && last && last.type === 'stream' && last.name === m.content.name) continue;
    else if (m.type === 'stream') outs.push({ type: 'stream', name: m.content.name });
    else if (m.type === 'update_display_data') {
      outs = outs.map((x) => (x.id === m.display_id ? { ...x, data: m.content.data } : x));
    } else if (['display_data', 'execute_result', 'error'].includes(m.type)) {
      outs.push({ type: m.type, id: m.display_id, data: m.content.data });
    }
  }
  return outs;
}

// displayUpdates: some cell shows an output with a display_id and updates it
// with update_display_data (issue 21: progress of long loads and phases);
// every update names a display of its cell, and Lab's output area ends with
// what the messages say, the updated output in its original place.
function displayUpdates(cells) {
  const fails = [];
  let ided = 0;
  let updates = 0;
  for (const c of cells) {
    const ids = new Set(c.msgs.filter((m) => m.type === 'display_data' && m.display_id).map((m) => m.display_id));
    ided += ids.size;
    for (const m of c.msgs.filter((x) => x.type === 'update_display_data')) {
      updates++;
      if (!ids.has(m.display_id)) fails.push(`${where(c)}: update_display_data for display_id ${quote(String(m.display_id))}, which no display_data of the cell carried`);
    }
    const want = expectedOutputs(c.msgs);
    const got = c.outputs.map((out) => ({ type: out.output_type, name: out.name, data: out.data }));
    const same = want.length === got.length && want.every((w, o) => w.type === got[o].type &&
      (w.type === 'stream' ? w.name === got[o].name : JSON.stringify(w.data || null) === JSON.stringify(got[o].data || null)));
    if (!same || c.live.length !== want.length) {
      fails.push(`${where(c)}: the messages make ${want.length} outputs (${want.map((w) => w.type).join(', ')}), ` +
        `Lab's model holds ${got.length} and its page shows ${c.live.length}`);
    }
  }
  const n = cells.length;
  if (updates === 0) {
    fails.unshift(`none of the ${n} cells run sent update_display_data, and ${ided} display_data carried a transient display_id: ` +
      'a long load or phases must show its progress as display_data with transient.display_id and update it in place with update_display_data');
  }
  return fails;
}

module.exports = { codeSpan, counts, cellsRun, outputFields, backticks, livePictures, untrustedPictures, tables, tableLooks, errors, contrast, overlaps, cut, fonts, displayUpdates, isPicture };
