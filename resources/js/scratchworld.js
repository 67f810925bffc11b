/*
 * The published ScratchWorld server's page-side views, in an editor page of the studio
 * (SCRATCHWORLD_API.md sections 4, 5 and 8). Installed by studio/services/page_scripts.py once
 * window.studioEditorReady.
 *
 *   window.StudioScratchWorld.elementsBatch([[name, css], ...])
 *       -> {elements: [{index, position: {x, y, width, height}, text, type, block_name?}],
 *           unmatched: [css...]}
 *     Elements of each selector in document order, kept when they intersect the viewport and
 *     the topmost element at their centre is themselves or inside them. A `.blocklyDraggable`
 *     takes its box from its first `path.blocklyBlockBackground`. A selector the published GUI
 *     knows but this bundle spells differently is matched through ALIASES.
 *   window.StudioScratchWorld.structure()
 *       -> {blocks: [...], idToBlock: {id: {id, opcode, position, boundingBox,
 *           screenBoundingBox, parent, next, inputs, fields}}, targetName, targetId, isStage}
 *     The editing target's non-shadow blocks, as the VM holds them.
 *   window.StudioScratchWorld.pseudocodeExtras(ids)
 *       -> {targetId, availableTargets, valueToIdMappings, placements: {id: {position, ...}}}
 *   window.StudioScratchWorld.control(api, args)  run_project, stop_project, select_category
 *   window.StudioScratchWorld.customJs(code, payload)
 *       -> {ok: true, value} | {ok: false, code: INVALID_JS_FN | CUSTOM_JS_ERROR, message}
 *     `code` is the source of a function; it is awaited as
 *     fn({vm, SB, ws, payload, getVM, getWorkspace, getScratchBlocks}).
 *   window.StudioScratchWorld.sealedReader() -> {read: async () => base64 of the .sb3}
 *     Captures, when called (a session's page set-up, before any agent call), the VM, its own
 *     save and serialize functions and the built-ins the read needs, out of reach of page
 *     globals that agent code could replace; the caller keeps the reader as a handle.
 *   window.StudioScratchWorld.restoreWorkspace(state) -> {scale, scrollX, scrollY}
 *     The drag runner's workspace restore (section 11), done by the studio instead of the
 *     code it sends: scrollX/scrollY (else -tx/scale, -ty/scale, else 0) at state.scale (else
 *     the current zoom), restored as the page's edition restores a published item
 *     (studioEdition.restorePublished: on classic the published runner's forced canvas
 *     transform; on current zoom, scroll, and translate where the scroll cannot reach).
 */
(function () {
  'use strict';
  const ws = () => window.workspace;
  const SB = window.ScratchBlocks;
  // The published GUI's class names that this bundle's scratch-blocks spells otherwise.
  const ALIASES = {
    '.scratchCategoryMenuItem': '.blocklyToolboxCategory',
    "[data-testid='stage']": '[class^="stage_stage_"]',
    '[data-testid="stage"]': '[class^="stage_stage_"]',
  };
  const FLYOUT_OPCODE = /^[A-Za-z_]+$/;

  function textOf(el) {
    if (el.tagName === 'INPUT') {
      const name = el.getAttribute('name') || '';
      let text = `${name} value: ${el.value} placeholder: ${el.getAttribute('placeholder') || ''}`;
      if (el.type === 'checkbox' || el.type === 'radio') {
        text += el.checked ? ' checked' : ' unchecked';
      }
      return text.trim();
    }
    const raw = el.getAttribute('aria-label') || el.getAttribute('title') ||
      (typeof el.innerText === 'string' ? el.innerText : '') || el.textContent || '';
    return raw.replace(/\n/g, ' ').trim();
  }

  function boxElement(el) {
    if (el.classList && el.classList.contains('blocklyDraggable')) {
      return el.querySelector('path.blocklyBlockBackground') || el;
    }
    return el;
  }

  function shown(el, r) {
    if (r.width <= 0 || r.height <= 0) return false;
    if (r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight) return false;
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const top = document.elementFromPoint(cx, cy);
    return Boolean(top) && (top === el || el.contains(top));
  }

  /** A palette block is named by its opcode (the published GUI gives palette blocks their
   * opcode as id; this bundle gives them generated ids, so the opcode is read instead). */
  function blockName(el, text) {
    const id = el.getAttribute('data-id');
    if (!id) return text;
    if (FLYOUT_OPCODE.test(id)) return id;
    if (el.closest('.blocklyFlyout')) {
      const flyout = ws() && ws().getFlyout && ws().getFlyout();
      const shown = flyout && flyout.getWorkspace().getBlockById(id);
      return (shown && shown.type) || (el.getAttribute('class') || '').split(/\s+/)[0] || id;
    }
    const block = ws() && ws().getBlockById(id);
    return `${(block && block.type) || id} on canvas`;
  }

  function elementsBatch(specs) {
    const elements = [];
    const unmatched = [];
    for (const [name, css] of specs) {
      let found;
      try {
        found = [...document.querySelectorAll(css)];
        if (!found.length && ALIASES[css]) found = [...document.querySelectorAll(ALIASES[css])];
      } catch (err) {
        unmatched.push(css);
        continue;
      }
      for (const el of found) {
        const r = boxElement(el).getBoundingClientRect();
        if (!shown(el, r)) continue;
        const text = textOf(el);
        const entry = {
          index: elements.length,
          position: { x: Math.round(r.left), y: Math.round(r.top),
            width: Math.round(r.width), height: Math.round(r.height) },
          text,
          type: name,
        };
        if (el.classList && el.classList.contains('blocklyDraggable')) {
          entry.block_name = blockName(el, text);
        }
        elements.push(entry);
      }
    }
    return { elements, unmatched };
  }

  function placement(block) {
    const xy = block.getRelativeToSurfaceXY();
    const rect = window.studioEdition.blockly.rect(block);
    const svg = block.getSvgRoot && block.getSvgRoot();
    const path = svg && (svg.querySelector('path.blocklyBlockBackground') || svg);
    const screen = path ? path.getBoundingClientRect() : null;
    return {
      position: { x: xy.x, y: xy.y },
      boundingBox: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom,
        width: rect.right - rect.left, height: rect.bottom - rect.top },
      screenBoundingBox: screen && { x: screen.left, y: screen.top, width: screen.width,
        height: screen.height },
    };
  }

  function placements(ids) {
    const out = {};
    for (const id of ids) {
      const block = ws().getBlockById(id);
      if (block) out[id] = placement(block);
    }
    return out;
  }

  function structure() {
    const target = window.vm.editingTarget;
    const idToBlock = {};
    const blocks = [];
    if (target) {
      for (const [id, b] of Object.entries(target.blocks._blocks)) {
        if (b.shadow) continue;
        const shown = ws().getBlockById(id);
        const entry = {
          id,
          opcode: b.opcode,
          parent: b.parent || null,
          next: b.next || null,
          topLevel: Boolean(b.topLevel),
          inputs: Object.fromEntries(Object.entries(b.inputs || {}).map(([k, v]) =>
            [k, { name: v.name, block: v.block || null, shadow: v.shadow || null }])),
          fields: Object.fromEntries(Object.entries(b.fields || {}).map(([k, v]) =>
            [k, { name: v.name, value: v.value, ...(v.id ? { id: v.id } : {}) }])),
          ...(shown ? placement(shown) : { position: { x: b.x || 0, y: b.y || 0 },
            boundingBox: null, screenBoundingBox: null }),
        };
        idToBlock[id] = entry;
        blocks.push(entry);
      }
    }
    return {
      blocks,
      idToBlock,
      targetName: target ? target.getName() : null,
      targetId: target ? target.id : null,
      isStage: Boolean(target && target.isStage),
    };
  }

  async function customJs(code, payload) {
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
      const value = await fn({
        vm: window.vm, SB, ws: ws(), payload,
        getVM: () => window.vm, getWorkspace: ws, getScratchBlocks: () => SB,
      });
      const json = value === undefined ? undefined : JSON.stringify(value);
      return { ok: true, value: json === undefined ? null : JSON.parse(json) };
    } catch (err) {
      return { ok: false, code: 'CUSTOM_JS_ERROR', message: String((err && err.message) || err) };
    }
  }

  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const finite = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

  async function restoreWorkspace(state) {
    const w = ws();
    const scale = finite(state.scale) && state.scale > 0 ? state.scale : w.scale;
    if (w.scale !== scale) w.setScale(scale);
    await frame();
    const tx = finite(state.tx), ty = finite(state.ty);
    let sx = finite(state.scrollX), sy = finite(state.scrollY);
    if (sx === null) sx = tx !== null ? -tx / scale : 0;
    if (sy === null) sy = ty !== null ? -ty / scale : 0;
    const given = { scale, scrollX: sx, scrollY: sy };
    if (tx !== null) given.tx = tx;
    if (ty !== null) given.ty = ty;
    // as the page's edition restores a published item (on classic: the published runner's
    // forced canvas transform)
    await window.studioEdition.restorePublished(w, given, frame);
    return { scale: w.scale, scrollX: w.scrollX, scrollY: w.scrollY };
  }

  /** The targets, and the ids of the variables, lists and messages in the editing target's
   * scope by name (what set_block_field's names map to). */
  function context() {
    const vm = window.vm;
    const target = vm.editingTarget;
    const stage = vm.runtime.getTargetForStage();
    const valueToIdMappings = {};
    for (const t of [stage, target]) {
      if (!t) continue;
      for (const v of Object.values(t.variables)) valueToIdMappings[v.name] = v.id;
    }
    const targets = vm.runtime.targets.filter((t) => t.isOriginal);
    return {
      targetId: target ? target.id : null,
      availableTargets: [...targets.filter((t) => t.isStage), ...targets.filter((t) => !t.isStage)]
        .map((t) => ({ id: t.id, name: t.getName(), isStage: t.isStage })),
      valueToIdMappings,
    };
  }

  /** The published composite APIs composite.js does not have. */
  function control(api, args) {
    const vm = window.vm;
    if (api === 'run_project') { vm.greenFlag(); return { started: true }; }
    if (api === 'stop_project') { vm.stopAll(); return { stopped: true }; }
    const wanted = String(args.category || args.category_name || '').toLowerCase();
    const B = window.studioEdition.blockly;
    const items = B.categories(ws());
    const item = items.find((c) => c.id.toLowerCase() === wanted ||
      c.name.toLowerCase() === wanted);
    if (!item || !wanted) {
      return { error: `no category ${JSON.stringify(wanted)}; categories: ` +
        items.map((c) => c.name).filter(Boolean).join(', ') };
    }
    B.selectCategory(ws(), item.id);
    return { category: item.name };
  }

  function sealedReader() {
    const vm = window.vm, proto = Object.getPrototypeOf(vm), runtime = vm.runtime;
    const save = proto.saveProjectSb3, toJSON = proto.toJSON, apply = Reflect.apply;
    const create = Object.create, U8 = Uint8Array, fromCharCode = String.fromCharCode;
    const arrayBuffer = Blob.prototype.arrayBuffer, toBase64 = window.btoa.bind(window);
    return {
      read: async () => {
        const view = create(vm, { toJSON: { value: toJSON }, runtime: { value: runtime } });
        let out = await apply(save, view, []);
        if (!(out instanceof ArrayBuffer)) out = await apply(arrayBuffer, out, []);
        const bytes = new U8(out);
        let text = '';
        for (let i = 0; i < bytes.length; i += 0x8000) {
          text += apply(fromCharCode, null, bytes.subarray(i, i + 0x8000));
        }
        return toBase64(text);
      },
    };
  }

  window.StudioScratchWorld = {
    elementsBatch, sealedReader, structure, customJs, control, restoreWorkspace,
    /** context() with the placements of the blocks `ids` (one call per observation). */
    pseudocodeExtras: (ids) => ({ ...context(), placements: placements(ids) }),
  };
}());
