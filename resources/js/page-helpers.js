/*
 * What the studio's scripts in an editor page share (what differs between editor editions
 * they take from the page's edition adapter, window.studioEdition: edition-current.js): the composite, drag-trial and perception
 * scripts (composite.js, drag-trials.js, perception.js) take these from here instead of each
 * keeping a copy. Installed before them by studio/services/page_scripts.py, which also sets
 * `lists` (the lists Python and the page both use, defined once in Python).
 *
 *   window.studioPageHelpers.ws()                 the editor's Blockly workspace
 *   window.studioPageHelpers.tick()               resolves after a zero timeout
 *   window.studioPageHelpers.frame()              resolves after the next frame's zero timeout
 *   window.studioPageHelpers.settle()             lets Blockly render and fire its queued
 *                                                 events (the VM hears them then)
 *   window.studioPageHelpers.waitFor(test, ms)    polls `test` every 20 ms; its last answer
 *   window.studioPageHelpers.selectTarget(target) makes `target` (a VM target) the editing
 *                                                 target and waits for its scripts and palette
 *   window.studioPageHelpers.closeAlerts()        closes the editor's alert banners
 *   window.studioPageHelpers.lastInStack(block)   the last block of the stack below `block`
 *   window.studioPageHelpers.ownerBlockEl(el)     the non-shadow block element holding `el`
 *   window.studioPageHelpers.vmBlocks()           the VM's blocks of the editing target
 *   window.studioPageHelpers.flyoutWorkspace()    the palette's workspace, or null
 *   window.studioPageHelpers.flyoutBlocks(opcode) the palette's top block elements of `opcode`
 *   window.studioPageHelpers.clickSmallStage()    clicks the button titled "Switch to small
 *                                                 stage" as the published service does (else
 *                                                 any button that says "stage"); false if
 *                                                 there is none
 *   window.studioPageHelpers.smallStageShown(frames)  after a click on "Switch to small stage":
 *                                                 true once the stage is small (within 5 s) and
 *                                                 the editor laid itself out again (`frames`
 *                                                 more frames, then settle); false if it is not
 *   window.studioPageHelpers.lists                {numberShadows: [...], substackInputs: {...}}
 */
(function () {
  'use strict';
  // read when used: the helpers may be installed before the editor is ready
  const SB = () => window.ScratchBlocks;
  const vm = () => window.vm;
  const ws = () => window.workspace;
  const FLYOUT_BLOCKS = '.blocklyFlyout .blocklyBlockCanvas > .blocklyDraggable';

  const tick = () => new Promise((r) => setTimeout(r, 0));

  /**
   * Blockly fires its queued events from requestAnimationFrame(() => setTimeout(fire, 0)); a
   * frame callback registered after its own runs after it, so the timeout queued there runs
   * after the firing.
   */
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

  async function settle() {
    await tick();
    await window.studioEdition.finishRenders(SB());
    await frame();
  }

  async function waitFor(test, ms) {
    for (let waited = 0; waited < ms; waited += 20) {
      if (test()) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return test();
  }

  function flyoutWorkspace() {
    const flyout = ws().getFlyout();
    return flyout ? flyout.getWorkspace() : null;
  }

  function flyoutHas(type) {
    const fw = flyoutWorkspace();
    return Boolean(fw && fw.getTopBlocks(false).some((b) => b.type === type));
  }

  /** Edit `target`: its scripts are in the workspace and the palette is the one it shows. */
  async function selectTarget(target) {
    if (vm().editingTarget !== target) vm().setEditingTarget(target.id);
    await waitFor(() => ws().getTopBlocks(false).length === target.blocks.getScripts().length, 3000);
    await waitFor(() => flyoutHas('motion_movesteps') === !target.isStage, 3000);
    await settle();
  }

  function closeAlerts() {
    const store = window.studioEditorState && window.studioEditorState.store;
    if (!store) return;
    for (const alert of store.getState().scratchGui.alerts.alertsList || []) {
      store.dispatch({ type: 'scratch-gui/alerts/CLOSE_ALERT_WITH_ID', alertId: alert.alertId });
    }
  }

  function lastInStack(block) {
    let last = block;
    while (last.getNextBlock()) last = last.getNextBlock();
    return last;
  }

  function ownerBlockEl(el) {
    const { blockSelector, isShadowEl } = window.studioEdition;
    let b = el && el.closest && el.closest(blockSelector);
    while (b && isShadowEl(b)) {
      b = b.parentElement && b.parentElement.closest(blockSelector);
    }
    return b;
  }

  function vmBlocks() {
    const target = vm().editingTarget;
    return target ? target.blocks._blocks : {};
  }

  function flyoutBlocks(opcode) {
    return window.studioEdition.flyoutBlocks(opcode);
  }

  function clickSmallStage() {
    const exact = document.querySelector('[title="Switch to small stage"]');
    const any = exact || [...document.querySelectorAll('button, [role=button], div[title]')]
      .find((b) => /stage/i.test(b.title || b.getAttribute('aria-label') || ''));
    if (!any) return false;
    any.click();
    return true;
  }

  async function smallStageShown(frames) {
    const small = () => { const c = document.querySelector('canvas');
      return Boolean(c) && c.getBoundingClientRect().width < 300; };
    if (!await waitFor(small, 5000)) return false;
    window.dispatchEvent(new Event('resize'));
    for (let i = 0; i < (frames || 0); i += 1) await frame();
    await settle();
    return true;
  }

  window.studioPageHelpers = {
    FLYOUT_BLOCKS,
    ws,
    tick,
    frame,
    settle,
    waitFor,
    selectTarget,
    closeAlerts,
    lastInStack,
    ownerBlockEl,
    vmBlocks,
    flyoutWorkspace,
    flyoutBlocks,
    clickSmallStage,
    smallStageShown,
    lists: {},
  };
}());
