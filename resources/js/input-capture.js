// Records a participant's input in the editor page for a human baseline session.
// Pointer events, not mouse events: the editor cancels pointerdown, which suppresses the
// mousedown/mouseup a browser would otherwise derive from it.
// Events are kept in capture phase (before the editor sees them) as plain objects in the
// format of studio/services/human/coalesce.py; Python drains them every ~100 ms.
// Installed by studio/services/page_scripts.py (once per page).
(function () {
  const queue = [];
  let pressed = false;
  let lastMove = 0;
  const mods = (e) => ({ ctrl: e.ctrlKey, shift: e.shiftKey, alt: e.altKey, meta: e.metaKey });
  const push = (ev) => queue.push(ev);
  const opts = { capture: true, passive: true };
  window.addEventListener('pointerdown', (e) => {
    pressed = true;
    push({ t: Date.now(), type: 'down', x: e.clientX, y: e.clientY, button: e.button, ...mods(e) });
  }, opts);
  window.addEventListener('pointermove', (e) => {
    const now = Date.now();
    if (!pressed || now - lastMove < 30) return;
    lastMove = now;
    push({ t: now, type: 'move', x: e.clientX, y: e.clientY, button: e.button, ...mods(e) });
  }, opts);
  window.addEventListener('pointerup', (e) => {
    pressed = false;
    push({ t: Date.now(), type: 'up', x: e.clientX, y: e.clientY, button: e.button, ...mods(e) });
  }, opts);
  window.addEventListener('dblclick', (e) => {
    push({ t: Date.now(), type: 'dblclick', x: e.clientX, y: e.clientY, button: e.button, ...mods(e) });
  }, opts);
  window.addEventListener('wheel', (e) => {
    push({ t: Date.now(), type: 'wheel', x: e.clientX, y: e.clientY, dx: e.deltaX, dy: e.deltaY, ...mods(e) });
  }, opts);
  window.addEventListener('keydown', (e) => {
    if (e.repeat && e.key.length > 1) return;
    push({ t: Date.now(), type: 'keydown', key: e.key, ...mods(e) });
  }, opts);
  window.studioInput = {
    drain() { return queue.splice(0, queue.length); },
    pressed() { return pressed; },
    stop() { queue.length = 0; window.studioInputStopped = true; },
  };
})();
