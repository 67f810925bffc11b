/*
 * Painting held on an editor page while a batch of trial drags runs on it, which nobody looks
 * at. Installed by studio/services/runtime/page_scripts.py (TRIAL_PAINT);
 * studio/services/diagnostics/drag/page.py (`TrialPages.run`) calls it.
 *
 *   window.studioTrialPaint.hold()      the page stops drawing its content: the root element
 *                                       gets opacity 0 (an `!important` inline style; the one
 *                                       it had is kept); true
 *   window.studioTrialPaint.release()   the page draws again as before `hold`; true
 *   window.studioTrialPaint.held()      whether painting is held now
 *
 * What a trial drag costs is its frames (a mouse move of a drag is one frame), and most of a
 * frame's cost is drawing: rastering the tiles the drag dirtied (the dragged block, the
 * insertion marker, the code area's scrollbars, the palette) and compositing them. With the
 * root element at opacity 0 Chromium still runs every frame's style, layout, paint recording
 * and hit testing, but rasters and composites nothing the page shows.
 *
 * Why no verdict can change: opacity only decides how the painted result is blended into the
 * screen. Layout (every box, every SVG bounding box and text measure Blockly reads), hit
 * testing (which element a press, a move or a release lands on: `elementFromPoint`, mouse
 * enter/leave on sprite tiles, the palette and the code area), events, timers and animation
 * frames are those of a painted page: an element at opacity 0 is hit as any other, and the
 * frames still come (a move is dispatched in its frame as before). The root element is a
 * stacking context already, so no element's stacking (and with it hit order) changes; opacity
 * makes no containing block, so nothing is laid out differently. Only pixels differ: nothing
 * in a trial reads pixels (verdicts are read from the VM, geometry from the DOM), and a
 * screenshot of the page (`TrialPage.screenshot`, the item's picture) is taken between
 * batches, after `release`. The user's editor window and agent-facing pages never call this.
 */
(function () {
  'use strict';
  let kept = null; // [value, priority] of the root's inline opacity before `hold`

  function held() {
    return kept !== null;
  }

  function hold() {
    const style = document.documentElement.style;
    if (kept === null) kept = [style.getPropertyValue('opacity'), style.getPropertyPriority('opacity')];
    style.setProperty('opacity', '0', 'important');
    return true;
  }

  function release() {
    if (kept === null) return true;
    const style = document.documentElement.style;
    if (kept[0]) style.setProperty('opacity', kept[0], kept[1]);
    else style.removeProperty('opacity');
    kept = null;
    return true;
  }

  window.studioTrialPaint = { hold, release, held };
}());
