// The front-end test: the classic Jupyter Notebook in headless Chromium,
// driving the proflens kernel as a person would (DESIGN.md §9).
//
//   node tests/browser/notebook.js     (make browser runs it after make build)
//
// It installs the kernelspec of bin/proflens (or $PROFLENS_BIN) into a private
// prefix, serves a temporary copy of notebooks/ on 127.0.0.1, opens a new
// proflens notebook from the tree's New menu, types cells and runs them with
// Shift+Enter, checks the outputs in the DOM (inline SVG with tooltips and
// visible labels, hover, errors, Tab completion, the pager), then opens
// tour.ipynb and runs Kernel → Restart & Run All. Screenshots go to
// .build/browser/. Without chromium it prints SKIP and exits 0, and fails under
// make test (PROFLENS_STRICT=1).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const srv = require('./server.js');
const steps = require('./steps.js');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, '.build', 'browser');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const JUPYTER = process.env.JUPYTER || '/usr/bin/jupyter';
const BIN = process.env.PROFLENS_BIN || path.join(ROOT, 'bin', 'proflens');
// TOTAL_MS stops a test that hangs: a watchdog with room for a loaded machine.
const TOTAL_MS = 600000;
const STRICT = process.env.PROFLENS_STRICT === '1';

function skipOrFail(why) {
  if (STRICT) {
    console.error(`FAIL browser: ${why} (apt-get install -y chromium; under make test a check that cannot run fails)`);
    process.exit(1);
  }
  console.log(`SKIP browser: ${why}`);
  process.exit(0);
}

function loadPlaywright() {
  try {
    return require('playwright-core');
  } catch (e) {
    console.error('FAIL browser: cannot load playwright-core (install it with: ' +
      'npm install --prefix .build/node playwright-core; then set NODE_PATH=.build/node/node_modules)');
    process.exit(1);
  }
}

async function main() {
  if (!fs.existsSync(CHROMIUM)) skipOrFail(`no chromium at ${CHROMIUM}`);
  if (!fs.existsSync(JUPYTER)) throw new Error(`no jupyter at ${JUPYTER} (make jupyter-check installs it)`);
  if (!fs.existsSync(BIN)) throw new Error(`no kernel binary at ${BIN} (run make build)`);
  const { chromium } = loadPlaywright();
  fs.mkdirSync(OUT, { recursive: true });

  const tmp = srv.makeTemp();
  const nbDir = path.join(tmp, 'notebooks');
  srv.copyNotebooks(path.join(ROOT, 'notebooks'), nbDir);
  let server = null;
  let context = null;
  const watchdog = setTimeout(() => {
    console.error(`FAIL browser: the whole test took longer than ${TOTAL_MS / 1000}s`);
    if (server) console.error('notebook server log (tail):\n' + server.log().slice(-3000));
    process.exit(1);
  }, TOTAL_MS);
  try {
    server = await srv.startNotebook({ jupyter: JUPYTER, bin: BIN, tmp, notebookDir: nbDir, timeoutMs: 30000 });
    context = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: srv.chromiumArgs(),
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(20000);
    const blocked = [];
    await context.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (u.protocol === 'data:' || u.hostname === '127.0.0.1') return route.continue();
      blocked.push(u.href);
      return route.abort();
    });
    const t = { context, server, out: OUT };
    await steps.newNotebook(t);
    await steps.tour(t);
    if (blocked.length) console.log(`note: blocked ${blocked.length} off-host requests, e.g. ${blocked[0]}`);
    console.log(`PASS browser (screenshots in ${path.relative(ROOT, OUT)}/)`);
  } catch (e) {
    console.error(`FAIL browser: ${e.message}`);
    if (server) console.error('notebook server log (tail):\n' + server.log().slice(-3000));
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    if (context) await context.close().catch(() => {});
    if (server) await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`FAIL browser: ${e.message}`);
  process.exit(1);
});
