// proflens's explorable view: the front end of a widget of the anywidget
// model (AnyModel, AnyView). The kernel keeps the state: html (the
// picture, inline SVG, and any tables), command (what draws the view),
// clicks (the command lines the clicks stood for), crumbs (the clicks one
// can step back over), error, answered (a count of answers), controls and
// _closed. A click on the picture or a control sends
// {event: "click", id, title, part, shift, name, value} (part: the
// data-pl-part of the picture's part clicked, such as a cel's number); a breadcrumb sends
// {event: "crumb", index}. The view waits for the next answer and says so;
// one that does not come within NO_ANSWER_MS is reported (the kernel is
// busy with a cell, or restarted, so this view has no kernel side). When
// the widget manager marks the model's comm dead (JupyterLab's does as the
// kernel restarts), or a message cannot be sent, the view says its kernel
// is gone and sends nothing more.
const NO_ANSWER_MS = 10000;
const GONE = 'the kernel of this view restarted or is gone: a click has nothing to answer it; run the cell again for a view that answers';

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render({ model, el }) {
  const root = h('div', 'pl-view');
  const crumbs = h('div', 'pl-crumbs');
  const pic = h('div', 'pl-pic');
  const status = h('div', 'pl-status');
  const controls = h('div', 'pl-controls');
  const clicks = h('div', 'pl-clicks');
  root.append(crumbs, controls, pic, status, clicks);
  el.append(root);
  let timer = null;
  let waiting = '';
  let gone = false;

  const lose = () => {
    gone = true;
    if (timer) clearTimeout(timer);
    timer = null;
    root.classList.remove('pl-busy');
    root.classList.add('pl-gone');
    drawStatus();
  };

  const send = (msg, what) => {
    if (gone) return lose();
    if (timer) return; // one request at a time: the kernel answers in order
    waiting = what;
    root.classList.add('pl-busy');
    status.textContent = 'running: ' + what + ' …';
    status.className = 'pl-status';
    timer = setTimeout(() => {
      timer = null;
      root.classList.remove('pl-busy');
      status.textContent = 'no answer from the kernel to ' + waiting + ' in ' + NO_ANSWER_MS / 1000 +
        ' s: it is busy with a cell, or it restarted since this view was drawn (then run its cell again)';
      status.className = 'pl-status pl-error';
    }, NO_ANSWER_MS);
    try {
      model.send(msg);
    } catch (e) {
      lose();
    }
  };

  const target = (ev) => {
    const g = ev.target.closest('g.pl-n, [data-pl-id], [id]');
    if (!g || !pic.contains(g)) return null;
    const t = g.querySelector(':scope > title');
    const part = g.closest('[data-pl-part]');
    return {
      id: g.getAttribute('data-pl-id') || g.id || '', title: t ? t.textContent.split('\n')[0] : '',
      group: g.getAttribute('data-pl-group') || '', part: part ? part.getAttribute('data-pl-part') : '',
    };
  };

  const onClick = (ev) => {
    const t = target(ev);
    if (!t || (!t.id && !t.title)) return;
    ev.preventDefault();
    if (t.group) {
      for (const x of pic.querySelectorAll('.pl-hl')) x.classList.remove('pl-hl');
      for (const x of pic.querySelectorAll('[data-pl-group="' + CSS.escape(t.group) + '"]')) x.classList.add('pl-hl');
    }
    send({ event: 'click', id: t.id, title: t.title, part: t.part, shift: ev.shiftKey }, t.title || t.id);
  };
  pic.addEventListener('click', onClick);

  const drawCrumbs = () => {
    crumbs.replaceChildren();
    const list = model.get('crumbs') || [];
    const start = h('a', 'pl-crumb', list.length ? model.get('crumbs_from') || 'start' : model.get('command'));
    start.title = 'back to the view before this click';
    if (list.length) start.onclick = () => send({ event: 'crumb', index: 0 }, 'back');
    else start.classList.add('pl-current');
    crumbs.append(start);
    list.forEach((label, i) => {
      crumbs.append(h('span', 'pl-sep', ' › '));
      const a = h('a', 'pl-crumb', label);
      if (i < list.length - 1) a.onclick = () => send({ event: 'crumb', index: i + 1 }, 'back');
      else a.classList.add('pl-current');
      crumbs.append(a);
    });
  };

  // Per text control, the value last sent, kept on the model (locally, never
  // synced) since each answer draws a new view: it stays in the input.
  const sent = () => model.get('_pl_sent') || {};
  const drawControls = () => {
    controls.replaceChildren();
    for (const c of model.get('controls') || []) {
      const box = h('span', 'pl-control');
      if (c.kind === 'text') {
        const input = h('input');
        input.value = sent()[c.name] !== undefined ? sent()[c.name] : c.value || '';
        input.setAttribute('aria-label', c.label);
        input.dataset.plControl = c.name;
        const b = h('button', '', c.label);
        b.dataset.plControl = c.name;
        b.onclick = () => {
          model.set('_pl_sent', { ...sent(), [c.name]: input.value });
          send({ event: 'click', name: c.name, value: input.value }, c.label + ' ' + input.value);
        };
        input.onkeydown = (e) => { if (e.key === 'Enter') b.click(); };
        box.append(input, b);
      } else {
        const b = h('button', '', c.label);
        b.dataset.plControl = c.name;
        b.onclick = () => send({ event: 'click', name: c.name, value: c.value || '' }, c.label);
        box.append(b);
      }
      controls.append(box);
    }
  };

  const drawClicks = () => {
    clicks.replaceChildren();
    const list = model.get('clicks') || [];
    if (!list.length) return;
    const text = list.join('\n');
    const head = h('div', 'pl-clicks-head', list.length === 1 ? '1 click, as a command to paste into a cell:' : list.length + ' clicks, as commands to paste into a cell:');
    const copy = h('button', 'pl-copy', 'copy clicks');
    const area = h('textarea', 'pl-clicks-text');
    area.readOnly = true;
    area.rows = Math.min(list.length, 6);
    area.value = text;
    copy.onclick = () => {
      area.select();
      const done = () => { copy.textContent = 'copied'; setTimeout(() => { copy.textContent = 'copy clicks'; }, 1500); };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => { document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    };
    head.append(' ', copy);
    clicks.append(head, area);
  };

  const drawStatus = () => {
    const closed = model.get('_closed');
    const err = model.get('error');
    const list = model.get('clicks') || [];
    status.className = 'pl-status' + (err || closed || gone ? ' pl-error' : '');
    if (gone) status.textContent = GONE;
    else if (closed) status.textContent = closed;
    else if (err) status.textContent = err;
    else status.textContent = list.length ? 'clicked: ' + list[list.length - 1] : 'click a node to explore it' ;
  };

  const draw = () => {
    pic.innerHTML = model.get('html') || '';
    drawCrumbs();
    drawControls();
    drawClicks();
    drawStatus();
  };
  const answered = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    root.classList.remove('pl-busy');
    draw();
  };
  model.on('change:answered', answered);
  model.on('change:_closed', drawStatus);
  model.on('comm_live_update', lose); // the manager set the comm dead: the kernel restarted or went away
  draw();
  return () => {
    if (timer) clearTimeout(timer);
    pic.removeEventListener('click', onClick);
    model.off('change:answered', answered);
    model.off('change:_closed', drawStatus);
    model.off('comm_live_update', lose);
  };
}

export default { render };
