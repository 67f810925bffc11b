/*
 * Small reads and chores on an editor page that the studio's Python code asks for one at a
 * time (episodes, labelers, the window's live page, the ScratchWorld API). Installed by
 * studio/services/page_scripts.py (`EDITOR`) after the shared helpers (page-helpers.js).
 *
 *   window.studioEditor.program()          the editing VM's project as JSON (vm.toJSON())
 *   window.studioEditor.pauseVm()          stops the VM's stepping interval (the stage no
 *                                          longer steps nor draws by itself); true
 *   window.studioEditor.drawStage()        draws the stage once; true
 *   window.studioEditor.clearUndo()        empties the workspace's undo stack; true
 *   window.studioEditor.editingSprite()    the name of the editing target, or null
 *   window.studioEditor.blockType(id)      the opcode of workspace block `id`, or null
 *   window.studioEditor.valueInputs(id)    the names of block `id`'s value inputs ([] if none)
 *   window.studioEditor.blockFields(id)    {text, fields: [field and value-input names]} of
 *                                          block `id`, or null
 *   window.studioEditor.hitAt(x, y)        "tag.firstClass" of the element a click at (x, y)
 *                                          lands on; null off screen or on the bare page
 *   window.studioEditor.imagesLoaded()     every <img> of the page has loaded (or failed)
 *   window.studioEditor.viewport()         [innerWidth, innerHeight]
 *   window.studioEditor.html()             the page's HTML with its doctype (as Playwright's
 *                                          page.content() serializes it)
 *   window.studioEditor.title()            document.title
 *   window.studioEditor.nextFrames()       resolves true after two animation frames
 *   window.studioEditor.inputsSeen(kind)   how many `kind` input events (pointermove,
 *                                          pointerdown, pointerup, keydown, keyup, wheel) the
 *                                          page has dispatched since this script was installed
 *                                          (a passive capture listener counts them)
 */
(function () {
  'use strict';
  const { ws } = window.studioPageHelpers;
  const INPUT_KINDS = ['pointermove', 'pointerdown', 'pointerup', 'keydown', 'keyup', 'wheel'];
  const seen = {};
  const count = (e) => { seen[e.type] = (seen[e.type] || 0) + 1; };
  for (const kind of INPUT_KINDS) {
    window.addEventListener(kind, count, { capture: true, passive: true });
  }

  function pauseVm() {
    const rt = window.vm.runtime;
    if (rt._steppingInterval) { clearInterval(rt._steppingInterval); rt._steppingInterval = null; }
    return true;
  }

  function drawStage() {
    const r = window.vm.renderer;
    if (r) r.draw();
    return true;
  }

  function blockFields(id) {
    const b = ws().getBlockById(id);
    if (!b) return null;
    const names = [];
    for (const row of b.inputList) {
      for (const f of row.fieldRow) if (f.name && !names.includes(f.name)) names.push(f.name);
      if (row.type === 1 && row.name && !names.includes(row.name)) names.push(row.name);
    }
    return { text: b.toString().replace(/\s+/g, ' ').trim(), fields: names };
  }

  function hitAt(x, y) {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
    const el = document.elementFromPoint(x, y);
    if (!el || el === document.body || el === document.documentElement || el.id === 'editor') {
      return null;
    }
    return (el.tagName || '').toLowerCase() + (el.className && el.className.baseVal === undefined
      ? '.' + String(el.className).split(/\s+/)[0] : '');
  }

  function html() {
    return (document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '') +
      (document.documentElement ? document.documentElement.outerHTML : '');
  }

  window.studioEditor = {
    program: () => JSON.parse(window.vm.toJSON()),
    pauseVm,
    drawStage,
    clearUndo: () => { ws().clearUndo(); return true; },
    editingSprite: () => (window.vm.editingTarget ? window.vm.editingTarget.getName() : null),
    blockType: (id) => { const b = ws().getBlockById(id); return b ? b.type : null; },
    valueInputs: (id) => {
      const b = ws().getBlockById(id);
      return b ? b.inputList.filter((i) => i.type === 1).map((i) => i.name) : [];
    },
    blockFields,
    hitAt,
    imagesLoaded: () => [...document.images].every((i) => i.complete),
    viewport: () => [innerWidth, innerHeight],
    html,
    title: () => document.title,
    nextFrames: () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))),
    inputsSeen: (kind) => seen[kind] || 0,
  };
}());
