// The two scenarios of the browser test: a new notebook typed by hand, and
// the tour run with Kernel → Restart & Run All.
'use strict';

const { spawnSync } = require('node:child_process');
const path = require('node:path');
const cell = require('./cell.js');
const { pngStats } = require('./server.js');

const JUPYTER = process.env.JUPYTER || '/usr/bin/jupyter';

// step runs fn, prints how long it took and prefixes any failure with name.
async function step(name, fn) {
  const t0 = Date.now();
  try {
    const r = await fn();
    console.log(`ok  ${name} (${Date.now() - t0} ms)`);
    return r;
  } catch (e) {
    throw new Error(`${name}: ${e.message}`);
  }
}

function expect(cond, msg) {
  if (!cond) throw new Error(msg);
}

// newNotebook opens a proflens notebook from the tree's New menu and works
// through the commands of the brief.
async function newNotebook({ context, server, out }) {
  const tree = await context.newPage();
  const nb = await step('tree lists proflens under New and opens a notebook', async () => {
    await tree.goto(`${server.url}/tree?token=${server.token}`);
    await tree.click('#new-dropdown-button');
    const [page] = await Promise.all([context.waitForEvent('page'), tree.click('#kernel-proflens a')]);
    await page.waitForLoadState();
    await cell.waitIdle(page, 30000);
    const logo = await page.locator('#kernel_logo_widget img').evaluate((img) => img.naturalWidth);
    expect(logo > 0, 'the kernel logo did not load');
    return page;
  });
  const errors = [];
  nb.on('pageerror', (e) => errors.push(e.message));

  await step('load demo:profvis-toy as toy', async () => {
    const o = await cell.run(nb, 0, 'load demo:profvis-toy as toy');
    expect(o.includes('loaded toy'), `no "loaded toy" in the output: ${o.slice(0, 200)}`);
  });
  await step('level 2', async () => {
    const o = await cell.run(nb, 1, 'level 2');
    expect(/level 2 on \d+/.test(o), `unexpected output: ${o.slice(0, 200)}`);
  });
  const view = await step('view', async () => {
    const o = await cell.run(nb, 2, 'view');
    const m = o.match(/→ (\d+) compacted nodes/);
    expect(m, `no "→ N compacted nodes" line in: ${o.slice(0, 200)}`);
    const r = o.split('\n')[1].match(/^\s*(\S+) .*\((\w+)\)\s*$/);
    expect(r, `the first node line has no "NAME … (HANDLE)": ${o.split('\n')[1]}`);
    return { nodes: Number(m[1]), root: r[1], handle: r[2] };
  });
  await step(`show: inline <svg>, ≥${view.nodes} tooltips, visible labels, hover`, async () => {
    await cell.run(nb, 3, 'show');
    await checkPicture(nb, 3, view, path.join(out, 'show.png'));
  });
  await step('flame', async () => {
    await cell.run(nb, 4, 'flame');
    const svg = cell.output(nb, 4).locator('svg').first();
    const titles = await svg.locator('title').count();
    expect(titles >= view.nodes, `flame has ${titles} <title> elements, want ≥ ${view.nodes}`);
    await shot(nb, svg, path.join(out, 'flame.png'));
  });
  await step('top', async () => {
    await cell.run(nb, 5, 'top');
    const rows = await cell.output(nb, 5).locator('table tr').count();
    expect(rows >= 2, `top shows ${rows} table rows, want a header and at least one row`);
  });
  await step('unknown command shows an error with a suggestion', async () => {
    const o = await cell.run(nb, 6, 'lod demo:profvis-toy', { error: true });
    expect(/unknown command "lod"/.test(o) && /did you mean load/.test(o), `error output: ${o.slice(0, 300)}`);
  });
  await step('Tab completes ech to echo', async () => {
    await cell.complete(nb, 7, 'ech', 'echo');
    const o = await cell.run(nb, 7, 'echo completed by tab', { retype: true });
    expect(o.includes('completed by tab'), `echo output: ${o}`);
  });
  await step('echo? opens the pager', async () => {
    await cell.type(nb, 8, 'echo?');
    await nb.keyboard.press('Shift+Enter');
    const pager = nb.locator('#pager');
    await pager.waitFor({ state: 'visible', timeout: 10000 });
    const text = await pager.innerText();
    expect(/usage: echo/.test(text), `pager text: ${text.slice(0, 200)}`);
    await cell.waitIdle(nb, 10000);
    await nb.waitForTimeout(500); // let the pager finish sliding up
    await shot(nb, pager, path.join(out, 'pager.png'), 0.005);
  });
  await step('jupyter console --existing shares the kernel with the browser', async () => {
    const id = await nb.evaluate(() => Jupyter.notebook.kernel.id);
    const o = secondFrontEnd(server, id, 'load demo:profvis-toy as fromconsole\nprofiles\n');
    expect(/\btoy\b/.test(o) && /\bfromconsole\b/.test(o), `the console's profiles lacks toy or fromconsole: ${o.slice(-400)}`);
    const b = await cell.run(nb, 9, 'profiles');
    expect(/\bfromconsole\b/.test(b), `the browser's profiles lacks the console's fromconsole: ${b.slice(0, 300)}`);
  });
  await fullShot(nb, path.join(out, 'notebook.png'));
  expect(errors.length === 0, `JavaScript errors in the notebook page: ${errors.join('; ')}`);
  await tree.close();
}

// secondFrontEnd attaches jupyter console to the notebook's kernel, feeds it
// input and returns what it printed.
function secondFrontEnd(server, kernelId, input) {
  const file = path.join(server.runtimeDir, `kernel-${kernelId}.json`);
  const r = spawnSync(JUPYTER, ['console', '--existing', file, '--simple-prompt',
    '--ZMQTerminalIPythonApp.confirm_exit=False'], { input, env: server.env, encoding: 'utf8', timeout: 30000 });
  if (r.error) throw new Error(`jupyter console: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`jupyter console exited ${r.status}: ${r.stderr.slice(-400)}`);
  return r.stdout;
}

// checkPicture asserts the show output of cell i: an inline <svg> (not an
// <img>), a tooltip per compacted node, visible text labels including the
// root's name, and that hovering the root node reaches a titled element.
async function checkPicture(nb, i, view, pngPath) {
  const area = cell.output(nb, i);
  const svg = area.locator('svg').first();
  await svg.waitFor({ state: 'visible', timeout: 10000 });
  const titles = await svg.locator('title').count();
  expect(titles >= view.nodes, `${titles} <title> elements, want ≥ ${view.nodes} (one per compacted node)`);
  const labels = await svg.evaluate((s) => {
    const box = s.getBoundingClientRect();
    return [...s.querySelectorAll('text')].filter((t) => {
      const r = t.getBoundingClientRect();
      const st = getComputedStyle(t);
      return t.textContent.trim() !== '' && r.width > 0 && r.height > 0 && st.visibility !== 'hidden' &&
        st.opacity !== '0' && r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom;
    }).map((t) => t.textContent.trim());
  });
  expect(labels.length >= 3, `only ${labels.length} visible text labels: ${labels.join(', ')}`);
  expect(labels.includes(view.root), `the root "${view.root}" has no visible label; labels: ${labels.join(', ')}`);
  const tip = await hoverNode(nb, svg, view.root);
  for (const want of ['total', 'self', `handle ${view.handle}`, `expand toy ${view.handle}`, `compact toy ${view.handle}`]) {
    expect(tip.includes(want), `the root's tooltip lacks ${JSON.stringify(want)}: ${JSON.stringify(tip)}`);
  }
  await shot(nb, svg, pngPath);
}

// hoverNode moves the mouse onto the filled shape of the node titled name and
// checks that the element under the pointer is inside that node's group,
// which carries the <title> the browser shows as a tooltip; it returns that
// title's text.
async function hoverNode(nb, svg, name) {
  await svg.scrollIntoViewIfNeeded();
  const pt = await svg.evaluate((s, want) => {
    const g = [...s.querySelectorAll('title')].map((t) => t.parentElement)
      .find((e) => e.querySelector(':scope > title').textContent.split('\n')[0] === want);
    if (!g) return null;
    const shape = g.querySelector('path, rect, circle');
    const b = shape.getBoundingClientRect();
    for (let y = 1; y < 20; y++) {
      for (let x = 1; x < 20; x++) {
        const px = b.left + (b.width * x) / 20;
        const py = b.top + (b.height * y) / 20;
        if (g.contains(document.elementFromPoint(px, py))) return { x: px, y: py };
      }
    }
    return { x: -1, y: -1 };
  }, name);
  expect(pt, `no node titled "${name}"`);
  expect(pt.x >= 0, `no point of node "${name}" reaches it under the pointer (covered by other elements?)`);
  await nb.mouse.move(pt.x, pt.y);
  const hover = await svg.evaluate((s) => {
    const g = [...s.querySelectorAll(':hover')].reverse().find((e) => e.querySelector(':scope > title'));
    if (!g) return null;
    const shape = g.querySelector('path, rect, circle');
    return { title: g.querySelector(':scope > title').textContent, stroke: getComputedStyle(shape).stroke };
  });
  expect(hover, 'hovering the node puts no element with a <title> under :hover');
  expect(hover.title.startsWith(name + '\n'),
    `hovered tooltip is ${JSON.stringify(hover.title.slice(0, 120))}, want it to start with "${name}"`);
  return hover.title;
}

// shot saves a screenshot of loc and fails when it is blank: less than
// minInk (default 5%) of its pixels are not near-white, or fewer than four
// colours appear.
async function shot(nb, loc, file, minInk = 0.05) {
  const png = await loc.screenshot({ path: file });
  const s = await pngStats(nb, png);
  const ink = s.ink / (s.width * s.height);
  expect(ink > minInk && s.colours >= 4,
    `${path.basename(file)} looks blank: ${(ink * 100).toFixed(1)}% ink, ${s.colours} colours`);
}

// fullShot saves the whole notebook: the classic Notebook scrolls inside
// #site, so the viewport grows to the notebook's height (at most 16000 px).
async function fullShot(nb, file) {
  const h = await nb.evaluate(() => document.querySelector('#notebook').scrollHeight + 200);
  await nb.setViewportSize({ width: 1280, height: Math.min(h, 16000) });
  await nb.screenshot({ path: file });
  await nb.setViewportSize({ width: 1280, height: 900 });
}

// tour opens tour.ipynb, runs Kernel → Restart & Run All and fails on any
// error output.
async function tour({ context, server, out }) {
  const nb = await context.newPage();
  const errors = [];
  nb.on('pageerror', (e) => errors.push(e.message));
  await step('tour.ipynb: Kernel → Restart & Run All', async () => {
    await nb.goto(`${server.url}/notebooks/tour.ipynb?token=${server.token}`);
    await cell.waitIdle(nb, 30000);
    await nb.evaluate(() => Jupyter.notebook.clear_all_output()); // saved prompts must not count as run
    await nb.click('#kernellink');
    await nb.click('#restart_run_all');
    await nb.locator('.modal-dialog button.btn-danger').click();
    const n = await cell.waitAllRun(nb, 90000);
    const errs = await nb.locator('.output_error').allInnerTexts();
    expect(errs.length === 0, `${errs.length} error outputs, first: ${(errs[0] || '').slice(0, 300)}`);
    const svgs = await nb.locator('.output_area svg').count();
    expect(svgs >= 1, 'the tour shows no inline <svg> picture');
    console.log(`    ${n} code cells ran, ${svgs} inline pictures`);
  });
  await fullShot(nb, path.join(out, 'tour.png'));
  expect(errors.length === 0, `JavaScript errors in the tour page: ${errors.join('; ')}`);
}

module.exports = { newNotebook, tour };
