/*
 * The window's text pane in the editor page: reads the editing target for the pane, and puts
 * the blocks of a text into the editor as one step of the workspace's own undo. Installed by
 * studio/services/runtime/page_scripts.py (`TEXT_APPLY`) after the shared helpers.
 *
 *   window.studioTextApply.state()        {target, isStage, version}: the editing target's
 *                                         name ('Stage' for the stage) and a count of the
 *                                         workspace's changes (block events, variable events,
 *                                         a project load or a switch of target)
 *   window.studioTextApply.target()       the editing target as the VM serializes it
 *                                         (vm.toJSON(id), parsed)
 *   window.studioTextApply.apply(request) request {target, scripts: [{xml, x, y}]}: in one
 *                                         Blockly event group, every script of the workspace
 *                                         is deleted and each XML script is made and placed
 *                                         at (x, y); the VM follows through its workspace
 *                                         listener, and one workspace undo (`undo`) takes the
 *                                         whole group back. Refused, changing nothing, when
 *                                         the editing target is not `request.target`; a
 *                                         script the workspace refuses undoes what was done.
 *                                         {ok, group, scripts} or {ok: false, error}
 *   window.studioTextApply.undo(group)    undoes the apply `group` when it is the newest step
 *                                         of the undo stack; {ok} or {ok: false, error}
 */
(function () {
  'use strict';
  const SB = window.ScratchBlocks;
  const vm = window.vm;
  const H = window.studioPageHelpers;
  const B = window.studioEdition.blockly;
  const { ws, settle } = H;
  let version = 0;
  ws().addChangeListener((e) => { if (!e.isUiEvent) version += 1; });
  vm.on('workspaceUpdate', () => { version += 1; });

  function targetName(target) {
    return target.isStage ? 'Stage' : target.getName();
  }

  function state() {
    const target = vm.editingTarget;
    return { target: target ? targetName(target) : null,
      isStage: Boolean(target && target.isStage), version };
  }

  function undoStack(w) {
    return typeof w.getUndoStack === 'function' ? w.getUndoStack() : (w.undoStack_ || []);
  }

  function newestGroup(w) {
    const stack = undoStack(w);
    return stack.length ? stack[stack.length - 1].group : null;
  }

  async function apply(request) {
    await settle();
    const target = vm.editingTarget;
    if (!target || targetName(target) !== request.target) {
      const shown = target ? targetName(target) : 'nothing';
      return { ok: false, error: `the editor shows ${shown} now, not ${request.target}: ` +
        'reload the pane from the editor' };
    }
    const parser = new DOMParser();
    const scripts = [];
    for (const script of request.scripts || []) {
      const doc = parser.parseFromString(script.xml, 'text/xml');
      if (doc.getElementsByTagName('parsererror').length) {
        return { ok: false, error: 'the blocks XML does not parse (a studio error)' };
      }
      scripts.push([doc.documentElement, script]);
    }
    const w = ws();
    SB.Events.setGroup(true);
    const group = SB.Events.getGroup();
    let failure = null;
    try {
      for (const block of w.getTopBlocks(false).slice()) block.dispose(false);
      for (const [dom, script] of scripts) {
        const block = SB.Xml.domToBlock(dom, w);
        B.moveTo(SB, block, Number(script.x) || 0, Number(script.y) || 0);
      }
    } catch (err) {
      failure = err;
    } finally {
      SB.Events.setGroup(false);
    }
    await settle();
    if (failure) {
      if (newestGroup(w) === group) w.undo(false);
      await settle();
      return { ok: false, error: `the editor refused the blocks: ${failure && failure.message}` };
    }
    return { ok: true, group, scripts: scripts.length };
  }

  async function undo(group) {
    await settle();
    const w = ws();
    if (!group || newestGroup(w) !== group) {
      return { ok: false, error: 'the editor changed since this apply: undo it in the editor' };
    }
    w.undo(false);
    await settle();
    return { ok: true };
  }

  window.studioTextApply = {
    state,
    target: () => JSON.parse(vm.toJSON(vm.editingTarget.id)),
    apply,
    undo,
  };
}());
