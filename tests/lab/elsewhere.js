// The notebooks tests/lab/lab.js saved, in the other front ends: nbconvert's
// HTML (plain and sanitized, as nbviewer-like tools use it) and the classic
// Notebook (untrusted as saved, then trusted). Each returns [name, failures]
// pairs for lab.js's check.
'use strict';

const { spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const srv = require('../browser/server.js');
const judge = require('./judge.js');

const JUPYTER = process.env.JUPYTER || '/usr/bin/jupyter';
const PYTHON = process.env.PYTHON || '/usr/bin/python3';
const BIN = process.env.PROFLENS_BIN || path.join(__dirname, '..', '..', 'bin', 'proflens');

// missingPictures compares the output areas of a page of nbconvert's or the
// classic Notebook's (one per saved output, in order) with the notebook nb:
// a picture output must show an inline <svg> with shapes or a loaded <img>;
// with altOK, an <img> the sanitizer emptied may instead show its alt text,
// provided no loose text of the picture lies around (an explorable view's
// output may hold tables, paragraphs and preformatted lines, such as a live
// view's status line, beside its picture: their text is not loose).
async function missingPictures(page, selector, nb, label, altOK) {
  const areas = await page.evaluate((sel) => [...document.querySelectorAll(sel)].map((o) => ({
    picture: [...o.querySelectorAll('svg')].some((s) => s.querySelector('path, rect, circle')) ||
      [...o.querySelectorAll('img')].some((im) => im.naturalWidth > 0),
    alt: [...o.querySelectorAll('img')].map((im) => im.alt).find((a) => a.trim() !== '') || '',
    svg: o.querySelector('svg') !== null,
    text: o.innerText.trim().replace(/\s+/g, ' ').slice(0, 100),
    loose: (() => { const c = o.cloneNode(true); c.querySelectorAll('table, p, pre').forEach((t) => t.remove()); return c.textContent.trim().replace(/\s+/g, ' '); })(),
  })), selector);
  const outs = nb.cells.flatMap((c, i) => (c.outputs || []).map((out, o) => ({ i, o, out })));
  if (areas.length !== outs.length) return [`${label}: ${areas.length} output areas for ${outs.length} saved outputs`];
  // An explorable view's output says under its picture which clicks it holds.
  const loose = (t) => t.replace(/^this output holds [\s\S]*$/, '');
  const shown = (a) => a.picture || (altOK && a.alt && !a.svg && loose(a.loose) === '');
  return outs.flatMap(({ i, o, out }, k) => (judge.isPicture(out) && !shown(areas[k])
    ? [`${label}: cell ${i} output ${o} shows no picture` + (altOK ? ' nor its alt text alone' : '') +
      (areas[k].svg ? ' (an <svg> without shapes)' : '') +
      (areas[k].text ? `, only the text ${JSON.stringify(areas[k].text)}` : '')] : []));
}

// nbconvert converts each saved notebook in dir to HTML with flags (none, or
// --sanitize-html) into dir/html, and looks for its pictures in Chromium.
// Sanitized, a picture may show as its alt text instead: nbconvert's
// sanitizer (lxml's Cleaner) removes every SVG data URL and all SVG
// content, so only PNG or JPEG pictures could survive it, and proflens
// draws SVG; what it must not show is the picture's text as a run-on.
async function nbconvert(page, dir, names, flags) {
  const sanitized = flags.includes('--sanitize-html');
  const fails = [];
  for (const name of names) {
    const out = path.join(dir, 'html', name.replace(/\.ipynb$/, flags.length ? '-sanitized' : ''));
    const r = spawnSync(JUPYTER, ['nbconvert', '--to', 'html', ...flags, '--output', out, path.join(dir, name)], { encoding: 'utf8' });
    if (r.status !== 0) { fails.push(`${name}: nbconvert exited ${r.status}: ${r.stderr.slice(-300)}`); continue; }
    await page.goto(`file://${out}.html`);
    const nb = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    fails.push(...await missingPictures(page, '.jp-OutputArea-output', nb, path.basename(out) + '.html', sanitized));
  }
  const what = sanitized ? 'every picture, or its alt text where the sanitizer removed it' : 'every picture';
  return [`nbconvert --to html${flags.map((f) => ' ' + f).join('')}: the saved notebooks show ${what}`, fails];
}

// classic opens the saved notebooks of dir in the classic Notebook (serving
// a copy under tmp), untrusted as written and then trusted as `jupyter
// trust` does (nbformat.sign, into the server's data directory), looks for
// their pictures and screenshots them into dir.
async function classic(context, dir, tmp, names) {
  const nbDir = path.join(tmp, 'notebooks');
  fs.mkdirSync(nbDir, { recursive: true });
  for (const name of names) fs.copyFileSync(path.join(dir, name), path.join(nbDir, name));
  const server = await srv.startNotebook({ jupyter: JUPYTER, bin: BIN, tmp, notebookDir: nbDir, timeoutMs: 30000 });
  const page = await context.newPage();
  const checks = [];
  try {
    for (const trusted of [false, true]) {
      if (trusted) execFileSync(PYTHON, ['-m', 'nbformat.sign', ...names.map((n) => path.join(nbDir, n))], { env: server.env, stdio: 'pipe' });
      const fails = [];
      for (const name of names) {
        await page.goto(`${server.url}/notebooks/${name}?token=${server.token}`);
        await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded, null, { timeout: 30000 });
        await page.waitForFunction(() => [...document.images].every((im) => im.complete));
        // A dialog opened while loading has put its backdrop in place by now;
        // Bootstrap adds the dialog itself once the backdrop has faded in.
        const dialog = page.locator('.modal .modal-dialog');
        if (await page.locator('.modal-backdrop, .modal').count()) {
          await dialog.waitFor();
          fails.push(`${name}: the Notebook opens with a dialog: ${JSON.stringify((await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 200))}`);
          await dialog.locator('.modal-footer button').first().click();
          await page.locator('.modal').waitFor({ state: 'detached' });
        }
        const t = await page.evaluate(() => Jupyter.notebook.trusted);
        if (t !== trusted) fails.push(`${name}: the Notebook says trusted=${t}, want ${trusted}`);
        fails.push(...await missingPictures(page, '.output_subarea', JSON.parse(fs.readFileSync(path.join(nbDir, name), 'utf8')), name));
        const h = await page.evaluate(() => document.querySelector('#notebook').scrollHeight + 200);
        await page.setViewportSize({ width: 1400, height: Math.min(h, 16000) }); // the Notebook scrolls inside #site
        await page.screenshot({ path: path.join(dir, `classic-${name.replace(/\.ipynb$/, '')}-${trusted ? 'trusted' : 'untrusted'}.png`) });
        await page.setViewportSize({ width: 1400, height: 1000 });
      }
      checks.push([`classic Notebook, ${trusted ? 'trusted' : 'untrusted'}: the saved notebooks show every picture`, fails]);
    }
  } finally {
    await page.close();
    await server.stop();
  }
  return checks;
}

module.exports = { nbconvert, classic };
