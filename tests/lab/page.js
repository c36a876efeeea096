// The page of the JupyterLab-stack test, bundled by tests/lab/lab.js with
// esbuild: JupyterLab's own services (kernel over the server's websocket),
// rendermime with its standard renderers and output areas, exposed to the
// driver as window.lab with describe.js, which reports what the page shows.
import { ServerConnection, KernelManager, SessionManager, KernelMessage } from '@jupyterlab/services';
import { RenderMimeRegistry, standardRendererFactories } from '@jupyterlab/rendermime';
import { OutputArea, OutputAreaModel } from '@jupyterlab/outputarea';
import { Text } from '@jupyterlab/coreutils';
import { Widget } from '@lumino/widgets';
import { describe, hoverTarget, hovered } from './describe.js';
import { Manager, rendererFactory, insidePoint } from './widgets.js';

const rendermime = new RenderMimeRegistry({ initialFactories: standardRendererFactories });
// plain renders as a front end without widget support does.
const plain = new RenderMimeRegistry({ initialFactories: standardRendererFactories });
let session = null;
let manager = null;
const models = {}; // live cell index → its output area's model

// outputs returns live cell i's outputs as the notebook would save them now.
function outputs(i) {
  return models[i].toJSON();
}
rendermime.addFactory(rendererFactory(() => manager), 0);

// open starts a kernel for the notebook at path through a server session, as
// Lab does when it opens a notebook, and returns kernel_info's reply.
async function open(baseUrl, token, path) {
  const serverSettings = ServerConnection.makeSettings({ baseUrl, token, appendToken: true });
  const sessions = new SessionManager({ serverSettings, kernelManager: new KernelManager({ serverSettings }) });
  session = await sessions.startNew({ path, name: path, type: 'notebook', kernel: { name: 'proflens' } });
  manager = new Manager(session.kernel);
  const info = await session.kernel.info;
  return { protocol_version: info.protocol_version, implementation: info.implementation };
}

// restart restarts the kernel as Lab's "Restart Kernel" does (the server
// restarts it; the connection, its comm targets and the widget manager stay).
async function restart() {
  await session.kernel.restart();
}

async function close() {
  if (session) await session.shutdown();
  session = null;
}

// widgetTarget returns a point inside the largest element matching
// selector in the widget view of live cell i (one the pointer would hit),
// with its id, tooltip's first line and the part of the picture it is in
// (data-pl-part: a cel's number), or null.
function widgetTarget(i, selector, titleMatch) {
  const pic = document.querySelector(`#live .cell[data-i="${i}"] .pl-view .pl-pic`);
  if (!pic) return null;
  const area = (e) => { const r = e.getBoundingClientRect(); return r.width * r.height; };
  const title = (e) => { const t = e.querySelector(':scope > title'); return t ? t.textContent.split('\n')[0] : ''; };
  const els = [...pic.querySelectorAll(selector)].filter((e) => !titleMatch || new RegExp(titleMatch).test(title(e)));
  for (const el of els.sort((a, b) => area(b) - area(a))) {
    el.scrollIntoView({ block: 'center' });
    const pt = insidePoint(el);
    const part = el.closest('[data-pl-part]');
    if (pt) return { ...pt, id: el.id || el.getAttribute('data-pl-id') || '', title: title(el), part: part ? part.getAttribute('data-pl-part') : '' };
  }
  return null;
}

// widgetView describes the widget view of live cell i: its status line,
// breadcrumbs, clicks, the picture's title line and its tables' text.
function widgetView(i) {
  const v = document.querySelector(`#live .cell[data-i="${i}"] .pl-view`);
  if (!v) return null;
  const q = (sel) => { const e = v.querySelector(sel); return e ? (e.value !== undefined && e.tagName === 'TEXTAREA' ? e.value : e.textContent) : ''; };
  const title = v.querySelector('.pl-pic svg text');
  return { status: q('.pl-status'), crumbs: q('.pl-crumbs'), clicks: q('.pl-clicks-text'), busy: v.classList.contains('pl-busy'),
    title: title ? title.textContent : '', tables: [...v.querySelectorAll('.pl-pic table')].map((t) => t.textContent),
    svgs: v.querySelectorAll('.pl-pic svg').length, highlighted: v.querySelectorAll('.pl-pic .pl-hl').length,
    outlined: v.querySelectorAll('.pl-pic [data-pl-id^="iv-"] rect[stroke="#000"]').length, error: v.querySelector('.pl-status.pl-error') !== null, gone: v.classList.contains('pl-gone'),
    controls: [...v.querySelectorAll('.pl-controls [data-pl-control]')].map((e) => e.dataset.plControl) };
}

// widgetState is the manager's state of every model, as JupyterLab saves
// it in a notebook's metadata (widgets, application/vnd.jupyter.widget-state+json).
async function widgetState() {
  return manager ? manager.get_state({ drop_defaults: true }) : null;
}

// showPlain renders saved outputs trusted in a front end without widget
// support.
function showPlain(i, source, outputs) {
  const model = new OutputAreaModel({ values: outputs, trusted: true });
  Widget.attach(new OutputArea({ model, rendermime: plain }), cellDiv('saved', i, source));
}

// cellDiv appends a cell (its source and an output host) to the view.
function cellDiv(view, i, source) {
  const cell = document.createElement('div');
  cell.className = 'cell';
  cell.dataset.i = i;
  const pre = document.createElement('pre');
  pre.className = 'src';
  pre.textContent = source;
  const out = document.createElement('div');
  cell.append(pre, out);
  document.getElementById(view).append(cell);
  return out;
}

// run executes one cell in a trusted output area, as Lab runs a cell, and
// returns the execute reply's status, every iopub message of the request (type,
// display_id, content) and the outputs as the notebook would save them.
async function run(i, code, keep) {
  const model = new OutputAreaModel({ trusted: true });
  models[i] = model;
  const area = new OutputArea({ model, rendermime });
  Widget.attach(area, cellDiv('live', i, code));
  const kernel = session.kernel;
  const msgs = [];
  let id = null;
  const collect = (_, msg) => {
    if (msg.parent_header.msg_id !== id || msg.header.msg_type === 'status') return;
    const { transient, ...content } = msg.content;
    msgs.push({ type: msg.header.msg_type, display_id: transient && transient.display_id, content });
  };
  kernel.iopubMessage.connect(collect);
  // keep: the future stays, as JupyterLab's cells keep theirs, so that
  // display updates sent later (a widget's click) reach the output.
  const future = kernel.requestExecute({ code, stop_on_error: false }, !keep);
  id = future.msg.header.msg_id;
  area.future = future;
  const reply = await future.done;
  kernel.iopubMessage.disconnect(collect);
  return { status: reply.content.status, count: reply.content.execution_count, msgs, outputs: model.toJSON() };
}

// showSaved renders saved outputs (nbformat JSON) untrusted, as Lab does for
// a notebook it did not run.
function showSaved(i, source, outputs) {
  const model = new OutputAreaModel({ values: outputs, trusted: false });
  Widget.attach(new OutputArea({ model, rendermime }), cellDiv('saved', i, source));
}

// complete asks for completions as JupyterLab 4's completer does: the cursor
// converted to code points before the request, the reply's range back to
// JavaScript indices; it returns the text after inserting the first match.
// A request that is not done (reply and idle status) within 20 s is an
// error saying which of the two arrived, and what iopub carried for it.
async function complete(code, jsCursor) {
  const cursor_pos = Text.jsIndexToCharIndex(jsCursor, code);
  const kernel = session.kernel;
  const msg = KernelMessage.createMessage({ msgType: 'complete_request', channel: 'shell', session: kernel.clientId, content: { code, cursor_pos } });
  const seen = [];
  const watch = (_, m) => {
    if (m.parent_header.msg_id === msg.header.msg_id) seen.push(m.header.msg_type + (m.content.execution_state ? ' ' + m.content.execution_state : ''));
  };
  kernel.iopubMessage.connect(watch);
  const future = kernel.sendShellMessage(msg, true, true);
  let replied = false;
  future.onReply = () => { replied = true; };
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, 60000, null); });
  const done = await Promise.race([future.done, late]);
  clearTimeout(timer);
  kernel.iopubMessage.disconnect(watch);
  if (done === null) {
    throw new Error(`complete_request not done within 60 s: ${replied ? 'its reply came' : 'no reply'}; iopub for it: [${seen.join(', ')}]`);
  }
  const reply = done.content;
  const start = Text.charIndexToJsIndex(reply.cursor_start, code);
  const end = Text.charIndexToJsIndex(reply.cursor_end, code);
  const match = reply.matches[0];
  return { status: reply.status, matches: reply.matches, text: match === undefined ? null : code.slice(0, start) + match + code.slice(end) };
}

function clear() {
  for (const v of ['live', 'saved']) document.getElementById(v).replaceChildren();
}

window.lab = { open, close, restart, run, showSaved, complete, clear, describe, hoverTarget, hovered, widgetTarget, widgetView, widgetState, showPlain, outputs };
