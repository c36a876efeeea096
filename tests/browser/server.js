// Helpers for the browser test: a private kernelspec, a classic Notebook
// server on loopback, Chromium through playwright-core, and a blank-image check.
'use strict';

const { spawn, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

// freePort asks the kernel for an unused loopback port.
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// sleep waits ms milliseconds.
function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// copyNotebooks copies notebooks/ (without rendered HTML) into a fresh temp
// directory so that runs never touch the repository's notebooks.
function copyNotebooks(src, dst) {
  fs.cpSync(src, dst, {
    recursive: true,
    filter: (p) => !p.endsWith('.html') && !p.includes('.ipynb_checkpoints'),
  });
}

// startNotebook installs the kernelspec for bin into a private prefix under
// tmp, starts the classic Notebook server on 127.0.0.1 and waits until its
// API answers. It returns {url, token, stop, log, env, runtimeDir}.
async function startNotebook({ jupyter, bin, tmp, notebookDir, timeoutMs }) {
  const prefix = path.join(tmp, 'prefix');
  execFileSync(bin, ['install', '--prefix', prefix], { stdio: 'pipe' });
  const port = await freePort();
  const token = crypto.randomBytes(16).toString('hex');
  const env = {
    ...process.env,
    JUPYTER_PATH: path.join(prefix, 'share', 'jupyter'),
    JUPYTER_CONFIG_DIR: path.join(tmp, 'config'),
    JUPYTER_DATA_DIR: path.join(tmp, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(tmp, 'runtime'),
    IPYTHONDIR: path.join(tmp, 'ipython'),
  };
  const args = [
    'notebook', '--no-browser', `--port=${port}`, '--port-retries=0', '--ip=127.0.0.1',
    `--NotebookApp.token=${token}`, '--allow-root', `--notebook-dir=${notebookDir}`,
  ];
  const logPath = path.join(tmp, 'notebook.log');
  const logFd = fs.openSync(logPath, 'w');
  const proc = spawn(jupyter, args, { env, stdio: ['ignore', logFd, logFd] });
  let exited = null;
  proc.on('exit', (code, sig) => { exited = `exit ${code ?? sig}`; });
  const url = `http://127.0.0.1:${port}`;
  const log = () => fs.readFileSync(logPath, 'utf8');

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`notebook server ended (${exited}) before answering:\n${log()}`);
    try {
      const r = await fetch(`${url}/api/kernelspecs?token=${token}`);
      if (r.ok) {
        const specs = await r.json();
        if (!specs.kernelspecs || !specs.kernelspecs.proflens) {
          throw new Error(`server lists no proflens kernel: ${JSON.stringify(Object.keys(specs.kernelspecs || {}))}`);
        }
        break;
      }
    } catch (e) {
      if (e.message.startsWith('server lists')) throw e;
    }
    if (Date.now() > deadline) throw new Error(`notebook server did not answer on ${url} within ${timeoutMs} ms:\n${log()}`);
    await sleep(200);
  }

  async function stop() {
    if (exited) return;
    try {
      await fetch(`${url}/api/shutdown?token=${token}`, { method: 'POST' });
    } catch (_) { /* fall through to signals */ }
    for (let i = 0; i < 50 && !exited; i++) await sleep(100);
    if (!exited) proc.kill('SIGTERM');
    for (let i = 0; i < 30 && !exited; i++) await sleep(100);
    if (!exited) proc.kill('SIGKILL');
  }
  return { url, token, stop, log, env, runtimeDir: env.JUPYTER_RUNTIME_DIR };
}

// chromiumArgs are the flags of a quiet, offline headless Chromium; the fresh
// profile directory is given to launchPersistentContext, which passes it as
// --user-data-dir.
function chromiumArgs() {
  return [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync',
  ];
}

// pngStats decodes a PNG in the page (through a canvas) and returns the
// number of pixels that are not near-white and the number of distinct colours
// (quantised to 4 bits a channel).
async function pngStats(page, png) {
  const dataUrl = 'data:image/png;base64,' + png.toString('base64');
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235) ink++;
      colours.add(((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4));
    }
    return { width: c.width, height: c.height, ink, colours: colours.size };
  }, dataUrl);
}

// makeTemp creates a fresh temporary directory for one run.
function makeTemp() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'proflens-browser-'));
}

module.exports = { startNotebook, chromiumArgs, pngStats, copyNotebooks, makeTemp, sleep, freePort };
