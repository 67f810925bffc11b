/*
 * Single-step drag items inside the editor page: what a trial drag needs besides the mouse.
 * Installed by studio/services/page_scripts.py (after resources/js/page-helpers.js) once
 * window.studioEditorReady; studio/services/drag/page.py calls it.
 *
 *   window.studioDrag.view(state)         put the screen in a stored workspace state (a
 *                                         published one: zoom, then scroll; see drag/setup.py)
 *   window.studioDrag.flyoutIndexOf(op, name)  which palette `op` block shows variable `name`
 *   window.studioDrag.pan(code, payload)  a published item's pan_canvas_actions step: the
 *                                         function source `code` awaited as the published
 *                                         custom_js awaits it -> {ok, value} | {ok: false,
 *                                         code: INVALID_JS_FN | CUSTOM_JS_ERROR, message}
 *   window.studioDrag.viewState()         the current workspace state (scroll, zoom, target...)
 *   window.studioDrag.mark()              remember the current program and view as the baseline
 *   window.studioDrag.atBaseline()        whether program and view equal the baseline
 *   window.studioDrag.baselineDiff()      what differs from it: {program?, view?: [now, was], z?}
 *   window.studioDrag.restore(state)      undo back to the baseline; false when undo cannot
 *   window.studioDrag.beginTrial(spec)    before a drag: remember ids; whether at the baseline
 *   window.studioDrag.settle()            let Blockly fire its queued events (the VM hears them)
 *   window.studioDrag.still(ms)           whether palette, code area, editing target and the
 *                                         selected category stopped moving (4 settled frames
 *                                         alike) within `ms`
 *   window.studioDrag.ownersAt(points)    the block a press at each [x, y] would drag
 *   window.studioDrag.geometry(spec)      screen boxes and connection points of an item's blocks
 *   window.studioDrag.outcome(spec)       {moved, connected, detail} after a trial drag
 *   window.studioDrag.ready(spec, state)  before a press: at the baseline (restored if need be)?
 *   window.studioDrag.finish(spec)        after a drag: the outcome; the drag is undone
 *   window.studioDrag.vmRelation(spec)    whether the intended relation exists in the VM now
 *
 * A spec is {source: 'canvas'|'flyout', target_id, target_opcode, flyout_index,
 * reference_id, connection_type, input_name}. Verdicts are read from the VM's blocks of the
 * editing target, not from the workspace. What differs between editor editions (Blockly 12 or
 * scratch-blocks 1: screen points, connections, undo, snapping, the palette, the toolbox) comes
 * from the page's edition adapter, `window.studioEdition.blockly` and `.drag`
 * (resources/js/edition-<name>.js); nothing here asks which edition it runs on.
 */
(function () {
  'use strict';
  const SB = window.ScratchBlocks;
  const vm = window.vm;
  const H = window.studioPageHelpers;
  const E = window.studioEdition; // what differs between editor editions (edition-<name>.js)
  const B = E.blockly;
  const D = E.drag;
  const { ws, FLYOUT_BLOCKS, settle, lastInStack, ownerBlockEl, vmBlocks, flyoutWorkspace,
    flyoutBlocks } = H;
  let baseline = null;

  // ---- program and view ------------------------------------------------------------------

  /**
   * The program of the editing target as one comparable string: every script described by
   * structure (opcodes, field values, inputs with their shadows, next blocks) and place, no
   * ids (loading a project gives shadows and compact reporters new ids).
   */
  function describe(blocks, id, depth) {
    const b = blocks[id];
    if (!b || depth > 200) return '?';
    const fields = Object.keys(b.fields).sort().map((n) => `${n}=${b.fields[n].value}`);
    // an input holding nothing counts as absent (a loaded project has no SUBSTACK entry in an
    // empty C-block; an undone connection leaves an empty one there)
    const inputs = Object.keys(b.inputs).sort().filter((n) => b.inputs[n].block ||
      b.inputs[n].shadow).map((n) => {
      const inp = b.inputs[n];
      const shown = inp.block ? describe(blocks, inp.block, depth + 1) : '-';
      const shadow = inp.shadow && inp.shadow !== inp.block ? describe(blocks, inp.shadow, depth + 1) : '';
      return `${n}:${shown}${shadow ? '/' + shadow : ''}`;
    });
    const next = b.next ? ' > ' + describe(blocks, b.next, depth + 1) : '';
    return `${b.opcode}{${fields.join(',')}}(${inputs.join(',')})${next}`;
  }

  function programKey() {
    const blocks = vmBlocks();
    const rows = Object.keys(blocks).filter((id) => blocks[id].topLevel).map((id) => {
      const b = blocks[id];
      return `${Math.round(b.x)},${Math.round(b.y)} ${describe(blocks, id, 0)}`;
    });
    return rows.sort().join('\n');
  }

  /** Top blocks in drawing order (the last one drawn is on top where scripts overlap). */
  function zOrder() {
    const canvas = ws().getCanvas();
    return [...canvas.children].map((el) => el.getAttribute('data-id')).filter(Boolean);
  }

  function restoreZOrder(order) {
    const canvas = ws().getCanvas();
    for (const id of order) {
      const block = ws().getBlockById(id);
      if (block) canvas.appendChild(block.getSvgRoot());
    }
  }

  function viewState() {
    const w = ws();
    const fw = flyoutWorkspace();
    const target = vm.editingTarget;
    return {
      target: target ? target.getName() : null,
      scroll_x: Math.round(w.scrollX * 100) / 100,
      scroll_y: Math.round(w.scrollY * 100) / 100,
      scale: w.scale,
      category: B.selectedCategory(w),
      flyout_scroll_y: fw ? Math.round(fw.scrollY * 100) / 100 : 0,
    };
  }

  function viewKey() {
    const v = viewState();
    return [v.target, v.scroll_x, v.scroll_y, v.scale, v.category, v.flyout_scroll_y].join('|');
  }

  async function selectTarget(name) {
    const target = vm.runtime.targets.find((t) => t.isOriginal && t.getName() === name);
    if (!target) throw new Error(`no sprite or stage named ${JSON.stringify(name)}`);
    await H.selectTarget(target);
  }

  /**
   * A published item's workspace (its `workspace_state` has scrollX/scrollY), restored the way
   * the page's edition restores published items (edition-<name>.js, restorePublished: on
   * classic as the published drag runner does). Target and palette come from the item's
   * pre-actions, not from here.
   */
  async function publishedView(state) {
    await E.restorePublished(ws(), state, settle);
    return viewState();
  }

  /** Put the screen in `state` (editing target, palette category and scroll, zoom, scroll). */
  async function view(state) {
    if (typeof state.scrollX === 'number') return publishedView(state);
    if (state.target) await selectTarget(state.target);
    const w = ws();
    if (state.category) B.selectCategory(w, state.category);
    await settle();
    H.closeAlerts();
    if (state.scale && w.scale !== state.scale) w.setScale(state.scale);
    B.scrollTo(w, state.scroll_x, state.scroll_y);
    if (typeof state.flyout_scroll_y === 'number') scrollFlyout(state.flyout_scroll_y);
    await settle();
    return viewState();
  }

  /** Scroll the palette so that its workspace's scrollY is `y`. */
  function scrollFlyout(y) {
    if (flyoutWorkspace()) B.scrollFlyout(ws(), y);
  }

  /** The palette at its top with its first category selected, as a fresh page shows it (a
   * kept window may show it scrolled, and its category menu may still mark the category an
   * earlier item chose). */
  function paletteTop() {
    const w = ws();
    const first = (B.categories(w)[0] || {}).id;
    if (first && B.selectedCategory(w) !== first) B.selectCategory(w, first);
    const fw = flyoutWorkspace();
    if (fw && fw.scrollY !== 0) scrollFlyout(0);
    return true;
  }

  /** A published pan (custom_js): fn({vm, SB, ws, payload, getVM, getWorkspace,
   * getScratchBlocks}) awaited, then the frames its changes need. */
  async function pan(code, payload) {
    let fn;
    try {
      fn = (0, eval)(`(${code})`);
    } catch (err) {
      return { ok: false, code: 'INVALID_JS_FN', message: `not a function: ${err && err.message}` };
    }
    if (typeof fn !== 'function') {
      return { ok: false, code: 'INVALID_JS_FN', message: `not a function but ${typeof fn}` };
    }
    try {
      const value = await fn({ vm, SB, ws: ws(), payload, getVM: () => vm, getWorkspace: ws,
        getScratchBlocks: () => SB });
      await settle();
      const json = value === undefined ? undefined : JSON.stringify(value);
      return { ok: true, value: json === undefined ? null : JSON.parse(json) };
    } catch (err) {
      return { ok: false, code: 'CUSTOM_JS_ERROR', message: String((err && err.message) || err) };
    }
  }

  function mark() {
    const fw = flyoutWorkspace();
    baseline = { program: programKey(), view: viewKey(), z: zOrder().join('|'),
      flyoutY: fw ? fw.scrollY : 0 };
    return { blocks: Object.keys(vmBlocks()).length };
  }

  /** What differs from the baseline (for an error message): {program?, view?, z?}. */
  function baselineDiff() {
    if (!baseline) return { baseline: 'none' };
    const out = {};
    if (programKey() !== baseline.program) out.program = true;
    if (viewKey() !== baseline.view) out.view = [viewKey(), baseline.view];
    if (zOrder().join('|') !== baseline.z) out.z = true;
    return out;
  }

  function atBaseline() {
    return Boolean(baseline) && programKey() === baseline.program &&
      viewKey() === baseline.view && zOrder().join('|') === baseline.z;
  }

  /** Undo what trial drags did (at most a few event groups), then fix the view. */
  async function restore(view_) {
    await settle();
    return undoToBaseline(view_);
  }

  async function undoToBaseline(view_) {
    if (atBaseline()) return true;
    const w = ws();
    for (let i = 0; i < 6 && programKey() !== baseline.program; i += 1) {
      if (!D.undoCount(w)) break;
      w.undo(false);
      await settle();
    }
    if (programKey() !== baseline.program) return false;
    w.clearUndo();
    if (zOrder().join('|') !== baseline.z) restoreZOrder(baseline.z.split('|'));
    if (viewKey() !== baseline.view && view_) {
      // a press beside a palette block drags the palette's scroll; a drop changes the
      // content's bounds and with them the scroll; scrolling back is enough when nothing
      // else moved
      const fw = flyoutWorkspace();
      if (fw && Math.abs(fw.scrollY - baseline.flyoutY) > 0.005) {
        scrollFlyout(baseline.flyoutY);
        await settle();
      }
      if (typeof view_.scrollX === 'number') await publishedView(view_);
      else B.scrollTo(w, view_.scroll_x, view_.scroll_y);
      if (viewKey() !== baseline.view) await view(view_);
    }
    return atBaseline();
  }

  /** A category click animates the palette's scroll; a wheel scroll may too. */
  async function still(ms) {
    const key = () => {
      const fw = flyoutWorkspace();
      return [ws().scrollX, ws().scrollY, ws().scale, fw ? fw.scrollY : 0,
        vm.editingTarget ? vm.editingTarget.id : '', B.selectedCategory(ws())].join('|');
    };
    let last = key();
    let same = 0;
    for (let t = 0; t < ms && same < 4; t += 16) {
      await settle();
      const now = key();
      same = now === last ? same + 1 : 0;
      last = now;
    }
    return same >= 4;
  }

  // ---- where things are on screen ----------------------------------------------------------
  /** Index among the palette's `opcode` blocks of the one showing variable `name` (-1: none). */
  function flyoutIndexOf(opcode, name) {
    const fw = flyoutWorkspace();
    return flyoutBlocks(opcode).findIndex((el) => {
      const block = fw && fw.getBlockById(el.getAttribute('data-id'));
      const field = block && (block.getField('VARIABLE') || block.getField('LIST'));
      return Boolean(field) && field.getText() === name;
    });
  }

  /** What a press at (x, y) would drag: {kind: canvas|flyout|none, id, opcode, index}. */
  function ownerAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const el = ownerBlockEl(hit);
    if (!el) return { kind: 'none' };
    const opcode = blockType(el);
    if (el.closest('.blocklyFlyout')) {
      const top = el.closest(FLYOUT_BLOCKS);
      if (top !== el) return { kind: 'flyout-inner', opcode };
      return { kind: 'flyout', opcode, index: flyoutBlocks(opcode).indexOf(el) };
    }
    return { kind: 'canvas', id: el.getAttribute('data-id'), opcode };
  }

  function ownersAt(points) {
    return points.map(([x, y]) => ownerAt(x, y));
  }

  function rectOf(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }

  /** The opcode of a block element of the code area or of the palette. */
  function blockType(el) {
    const id = el.getAttribute('data-id');
    const fw = flyoutWorkspace();
    const block = ws().getBlockById(id) || (fw && fw.getBlockById(id));
    return block ? block.type : null;
  }

  function toScreen(workspace, xy) {
    return D.toScreen(SB, workspace, xy.x, xy.y);
  }

  function connXY(c) {
    return D.connectionXY(c);
  }

  /** The connection of the dragged block that makes the intended relation. */
  function draggedConnection(block, type) {
    if (type === 'input') return block.outputConnection;
    if (type === 'parent') return lastInStack(block).nextConnection;
    return block.previousConnection;
  }

  function referenceConnection(block, type, inputName) {
    if (type === 'next') return block.nextConnection;
    if (type === 'parent') return block.previousConnection;
    const name = type === 'substack_1' ? 'SUBSTACK' : type === 'substack_2' ? 'SUBSTACK2' : inputName;
    const input = block.getInput(name);
    return input ? input.connection : null;
  }

  function sourceBlock(spec) {
    if (spec.source === 'flyout') {
      const el = flyoutBlocks(spec.target_opcode)[spec.flyout_index || 0];
      if (!el) return null;
      return flyoutWorkspace().getBlockById(el.getAttribute('data-id'));
    }
    return ws().getBlockById(spec.target_id);
  }

  function ownRect(block) {
    const path = block.getSvgRoot().querySelector(':scope > path');
    return rectOf(path || block.getSvgRoot());
  }

  /**
   * Where Blockly takes connection `conn` of the block to drag to be when the drag begins (a
   * palette block is copied into the code area first: the edition says where the copy's drag
   * measures its connections).
   */
  function draggedScreenPoint(spec, source, conn) {
    if (spec.source !== 'flyout') return toScreen(ws(), connXY(conn));
    return D.paletteDragPoint(SB, ws(), flyoutWorkspace(), source, conn);
  }

  /** Whether Blockly would let `dragged` snap to `target` at some distance. */
  function snappable(spec, dragged, target) {
    return D.snappable(SB, ws(), dragged, target, spec.source === 'flyout');
  }

  /** Boxes and connection points on screen: what a prediction of the regions starts from. */
  function geometry(spec) {
    const source = sourceBlock(spec);
    if (!source) return { error: `the block to drag (${spec.target_id || spec.target_opcode}) is not there` };
    const ref = ws().getBlockById(spec.reference_id);
    if (!ref) return { error: `the reference block ${spec.reference_id} is not in the workspace` };
    const dragged = draggedConnection(source, spec.connection_type);
    const aim = referenceConnection(ref, spec.connection_type, spec.input_name);
    if (!dragged || !aim) return { error: 'the blocks have no such connection' };
    const canvas = document.querySelector('svg.blocklySvg');
    return {
      source_box: ownRect(source),
      source_full_box: rectOf(source.getSvgRoot()),
      reference_box: ownRect(ref),
      dragged_point: draggedScreenPoint(spec, source, dragged),
      aim_point: toScreen(ws(), connXY(aim)),
      snap_radius: D.radii(SB).snap || 48,
      scale: ws().scale,
      // nothing else moves when the drag picks the block up (not taken out of a script)
      loose: spec.source === 'flyout' || !source.getParent(),
      canvas_box: canvas ? rectOf(canvas) : null,
      flyout_box: rectOf(document.querySelector('svg.blocklyFlyout')),
    };
  }

  /** How far an insertion marker of `block` moves the blocks below it (units). */
  function markerHeight(block) {
    const next = block.nextConnection && D.offsetInBlock(block.nextConnection);
    const prev = block.previousConnection && D.offsetInBlock(block.previousConnection);
    if (next) return next.y - (prev ? prev.y : 0);
    return block.height || 0;
  }

  /**
   * Every connection of the dragged block (and the last one of its stack) with the screen
   * points of the workspace connections it could snap to, by Blockly's own connection
   * checker; `aim` marks the intended pair. Feeds the prediction of the end region.
   *
   * A target is [x, y, aim, id]. `pushes[id]` = [px, [ids]]: while that target is the
   * candidate, Blockly shows an insertion marker there (a statement connection), and the
   * listed connections of the same script, below it, move down by the marker's height.
   */
  function snapTargets(spec) {
    const source = sourceBlock(spec);
    const ref = ws().getBlockById(spec.reference_id);
    if (!source || !ref) return null;
    const aim = referenceConnection(ref, spec.connection_type, spec.input_name);
    const intended = draggedConnection(source, spec.connection_type);
    const mine = new Set(source.getDescendants(false).map((b) => b.id));
    const dragging = source.getConnections_(false).filter((c) => c.type !== SB.NEXT_STATEMENT ||
      c === intended || !c.targetBlock());
    const last = lastInStack(source).nextConnection;
    if (last && !dragging.includes(last)) dragging.push(last);
    const all = [];
    for (const b of ws().getAllBlocks(false)) {
      if (mine.has(b.id) || b.isShadow()) continue;
      for (const c of b.getConnections_(false)) all.push(c);
    }
    const scale = ws().scale;
    const out = [];
    const used = new Set();
    for (const d of dragging) {
      const p = draggedScreenPoint(spec, source, d);
      const targets = [];
      all.forEach((c, id) => {
        if (!snappable(spec, d, c)) return;
        const q = toScreen(ws(), connXY(c));
        targets.push([q.x, q.y, d === intended && c === aim ? 1 : 0, id]);
        used.add(id);
      });
      out.push({ x: p.x, y: p.y, targets });
    }
    const pushes = {};
    const empty = D.emptyMouth(SB, ws());
    for (const id of used) {
      const c = all[id];
      if (c.type !== SB.NEXT_STATEMENT) continue; // markers show at statement connections
      const block = c.getSourceBlock();
      const mouth = c !== block.nextConnection; // a C-block's statement input
      const grow = markerHeight(source) - (mouth && !c.targetBlock() ? empty : 0);
      if (grow <= 0) continue;
      const root = block.getRootBlock();
      const cy = connXY(c).y;
      const moved = [];
      all.forEach((u, uid) => {
        const owner = u.getSourceBlock();
        if (uid === id || owner.getRootBlock() !== root) return;
        const uy = connXY(u).y;
        if (owner === block ? mouth && uy > cy + 0.5 : uy >= cy - 0.5) moved.push(uid);
      });
      if (moved.length) pushes[id] = [grow * scale, moved];
    }
    const radii = D.radii(SB);
    return { connections: out, pushes, snap: radii.snap * scale,
      connecting: radii.connecting * scale, preference: radii.preference * scale };
  }

  /** Screen points of the code area far from every block (to drop a grabbed block). */
  function emptySpots() {
    const w = ws();
    const fly = document.querySelector('svg.blocklyFlyout').getBoundingClientRect();
    const area = document.querySelector('svg.blocklySvg').getBoundingClientRect();
    const boxes = w.getTopBlocks(false).map((b) => b.getSvgRoot().getBoundingClientRect());
    const out = [];
    for (let y = area.top + 60; y < area.bottom - 60; y += 20) {
      for (let x = fly.right + 60; x < area.right - 80; x += 20) {
        const clear = boxes.every((r) => x < r.left - 70 || x > r.right + 70 ||
          y < r.top - 70 || y > r.bottom + 70);
        if (clear) out.push([x, y]);
      }
    }
    return out;
  }

  // ---- verdicts ------------------------------------------------------------------------------
  function newBlockIds(before) {
    const blocks = vmBlocks();
    return Object.keys(blocks).filter((id) => !before.has(id) && !blocks[id].shadow);
  }

  /** The block the trial moved: the canvas block itself, or the new one from the palette. */
  function draggedId(spec, before) {
    if (spec.source !== 'flyout') return spec.target_id;
    const blocks = vmBlocks();
    const fresh = newBlockIds(before).filter((id) => blocks[id].opcode === spec.target_opcode);
    const top = fresh.find((id) => !blocks[id].parent || !fresh.includes(blocks[id].parent));
    return top || null;
  }

  function relation(spec, id) {
    const blocks = vmBlocks();
    const ref = blocks[spec.reference_id];
    const block = blocks[id];
    if (!ref || !block) return false;
    switch (spec.connection_type) {
      case 'next': return ref.next === id && block.parent === spec.reference_id;
      case 'parent': { // the reference now hangs below the dragged stack
        let cur = id;
        const seen = new Set();
        while (blocks[cur] && blocks[cur].next && !seen.has(cur)) {
          seen.add(cur);
          if (blocks[cur].next === spec.reference_id) return ref.parent === cur;
          cur = blocks[cur].next;
        }
        return false;
      }
      case 'substack_1': return Boolean(ref.inputs.SUBSTACK) && ref.inputs.SUBSTACK.block === id;
      case 'substack_2': return Boolean(ref.inputs.SUBSTACK2) && ref.inputs.SUBSTACK2.block === id;
      case 'input': {
        const input = ref.inputs[spec.input_name];
        return Boolean(input) && input.block === id;
      }
      default: return false;
    }
  }

  let before = null;
  /**
   * Call before a trial drag: remember the block ids and the dragged block's place. Whether
   * program and screen are at the baseline (the drag must not start otherwise).
   */
  function beginTrial(spec) {
    const blocks = vmBlocks();
    const b = spec.source === 'flyout' ? null : blocks[spec.target_id];
    before = { ids: new Set(Object.keys(blocks)),
      place: b ? [b.parent, b.x, b.y, b.topLevel].join('|') : null };
    return atBaseline();
  }

  /** After a trial drag: did the intended block move, and does the intended relation hold? */
  async function outcome(spec) {
    await settle();
    return verdict(spec);
  }

  /**
   * After a trial drag: its verdict; then the drag is undone (everything on the undo stack,
   * which `mark` and `ready` leave empty). The undo's events reach the VM in the next frame,
   * which passes while the mouse goes to the next trial's start; `ready` checks the result.
   */
  async function finish(spec) {
    await settle();
    const out = verdict(spec);
    const w = ws();
    for (let i = 0; i < 12 && D.undoCount(w); i += 1) w.undo(false);
    return out;
  }

  /**
   * Before a press: whether program and screen are at the baseline (undoing and fixing the
   * view when they are not; false when that cannot bring them back: load the project again).
   * Remembers the block ids and the dragged block's place for the verdict.
   */
  async function ready(spec, view_) {
    if (!atBaseline()) {
      await settle();
      if (!(await undoToBaseline(view_))) return false;
    }
    ws().clearUndo();
    beginTrial(spec);
    return true;
  }

  function verdict(spec) {
    const blocks = vmBlocks();
    const id = draggedId(spec, before.ids);
    let moved = false;
    if (spec.source === 'flyout') moved = Boolean(id);
    else {
      const b = blocks[spec.target_id];
      moved = Boolean(b) && b.topLevel && [b.parent, b.x, b.y, b.topLevel].join('|') !== before.place;
      if (b && !b.topLevel && b.parent !== (before.place || '').split('|')[0]) moved = true;
    }
    const connected = Boolean(id) && relation(spec, id);
    return { moved, connected, id };
  }

  /** Whether the relation holds now (for a palette block: for any block of its opcode). */
  function vmRelation(spec) {
    if (spec.source !== 'flyout') return relation(spec, spec.target_id);
    const blocks = vmBlocks();
    return Object.keys(blocks).some((id) => blocks[id].opcode === spec.target_opcode &&
      relation(spec, id));
  }

  /** Authoring: take block `id` (with the blocks below it) out of its place, move it by dx, dy. */
  async function detach(id, dx, dy) {
    const block = ws().getBlockById(id);
    if (!block) throw new Error(`no block ${id} in the workspace`);
    SB.Events.setGroup(true);
    try {
      block.unplug(false);
      block.moveBy(dx, dy);
    } finally {
      SB.Events.setGroup(false);
    }
    await settle();
    return viewState();
  }

  /** A block's own words as shown ("say [Hello!] for (2) seconds" -> "say for seconds"). */
  function label(id, flyoutOpcode, flyoutIndex) {
    let el = null;
    if (id) {
      const block = ws().getBlockById(id);
      el = block ? block.getSvgRoot() : null;
    } else {
      el = flyoutBlocks(flyoutOpcode)[flyoutIndex || 0] || null;
    }
    if (!el) return null;
    const parts = [];
    el.querySelectorAll('.blocklyText').forEach((t) => {
      if (ownerBlockEl(t) !== el) return;
      if (t.closest('.blocklyEditableText, .blocklyDropdownText') || t.closest('.blocklyShadow')) return;
      const r = t.getBoundingClientRect();
      parts.push([Math.round(r.top / 8), r.left, t.textContent]);
    });
    parts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return parts.map((p) => p[2]).join(' ').replace(/\s+/g, ' ').trim();
  }

  window.studioDrag = {
    label,
    flyoutIndexOf,
    detach,
    settle,
    still,
    view,
    viewState,
    paletteTop,
    pan,
    mark,
    atBaseline,
    baselineDiff,
    restore,
    ownersAt,
    geometry,
    snapTargets,
    emptySpots,
    beginTrial,
    outcome,
    finish,
    ready,
    vmRelation,
    programKey,
  };
}());
