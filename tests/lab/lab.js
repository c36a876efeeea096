// The JupyterLab-stack front-end test (issue 21): the proflens kernel served
// by Debian's jupyter-server and driven from a page built from JupyterLab's
// own npm packages (services, rendermime, outputarea; page.js and
// describe.js, bundled with esbuild) in headless Chromium.
//
//   node tests/lab/lab.js      (make lab runs it after make build)
//
// Every notebooks/*.ipynb has its code cells run in trusted output areas, as
// Lab runs them; the outputs are saved as the notebook file Lab would write
// and rendered again untrusted (trusted: false), as Lab shows a notebook it
// did not run. judge.js checks pictures, tooltips, tables, errors, label
// contrast in Lab's light and dark themes, display updates; completion goes
// through Lab's services. elsewhere.js then converts the saved notebooks with
// nbconvert (plain and --sanitize-html) and opens them in the classic
// Notebook, untrusted and trusted. Everything lands in .build/lab/: the saved notebooks,
// screenshots NAME-{live,untrusted}-{light,dark}.png and the HTML.
// Each check prints ok or FAIL with its reasons; the last line counts them.
'use strict';

const { spawn, spawnSync, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const srv = require('../browser/server.js');
const judge = require('./judge.js');
const elsewhere = require('./elsewhere.js');
const clicks = require('./clicks.js');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, '.build', 'lab');
const NODE_MODULES = process.env.NODE_MODULES || path.join(ROOT, '.build', 'node', 'node_modules');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const JUPYTER = process.env.JUPYTER || '/usr/bin/jupyter';
const PYTHON = process.env.PYTHON || '/usr/bin/python3';
const BIN = process.env.PROFLENS_BIN || path.join(ROOT, 'bin', 'proflens');
const LARGE = path.join(ROOT, '..', 'shared', 'corpus', 'google-pprof', 'internal', 'proftest', 'testdata', 'large.cpu');
const THEMES = ['light', 'dark'];
// TOTAL_MS stops a test that hangs. It is a watchdog, not a speed check:
// on a quiet machine the run takes about 3 minutes, on a loaded 2-core
// one three times that, and the widest margin costs nothing when it passes.
const TOTAL_MS = 1200000;

const results = [];

// check records one named check and prints ok, or FAIL with its failures.
function check(name, failures) {
  results.push({ name, failures });
  if (!failures.length) return console.log(`ok   ${name}`);
  console.log(`FAIL ${name}`);
  for (const f of failures.slice(0, 12)) console.log(`       - ${f}`);
  if (failures.length > 12) console.log(`       - ... and ${failures.length - 12} more`);
}

// bundle builds page.js and JupyterLab's packages into one script.
async function bundle() {
  const esbuild = require(path.join(NODE_MODULES, 'esbuild'));
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'page.js')], bundle: true, format: 'iife', outfile: path.join(OUT, 'bundle.js'),
    nodePaths: [NODE_MODULES], loader: { '.svg': 'text', '.css': 'empty' }, logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' }, plugins: [amdAnywidget],
  });
}

// amdAnywidget hands anywidget's npm build, an AMD module (define([deps],
// factory)), to the page as a function of the define to call it with.
const amdAnywidget = {
  name: 'amd-anywidget',
  setup(build) {
    build.onLoad({ filter: /anywidget[\\/]dist[\\/]index\.js$/ }, (args) => ({
      contents: `export default function (define) {\n${fs.readFileSync(args.path, 'utf8')}\n}`, loader: 'js',
    }));
  },
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>proflens in JupyterLab's renderers</title>
<link rel="stylesheet" href="/nm/@lumino/widgets/style/widget.css">
<link rel="stylesheet" href="/nm/@jupyterlab/rendermime/style/base.css">
<link rel="stylesheet" href="/nm/@jupyterlab/outputarea/style/base.css">
<link id="theme" rel="stylesheet" href="/nm/@jupyterlab/theme-light-extension/style/theme.css">
<style>
body { margin: 0; padding: 8px 16px; background: var(--jp-layout-color0); color: var(--jp-content-font-color1);
  font-family: var(--jp-ui-font-family); font-size: var(--jp-ui-font-size1); }
section { padding: 4px 0; }
.src { margin: 12px 0 4px; padding: 4px 8px; background: var(--jp-cell-editor-background);
  border: 1px solid var(--jp-cell-editor-border-color); }
</style></head>
<body class="jp-ThemedContainer"><section id="live"></section><section id="saved"></section>
<script src="/bundle.js"></script></body></html>`;

// servePage serves the page, the bundle and JupyterLab's CSS on a loopback
// port of its own, so that the page reaches jupyter-server across origins as
// Lab on another port would (Chromium lets only a page loaded from loopback
// reach a loopback server). It returns {origin, close}.
async function servePage() {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(NODE_MODULES, path.normalize(p.replace(/^\/nm\//, '/')));
    let body = null;
    if (p === '/') body = [PAGE, 'text/html'];
    else if (p === '/bundle.js') body = [fs.readFileSync(path.join(OUT, 'bundle.js')), 'text/javascript'];
    else if (p.startsWith('/nm/') && p.endsWith('.css') && file.startsWith(NODE_MODULES) && fs.existsSync(file)) body = [fs.readFileSync(file), 'text/css'];
    res.writeHead(body ? 200 : 404, { 'Content-Type': body ? body[1] : 'text/plain' });
    res.end(body ? body[0] : 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

// startServer installs the kernelspec into tmp/prefix and starts
// jupyter-server on 127.0.0.1 with a token, serving nbDir, allowing the
// page's origin; it returns {url, token, env, log, stop}.
async function startServer(tmp, nbDir) {
  const prefix = path.join(tmp, 'prefix');
  execFileSync(BIN, ['install', '--prefix', prefix], { stdio: 'pipe' });
  const port = await srv.freePort();
  const token = crypto.randomBytes(16).toString('hex');
  const env = {
    ...process.env, JUPYTER_PATH: path.join(prefix, 'share', 'jupyter'), JUPYTER_CONFIG_DIR: path.join(tmp, 'config'),
    JUPYTER_DATA_DIR: path.join(tmp, 'data'), JUPYTER_RUNTIME_DIR: path.join(tmp, 'runtime'), IPYTHONDIR: path.join(tmp, 'ipython'),
  };
  const logPath = path.join(tmp, 'server.log');
  const fd = fs.openSync(logPath, 'w');
  const proc = spawn(PYTHON, ['-m', 'jupyter_server', '--no-browser', `--port=${port}`, '--port-retries=0', '--ip=127.0.0.1',
    `--ServerApp.token=${token}`, '--ServerApp.allow_origin=*', '--allow-root', `--ServerApp.root_dir=${nbDir}`],
  { env, stdio: ['ignore', fd, fd] });
  let exited = null;
  proc.on('exit', (code, sig) => { exited = `exit ${code ?? sig}`; });
  const url = `http://127.0.0.1:${port}`;
  const log = () => fs.readFileSync(logPath, 'utf8');
  async function stop() {
    await fetch(`${url}/api/shutdown?token=${token}`, { method: 'POST' }).catch(() => {});
    for (const sig of ['SIGTERM', 'SIGKILL']) {
      for (let i = 0; i < 50 && !exited; i++) await srv.sleep(100);
      if (!exited) proc.kill(sig);
    }
  }
  for (const deadline = Date.now() + 30000; ;) {
    if (exited) throw new Error(`jupyter-server ended (${exited}) before answering:\n${log()}`);
    const r = await fetch(`${url}/api/kernelspecs?token=${token}`).catch(() => null);
    if (r && r.ok) {
      const specs = (await r.json()).kernelspecs || {};
      if (!specs.proflens) { await stop(); throw new Error(`jupyter-server lists no proflens kernel: ${Object.keys(specs)}`); }
      return { url, token, env, log, stop, spec: path.join(prefix, 'share', 'jupyter', 'kernels', 'proflens', 'kernel.json') };
    }
    if (Date.now() > deadline) { await stop(); throw new Error(`jupyter-server did not answer on ${url}:\n${log()}`); }
    await srv.sleep(200);
  }
}

// leftovers kills, by id, the processes still running with tmp in their
// command line (a kernel the server did not shut down) and returns their ids.
function leftovers(tmp) {
  const pids = [];
  for (const d of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x) && Number(x) !== process.pid)) {
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8'); } catch (_) { continue; }
    if (cmd.includes(tmp)) pids.push(Number(d));
  }
  for (const p of pids) { try { process.kill(p, 'SIGKILL'); } catch (_) { /* gone already */ } }
  return pids;
}

const source = (c) => [].concat(c.source).join('');
const tags = (c) => (c.metadata && c.metadata.tags) || [];

// runNotebook runs every code cell of nb (named name) in the live view,
// writes the notebook as Lab would save it to OUT/name, renders that file
// untrusted in the saved view and returns the cells with what both views show.
async function runNotebook(page, server, name, nb) {
  await page.evaluate(() => lab.clear());
  const info = await page.evaluate(([u, t, p]) => lab.open(u, t, p), [server.url, server.token, name]);
  const cells = [];
  try {
    for (const [i, c] of nb.cells.entries()) {
      if (c.cell_type !== 'code') continue;
      const r = await page.evaluate(([k, s]) => lab.run(k, s), [i, source(c)]);
      Object.assign(c, { outputs: r.outputs, execution_count: r.count });
      cells.push({ i, source: source(c), raises: tags(c).includes('raises-exception'), ...r });
    }
  } finally {
    await page.evaluate(() => lab.close());
  }
  fs.writeFileSync(path.join(OUT, name), JSON.stringify(nb, null, 1) + '\n');
  const saved = JSON.parse(fs.readFileSync(path.join(OUT, name), 'utf8'));
  for (const c of cells) await page.evaluate(([k, s, o]) => lab.showSaved(k, s, o), [c.i, c.source, saved.cells[c.i].outputs]);
  await page.waitForFunction(() => [...document.images].every((im) => im.complete));
  await describe(page, cells);
  return { cells, info };
}

// validate runs nbformat's own validation, as jupyter_server and the classic
// Notebook do on opening a notebook.
function validate(file) {
  const r = spawnSync(PYTHON, ['-c', 'import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))', file], { encoding: 'utf8' });
  return r.status === 0 ? [] : [`nbformat.validate: ${r.stderr.trim().split('\n').filter(Boolean).slice(-4).join(' | ')}`];
}

async function describe(page, cells) {
  for (const c of cells) {
    c.live = await page.evaluate(([k]) => lab.describe('live', k), [c.i]);
    c.saved = await page.evaluate(([k]) => lab.describe('saved', k), [c.i]);
  }
}

// hover moves the mouse onto the largest titled node of a live picture and
// returns why its tooltip would not show, or null.
function hover(page) {
  return async (i, o, k) => {
    const pt = await page.evaluate((a) => lab.hoverTarget('live', ...a), [i, o, k]);
    if (!pt) return 'no point of a titled node is the element under the pointer (covered by other elements?)';
    await page.mouse.move(pt.x, pt.y);
    const got = await page.evaluate((a) => lab.hovered('live', ...a), [i, o, k]);
    await page.mouse.move(0, 0);
    return got === pt.title ? null : `hovering the node titled ${JSON.stringify(pt.title.split('\n')[0])} puts ${got === null ? 'no titled element' : JSON.stringify(got.split('\n')[0])} under :hover`;
  };
}

async function setTheme(page, theme) {
  await page.evaluate(async (href) => {
    const link = document.getElementById('theme');
    if (link.getAttribute('href') === href) return;
    const loaded = new Promise((r) => link.addEventListener('load', r, { once: true }));
    link.href = href;
    await loaded;
  }, `/nm/@jupyterlab/theme-${theme}-extension/style/theme.css`);
}

// judgeNotebook runs the checks that have something to look at in one
// notebook's cells and takes the screenshots in both themes.
async function judgeNotebook(page, name, cells) {
  const base = name.replace(/\.ipynb$/, '');
  const n = judge.counts(cells);
  console.log(`-- ${name}: ${n.cells} code cells, ${n.pictures} picture outputs (${n.svgs} live <svg>), ${n.tables} tables, ${n.errors} errors`);
  check(`${name}: every code cell runs (errors only where tagged raises-exception)`, judge.cellsRun(cells));
  check(`${name}: the notebook Lab saves validates (nbformat)`, [...validate(path.join(OUT, name)), ...judge.outputFields(cells)]);
  check(`${name}: HTML outputs show no markdown code span left unconverted`, judge.backticks(cells));
  if (n.pictures) {
    check(`${name}: live pictures are inline <svg>; proflens's have <title> tooltips that show on hover`, await judge.livePictures(cells, hover(page)));
    check(`${name}: saved, untrusted pictures still show as pictures`, judge.untrustedPictures(cells));
  }
  if (n.tables) {
    check(`${name}: tables render as tables, live and untrusted`, judge.tables(cells));
    check(`${name}: table columns of words are left-aligned, live and untrusted`, judge.tableLooks(cells));
  }
  if (n.errors) check(`${name}: errors show ename and evalue, live and untrusted`, judge.errors(cells));
  if (n.svgs) {
    check(`${name}: labels of a picture do not overlap`, judge.overlaps(cells));
    check(`${name}: no label is cut off at the edge of its picture`, judge.cut(cells));
    check(`${name}: one font family across the pictures`, judge.fonts(cells));
  }
  for (const theme of THEMES) {
    await setTheme(page, theme);
    if (n.svgs) {
      await describe(page, cells);
      check(`${name}: picture labels are legible in Lab's ${theme} theme`, judge.contrast(cells));
    }
    await page.locator('#live').screenshot({ path: path.join(OUT, `${base}-live-${theme}.png`) });
    await page.locator('#saved').screenshot({ path: path.join(OUT, `${base}-untrusted-${theme}.png`) });
  }
  await setTheme(page, 'light');
}

// completeOnce asks for completions at the end of code. A request that is
// not done in time is asked again once, and the first failure printed: in
// one run of about ten, a complete_request after the notebooks hung (its
// future never done) and the whole harness hit its time limit; the printed
// line says whether the reply or the idle status went missing.
async function completeOnce(page, code) {
  try {
    return await page.evaluate(([c]) => lab.complete(c, c.length), [code]);
  } catch (e) {
    if (!/not done within/.test(e.message)) throw e;
    console.log(`note: completing ${JSON.stringify(code)}: ${e.message.split('\n')[0]}; asking again`);
    return page.evaluate(([c]) => lab.complete(c, c.length), [code]);
  }
}

// completion asks through Lab's services, with astral characters before the
// cursor so that UTF-16 indices and code points differ.
async function completion(page, server) {
  await page.evaluate(([u, t]) => lab.open(u, t, 'completion.ipynb'), [server.url, server.token]);
  try {
    const fails = [];
    for (const [code, want] of [['ech', 'echo'], ['echo 😀😀 π\nech', 'echo 😀😀 π\necho'], ['echo 😀 \\\n  x\nlev', 'echo 😀 \\\n  x\nlevel']]) {
      const r = await completeOnce(page, code);
      if (r.text !== want) fails.push(`completing ${JSON.stringify(code)} gives ${JSON.stringify(r.text)} (status ${r.status}, matches ${JSON.stringify(r.matches.slice(0, 5))}), want ${JSON.stringify(want)}`);
    }
    return fails;
  } finally {
    await page.evaluate(() => lab.close());
  }
}

// scenario is a notebook of the harness's own: an error on purpose and a
// long load, where issue 21 wants progress shown with display updates.
function scenario() {
  const cell = (src, raises) => ({ cell_type: 'code', source: src, metadata: raises ? { tags: ['raises-exception'] } : {}, outputs: [], execution_count: null });
  const cells = [cell('lod demo:profvis-toy', true)];
  if (fs.existsSync(LARGE)) cells.push(cell(`load ${LARGE} as large`));
  return { cells, metadata: {}, nbformat: 4, nbformat_minor: 5 };
}

// judgeSelf checks the judges that read text against examples of both kinds.
function judgeSelf() {
  const spans = ['run `help top` to see', '`x` at the start', 'a (`x`)', 'use `load`.'];
  const names = ['wordfreq`main wordfreq`read_text', 'ld-linux.so.2`0x1ab70 [53]', '[kernel.kallsyms]`do_syscall_64'];
  return [...spans.filter((s) => !judge.codeSpan.test(s)).map((s) => `a code span not found in ${JSON.stringify(s)}`),
    ...names.filter((s) => judge.codeSpan.test(s)).map((s) => `a name's backtick taken for a code span in ${JSON.stringify(s)}`)];
}

async function main() {
  check('the judges tell a markdown code span from a name\'s backtick', judgeSelf());
  for (const [what, p] of [['chromium', CHROMIUM], ['jupyter', JUPYTER], ['kernel binary (make build)', BIN]]) {
    if (!fs.existsSync(p)) throw new Error(`no ${what} at ${p}`);
  }
  const { chromium } = require(path.join(NODE_MODULES, 'playwright-core'));
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(path.join(OUT, 'html'), { recursive: true });
  await bundle();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'proflens-lab-'));
  const nbDir = path.join(tmp, 'notebooks');
  srv.copyNotebooks(path.join(ROOT, 'notebooks'), nbDir);
  let server = null;
  let browser = null;
  let pageServer = null;
  const cleanup = async () => {
    if (browser) await browser.close().catch(() => {});
    if (pageServer) pageServer.close();
    if (server) await server.stop();
    const left = leftovers(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    return left;
  };
  const watchdog = setTimeout(async () => {
    console.error(`FAIL lab: the whole test took longer than ${TOTAL_MS / 1000}s`);
    await cleanup();
    process.exit(1);
  }, TOTAL_MS);
  try {
    server = await startServer(tmp, nbDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: srv.chromiumArgs() });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Each step's bound on a hung page, with room for a loaded machine
    // (a screenshot waited 60 s for a stable element at load 11 on 2 cores).
    context.setDefaultTimeout(180000);
    pageServer = await servePage();
    const blocked = [];
    await context.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (['data:', 'file:'].includes(u.protocol) || u.hostname === '127.0.0.1') return route.continue();
      blocked.push(u.href);
      return route.abort();
    });
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('requestfailed', (r) => pageErrors.push(`${r.method()} ${r.url()} failed: ${r.failure().errorText}`));
    await page.goto(`${pageServer.origin}/`);
    await page.waitForFunction(() => window.lab);

    // fleet.ipynb reads a profile store: make notebooks-stores runs it against one.
    // LAB_NOTEBOOKS=a.ipynb,b.ipynb runs only those (none: only the harness's own), to try one thing quickly.
    const only = process.env.LAB_NOTEBOOKS ? process.env.LAB_NOTEBOOKS.split(',') : null;
    const names = fs.readdirSync(nbDir).filter((n) => n.endsWith('.ipynb') && (n !== 'fleet.ipynb' || process.env.PYROSCOPE) && (!only || only.includes(n))).sort();
    if (!process.env.PYROSCOPE) console.log('SKIP fleet.ipynb in lab: it reads a Pyroscope store ($PYROSCOPE unset; make notebooks-stores runs it)');
    const all = [];
    let info = null;
    for (const name of [...names, 'scenario.ipynb']) {
      const nb = name === 'scenario.ipynb' ? scenario() : JSON.parse(fs.readFileSync(path.join(nbDir, name), 'utf8'));
      const r = await runNotebook(page, server, name, nb);
      await judgeNotebook(page, name, r.cells);
      all.push(...r.cells);
      info = r.info;
    }
    await clicks.explore(page, server, OUT, check, setTheme, pageErrors);
    const spec = JSON.parse(fs.readFileSync(server.spec, 'utf8'));
    check('kernel.json\'s kernel_protocol_version is what kernel_info reports', spec.kernel_protocol_version === info.protocol_version ? []
      : [`kernel.json says ${JSON.stringify(spec.kernel_protocol_version)}, kernel_info ${JSON.stringify(info.protocol_version)}`]);
    check('update_display_data replaces an output in place', judge.displayUpdates(all));
    check('completion through Lab\'s services (cursor in code points)', await completion(page, server));
    check('no JavaScript errors or failed requests in the page', [...pageErrors]);
    const saved = [...names, 'widgets.ipynb'];
    check(...await elsewhere.nbconvert(page, OUT, saved, []));
    check(...await elsewhere.nbconvert(page, OUT, saved, ['--sanitize-html']));
    for (const c of await elsewhere.classic(context, OUT, path.join(tmp, 'classic'), saved)) check(...c);
    if (blocked.length) console.log(`note: blocked ${blocked.length} off-host requests, e.g. ${blocked[0]}`);
  } catch (e) {
    check('the harness ran to its end', [e.stack || e.message]);
    if (server) console.log('jupyter-server log (tail):\n' + server.log().slice(-3000));
  } finally {
    clearTimeout(watchdog);
    const left = await cleanup();
    check('jupyter-server shut down every kernel it started', left.map((p) => `process ${p} was still running and was killed`));
  }
  const failed = results.filter((r) => r.failures.length).length;
  console.log(`screenshots, saved notebooks and HTML in ${path.relative(ROOT, OUT)}/`);
  console.log(`lab: ${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(`FAIL lab: ${e.stack || e.message}`);
  process.exit(1);
});
