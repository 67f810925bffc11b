/*
 * The participant page of a human baseline study (resources/web/study/participant.html,
 * served by studio/services/studies/web.py under the participant's link).
 *
 * Screens come from the server (api/claim, api/state): consent (the protocol card), the
 * practice task, the next task, a break, the task itself, done. During a task the page loads
 * the task's project from api/project, drains the input capture (input-capture.js) every
 * POST_MS and posts the events with coordinates relative to the editor's top left corner
 * (events on the bar are not the editor's and are left out); the post also keeps the page's
 * claim alive. The project goes up as a checkpoint every CHECKPOINT_MS when it changed, and
 * with Finish / Give up / the end of the time limit. The page never loads another project:
 * the editor's File > Load from your computer opens no file chooser, a file dropped on the
 * page is refused, and each attempt is reported as a protocol breach (api/breach).
 * A refusal from the server (another tab, a bad request) is shown as the server words it.
 * The page loads this script before the editor's (it claims the link at once) and waits for
 * the editor before it shows a task.
 */
(function () {
  'use strict';
  const POST_MS = 700;
  const CHECKPOINT_MS = 5000;
  const rand = new Uint8Array(12);
  crypto.getRandomValues(rand);
  const TAB = Array.from(rand, (b) => b.toString(16).padStart(2, '0')).join('');
  const $ = (id) => document.getElementById(id);
  const editorEl = $('editor');
  let state = null;
  let timer = null;
  let clockTimer = null;
  let clockBase = 0;
  let clockAt = 0;
  let ending = false;
  let lastCheckpoint = 0;

  function message(text) {
    const el = $('message');
    el.textContent = text || '';
    el.style.display = text ? 'block' : 'none';
  }

  async function api(method, call, body, raw) {
    const headers = { 'X-Study-Tab': TAB };
    if (body !== undefined && !raw) headers['Content-Type'] = 'application/json';
    const response = await fetch(`api/${call}`, {
      method, headers, cache: 'no-store',
      body: body === undefined ? undefined : (raw ? body : JSON.stringify(body)),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const text = data.error || `the server answered ${response.status}`;
      message(text);
      const err = new Error(text);
      err.status = response.status;
      throw err;
    }
    return data;
  }

  function esc(text) {
    const div = document.createElement('div');
    div.textContent = String(text == null ? '' : text);
    return div.innerHTML;
  }

  function card(html, button, onClick, disabled) {
    $('screen').classList.remove('hidden');
    $('card').innerHTML = html + (button ? `<button id="go" type="button">${esc(button)}</button>` : '');
    if (button) {
      $('go').disabled = Boolean(disabled);
      $('go').onclick = () => { $('go').disabled = true; onClick().catch(() => { $('go').disabled = false; }); };
    }
  }

  function protocolHtml(p) {
    const limit = p.time_limit_s ? `${Math.round(p.time_limit_s / 60)} minutes per task` : 'none';
    return `<dl><dt>What you may look at</dt><dd>${esc(p.allowed_to_see)}</dd>
      <dt>What you may use</dt><dd>${esc(p.allowed_to_use)}</dd>
      <dt>When a task ends</dt><dd>${esc(p.stopping_rule)}</dd>
      <dt>Time limit</dt><dd>${esc(limit)}</dd></dl>`;
  }

  function render(next) {
    state = next;
    message('');
    const s = state;
    if (s.screen !== 'task') stopTask();
    if (s.screen === 'consent') {
      card(`<h1>Welcome (${esc(s.code)})</h1>
        <p>You will solve ${s.total} programming tasks in the Scratch editor shown on this page,
        one after the other${s.practice ? ', after a short practice task that does not count' : ''}.
        Each task has an instruction at the top, a clock, and two buttons: <b>Finish</b> when
        your program does what the instruction asks, <b>Give up</b> when you want to stop.</p>
        <p>Every mouse click, drag, scroll and key you use in the editor is recorded with its time,
        with your final programs. Nothing else about you is recorded; you are known only by the
        code above.</p>${protocolHtml(s.protocol)}`, 'I agree, continue', () => api('POST', 'consent', {}).then(render));
    } else if (s.screen === 'practice') {
      card('<h1>Practice task</h1><p>A short task to get used to the editor. It does not count.</p>',
        'Start the practice task', start);
    } else if (s.screen === 'ready') {
      card(`<h1>Task ${s.next} of ${s.total}</h1><p>Take your time to read the instruction.
        The clock starts when you press Start.</p>`, `Start task ${s.next}`, start);
    } else if (s.screen === 'break') {
      card(`<h1>Break</h1><p>${s.done} of ${s.total} tasks done. Rest a moment;
        task ${s.next} can start in <span id="left">${Math.ceil(s.break_left_s)}</span> s.</p>`,
        `Start task ${s.next}`, start, true);
      setTimeout(() => api('GET', 'state').then(render), Math.max(500, s.break_left_s * 1000));
    } else if (s.screen === 'done') {
      card('<h1>All done. Thank you!</h1><p>You may close this page.</p>');
    } else if (s.screen === 'task') {
      beginTask(s.task).catch((err) => message(String(err.message || err)));
    }
  }

  async function start() {
    const rect = editorEl.getBoundingClientRect();
    render(await api('POST', 'start', { editor: [rect.width, rect.height] }));
  }

  function showClock() {
    const t = state && state.task;
    if (!t) return;
    const elapsed = clockBase + (Date.now() - clockAt) / 1000;
    const shown = t.time_limit_s ? Math.max(0, t.time_limit_s - elapsed) : elapsed;
    const m = Math.floor(shown / 60);
    const sec = Math.floor(shown % 60);
    $('clock').textContent = `${m}:${String(sec).padStart(2, '0')}`;
    if (t.time_limit_s && elapsed >= t.time_limit_s && !ending) end('time limit');
  }

  /** This script runs before the editor's scripts: wait until they have run. */
  function editorLoaded() {
    return new Promise((resolve) => {
      const check = () => {
        if (window.studioBridge && window.studioInput) resolve();
        else setTimeout(check, 50);
      };
      check();
    });
  }

  async function beginTask(task) {
    ending = false;
    giveUpArmed = 0; // a Give up pressed in the task before does not count as the first press here
    $('where').textContent = task.practice ? 'Practice' : `Task ${task.number} of ${state.total}`;
    $('instruction').textContent = task.instruction;
    clockBase = task.elapsed_s;
    clockAt = Date.now();
    card('<p>Loading the task…</p>');
    await editorLoaded();
    await window.studioBridge.whenReady();
    await window.studioBridge.loadProjectFromUrl(`api/project?tab=${TAB}`, 'task.sb3', 'Task');
    window.studioInput.drain(); // nothing from before the task is shown
    $('screen').classList.add('hidden');
    window.studioTaskShown = true;
    clearInterval(clockTimer);
    clockTimer = setInterval(showClock, 250);
    showClock();
    clearInterval(timer);
    timer = setInterval(() => { postEvents().catch(replaced); }, POST_MS);
  }

  /** Another page took the link over (409): this one stops and says so. */
  function replaced(err) {
    if (!err || err.status !== 409) return;
    stopTask();
    card(`<h1>This page has stopped</h1><p>${esc(err.message)}</p>`);
  }

  function stopTask() {
    clearInterval(timer);
    clearInterval(clockTimer);
    timer = clockTimer = null;
    window.studioTaskShown = false;
  }

  function editorEvents() {
    if (!window.studioInput) return [];
    const rect = editorEl.getBoundingClientRect();
    const out = [];
    for (const ev of window.studioInput.drain()) {
      if (ev.x === undefined) { out.push(ev); continue; }
      const x = ev.x - rect.left;
      const y = ev.y - rect.top;
      const inside = x >= 0 && y >= 0 && x < rect.width && y < rect.height;
      if (!inside && (ev.type === 'down' || ev.type === 'dblclick' || ev.type === 'wheel')) continue;
      out.push({ ...ev, x, y });
    }
    return out;
  }

  let posting = null;
  async function postEvents() {
    if (posting) return posting;
    posting = (async () => {
      const events = editorEvents();
      const reply = await api('POST', 'events', { now: Date.now(), events });
      clockBase = reply.elapsed_s;
      clockAt = Date.now();
      if (Date.now() - lastCheckpoint > CHECKPOINT_MS && window.studioBridge.isDirty()) {
        lastCheckpoint = Date.now();
        await api('POST', 'checkpoint', await projectBytes(), true);
        window.studioBridge.markClean();
      }
      if (reply.over_time && !ending) await end('time limit');
    })().finally(() => { posting = null; });
    return posting;
  }

  async function projectBytes() {
    const b64 = await window.studioBridge.saveProjectBase64();
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }

  async function end(outcome) {
    if (ending || !state || state.screen !== 'task') return;
    ending = true;
    clearInterval(timer);
    try {
      if (posting) await posting.catch(() => {});
      await api('POST', 'events', { now: Date.now(), events: editorEvents() });
      card('<p>Saving your program…</p>');
      const body = await projectBytes();
      render(await api('POST', `finish?outcome=${encodeURIComponent(outcome)}`, body, true));
    } catch (err) {
      ending = false;
      $('screen').classList.add('hidden');
      timer = setInterval(() => { postEvents().catch(replaced); }, POST_MS);
      replaced(err);
    }
  }

  let giveUpArmed = 0;
  $('finish').onclick = () => end('done');
  $('giveup').onclick = () => {
    if (Date.now() - giveUpArmed < 4000) { end('give up'); return; }
    giveUpArmed = Date.now();
    message('Press Give up again within 4 seconds to stop this task.');
  };

  // No project comes from the participant's disk.
  function breach(what) {
    api('POST', 'breach', { what }).catch(() => {});
    message('Loading a project is not part of the study; the attempt was noted.');
  }
  const click = HTMLInputElement.prototype.click;
  HTMLInputElement.prototype.click = function () {
    if (this.type === 'file') { breach('file chooser opened (File > Load from your computer)'); return; }
    return click.apply(this, arguments);
  };
  document.addEventListener('click', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === 'file') {
      e.preventDefault();
      breach('file chooser clicked');
    }
  }, true);
  for (const kind of ['dragover', 'drop']) {
    window.addEventListener(kind, (e) => {
      if (e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files')) {
        e.preventDefault();
        if (kind === 'drop') breach('a file dropped on the page');
      }
    }, true);
  }
  window.addEventListener('pagehide', () => {
    navigator.sendBeacon(`api/release?tab=${TAB}`, '');
  });

  window.studioStudy = { tab: TAB, state: () => state, end };
  api('POST', 'claim', { tab: TAB }).then(render).catch((err) => {
    card(`<h1>This page cannot continue</h1><p>${esc(err.message)}</p>`);
  });
}());
