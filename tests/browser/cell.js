// Cell-level actions in the classic Notebook: type into a cell, run it with
// Shift+Enter, wait for the kernel, read the output area.
'use strict';

const PROMPT_DONE = /\[\d+\]/;

// at returns the i-th cell of the notebook.
function at(nb, i) {
  return nb.locator('#notebook-container > .cell').nth(i);
}

// output returns the output area of cell i.
function output(nb, i) {
  return at(nb, i).locator('.output_area');
}

// waitIdle waits until the kernel indicator shows an idle kernel.
async function waitIdle(nb, timeout) {
  try {
    await nb.locator('#kernel_indicator_icon.kernel_idle_icon').waitFor({ state: 'attached', timeout });
  } catch (e) {
    const cls = await nb.locator('#kernel_indicator_icon').getAttribute('class').catch(() => '?');
    throw new Error(`kernel not idle after ${timeout} ms (indicator: ${cls})`);
  }
}

// idleCount returns how many idle statuses the page has seen from the
// kernel, counting from the first call.
async function idleCount(nb) {
  return nb.evaluate(() => {
    if (window.proflensIdles === undefined) {
      window.proflensIdles = 0;
      Jupyter.notebook.events.on('kernel_idle.Kernel', () => { window.proflensIdles++; });
    }
    return window.proflensIdles;
  });
}

// waitIdleAfter waits for an idle status beyond the first n: the one that
// ends the request sent since. The reply that numbers the prompt comes on
// the shell channel, the outputs and the idle status on iopub, and on a
// busy machine the reply can arrive first; only the idle status says the
// outputs are all there.
async function waitIdleAfter(nb, n, timeout) {
  try {
    await nb.waitForFunction((k) => window.proflensIdles > k, n, { timeout, polling: 50 });
  } catch (e) {
    throw new Error(`no idle status from the kernel within ${timeout} ms`);
  }
}

// type clicks into cell i's editor, selects what is there and types text.
async function type(nb, i, text) {
  const editor = at(nb, i).locator('.CodeMirror');
  await editor.waitFor({ state: 'visible', timeout: 10000 });
  await editor.click();
  await nb.keyboard.press('Control+A');
  await nb.keyboard.type(text);
}

// run types text into cell i, runs it with Shift+Enter, waits for its prompt
// number and an idle kernel, and returns the output text. An error output
// fails the step unless opts.error is set, which instead requires one.
async function run(nb, i, text, opts = {}) {
  await type(nb, i, text);
  const idles = await idleCount(nb);
  await nb.keyboard.press('Shift+Enter');
  const prompt = at(nb, i).locator('.input_prompt');
  const deadline = Date.now() + 20000;
  let p = '';
  while (!PROMPT_DONE.test(p = await prompt.innerText())) {
    if (Date.now() > deadline) throw new Error(`cell ${i} (${JSON.stringify(text)}) did not finish: prompt ${p}`);
    await nb.waitForTimeout(50);
  }
  await waitIdleAfter(nb, idles, 10000);
  const errs = await at(nb, i).locator('.output_error').count();
  if (opts.error && errs === 0) throw new Error(`cell ${i} (${JSON.stringify(text)}) shows no error output`);
  if (!opts.error && errs > 0) {
    const e = await at(nb, i).locator('.output_error').first().innerText();
    throw new Error(`cell ${i} (${JSON.stringify(text)}) shows an error: ${e.slice(0, 300)}`);
  }
  const areas = await output(nb, i).allInnerTexts();
  return areas.join('\n');
}

// complete types prefix into cell i, presses Tab and waits until the editor
// reads want (a single match is inserted) or the completer offers want.
async function complete(nb, i, prefix, want) {
  await type(nb, i, prefix);
  await nb.keyboard.press('Tab');
  try {
    await nb.waitForFunction(([idx, w]) => {
      const text = Jupyter.notebook.get_cell(idx).get_text();
      const opts = [...document.querySelectorAll('#complete select option')].map((o) => o.textContent);
      return text.startsWith(w) || opts.includes(w);
    }, [i, want], { timeout: 10000, polling: 50 });
  } catch (e) {
    const text = await nb.evaluate((idx) => Jupyter.notebook.get_cell(idx).get_text(), i);
    throw new Error(`Tab after ${JSON.stringify(prefix)} gave ${JSON.stringify(text)}, want ${JSON.stringify(want)}`);
  }
  if (await nb.locator('#complete').count()) await nb.keyboard.press('Escape');
}

// waitAllRun waits until every code cell has a prompt number and the kernel
// is idle; it returns the number of code cells.
async function waitAllRun(nb, timeout) {
  try {
    await nb.waitForFunction((re) => {
      const ps = [...document.querySelectorAll('.code_cell .input_prompt')].map((p) => p.innerText);
      const idle = document.querySelector('#kernel_indicator_icon.kernel_idle_icon') !== null;
      return idle && ps.length > 0 && ps.every((p) => new RegExp(re).test(p));
    }, PROMPT_DONE.source, { timeout, polling: 200 });
  } catch (e) {
    const ps = await nb.locator('.code_cell .input_prompt').allInnerTexts();
    const pending = ps.map((p, k) => [k, p]).filter(([, p]) => !PROMPT_DONE.test(p));
    throw new Error(`not all cells ran within ${timeout} ms; pending cells: ${JSON.stringify(pending.slice(0, 5))}`);
  }
  return nb.locator('.code_cell').count();
}

module.exports = { at, output, waitIdle, type, run, complete, waitAllRun };
