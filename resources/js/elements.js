/*
 * Primitive-mode element collection for the Scratch editor page (FORMATS.md section 3).
 *
 * Defines window.StudioElements (installed by studio/services/page_scripts.py after
 * resources/js/page-helpers.js, whose `lists.elementTypes` is the type order):
 *   collect()        the visible, topmost elements inside the viewport, as a flat list of
 *                    {type, text, x, y, w, h, meta}; order: by type (TYPE_ORDER), then
 *                    top-to-bottom, left-to-right. Python numbers them 0..n-1.
 *   describeAt(x, y, drag)  "type: text" of the element under a point (what a press there
 *                    hits; with `drag`, a block's input counts as its block, which a drag moves).
 *   describePoints(points, drag)  describeAt for each [x, y] of `points`.
 *   describeFocus()  "type: text" of the focused element (where typed keys go), or null.
 *   canvasBox()      the visible code area {x, y, w, h} (default point of a scroll).
 *   settle(maxMs, n) resolves once the flyout and the workspace stopped moving for n frames
 *                    (and the edition reports no animation running).
 *
 * Selectors never use the GUI's hashed CSS class suffixes: they match a class by prefix
 * (`[class^="sprite-selector-item_sprite-selector-item_"]`) or use roles, aria and Blockly's
 * own unhashed classes. What differs between editor editions (how blocks, fields, the category
 * menu, the zoom buttons and sprite names show in the DOM) comes from the page's edition
 * adapter, `window.studioEdition.elements` (resources/js/edition-current.js lists it), so each
 * edition's list has the same kinds and names.
 */
(function () {
  'use strict';
  const { FLYOUT_BLOCKS, ownerBlockEl: ownerBlock, lists } = window.studioPageHelpers;
  const edition = window.studioEdition;
  const ED = edition.elements;

  /** Selector for an element having a class that starts with `prefix`. */
  const cls = (prefix) => `[class^="${prefix}"], [class*=" ${prefix}"]`;
  const TYPE_ORDER = lists.elementTypes;
  const MAX_TEXT = 80;
  const WORKSPACE_BLOCKS = ED.canvasBlocks;
  const FIELDS = ED.fields;

  const clean = (s) => String(s || '').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  const inFlyout = (el) => Boolean(el.closest('.blocklyFlyout'));
  const isCanvasBlock = (el) => el.matches(WORKSPACE_BLOCKS) && !inFlyout(el);

  /** The opcode of a block element (the edition knows where its type is). */
  function opcodeOf(block) {
    return ED.blockType(block) || 'block';
  }

  /** A block's own label: its texts, skipping blocks that hang inside or below it. */
  function blockLabel(block) {
    const parts = [];
    block.querySelectorAll('.blocklyText').forEach((t) => {
      if (ownerBlock(t) !== block) return;
      const r = t.getBoundingClientRect();
      parts.push([Math.round(r.top / 8), r.left, t.textContent]);
    });
    parts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return clean(parts.map((p) => p[2]).join(' '));
  }

  function generalText(el) {
    if (el.matches('input, textarea')) {
      const label = clean([...(el.labels || [])].map((l) => l.innerText).join(' ') ||
        el.getAttribute('aria-label') || el.getAttribute('name'));
      if (el.matches('[type="radio"], [type="checkbox"]')) {
        return clean(`${el.type}: ${label || el.value}${el.checked ? ' (checked)' : ''}`);
      }
      const holder = clean(el.getAttribute('placeholder'));
      return clean(`value: ${clean(el.value)}` + (holder ? ` placeholder: ${holder}` :
        label ? ` label: ${label}` : ''));
    }
    const img = el.querySelector && el.querySelector('img[alt]');
    return clean(el.getAttribute('aria-label') || el.getAttribute('title') || el.innerText ||
      el.textContent || (img && img.getAttribute('alt')));
  }

  function fieldText(field) {
    const block = ownerBlock(field);
    const where = block ? opcodeOf(block) + (isCanvasBlock(block) ? ' on canvas' : '') : '';
    return clean(`value: ${field.textContent}` + (where ? ` (${where})` : ''));
  }

  function fieldMeta(field) {
    const block = ownerBlock(field);
    const shadow = field.closest(edition.blockSelector);
    const meta = {
      kind: ED.isDropdown(field) ? 'dropdown' : 'text',
      value: field.textContent,
      opcode: block ? opcodeOf(block) : null,
    };
    if (block && isCanvasBlock(block)) {
      meta.block_id = block.getAttribute('data-id');
      if (shadow && shadow !== block) meta.shadow_id = shadow.getAttribute('data-id');
    }
    return meta;
  }

  function selected(el) {
    return el.getAttribute('aria-selected') === 'true' ||
      /(^|[\s_-])(is-)?selected/i.test(el.getAttribute('class') || '');
  }

  /** The sources of elements, most specific first; an element is listed once. */
  const SOURCES = [
    { type: 'inputs', sel: FIELDS, nested: true,
      text: fieldText, meta: fieldMeta, box: fieldBox, hitArea: fieldShadow },
    { type: 'inputs', sel: 'input:not([type="file"]), textarea',
      meta: (el) => ({ name: el.getAttribute('name') || el.getAttribute('placeholder') || '' }) },
    { type: 'sprites', sel: cls('sprite-selector-item_sprite-selector-item_'),
      text: (el) => clean(ED.spriteName(el)), meta: (el) => ({ selected: selected(el) }) },
    { type: 'sprites', sel: cls('stage-selector_stage-selector_'),
      text: (el) => clean(el.innerText), meta: (el) => ({ stage: true, selected: selected(el) }) },
    { type: 'blocks', sel: WORKSPACE_BLOCKS, nested: true,
      skip: (el) => edition.isShadowEl(el) || inFlyout(el),
      text: (el) => `${opcodeOf(el)} on canvas`, box: ownPathBox,
      meta: (el) => ({
        block_id: el.getAttribute('data-id'), opcode: opcodeOf(el), label: blockLabel(el) }) },
    { type: 'blocks', sel: FLYOUT_BLOCKS, nested: true,
      skip: (el) => edition.isShadowEl(el), text: opcodeOf,
      meta: (el) => ({ opcode: opcodeOf(el), label: blockLabel(el) }) },
    { type: 'category_menu', sel: edition.categorySelector,
      meta: (el) => ({ id: ED.categoryId(el), selected: ED.categorySelected(el) }) },
    { type: 'flyout_buttons', sel: '.blocklyFlyoutButton', text: (el) => clean(el.textContent) },
    { type: 'flyout_buttons', sel: '.blocklyFlyout .blocklyFlyoutCheckbox',
      hitArea: (el) => el.parentElement, text: (el) => `checkbox: ${checkboxFor(el)}` },
    { type: 'buttons', sel: cls('green-flag_green-flag'),
      text: () => 'green flag (start project)' },
    { type: 'buttons', sel: cls('stop-all_stop-all'), text: () => 'stop (stop project)' },
    { type: 'buttons', sel: '[role="tab"]', meta: (el) => ({ selected: selected(el) }) },
    { type: 'menu_items', sel: '.blocklyMenuItem, .goog-menuitem, [role="menuitem"], ' +
      cls('menu_menu-item'), text: (el) => clean(el.innerText || el.textContent) },
    { type: 'monitors', sel: cls('monitor_monitor-container_'), text: (el) => clean(el.innerText) },
    { type: 'buttons', sel: 'button, [role="button"], [role="checkbox"], [role="radio"], ' +
      'a[href], select, ' + cls('menu-bar_menu-bar-item_'),
      skip: (el) => !generalText(el) && !el.querySelector('img, svg') },
    { type: 'buttons', sel: ED.zooms, text: (el) => `zoom ${ED.zoomKind(el)}` },
    { type: 'stage', sel: cls('stage_stage_') + ', ' + cls('stage_full-screen_'),
      text: () => 'Stage' },
  ];

  /** The reporter a flyout checkbox shows on the stage: the block beside it (and its label).
   * Whether it is ticked is not in the DOM (the screenshot and the stage's monitors show it). */
  function checkboxFor(box) {
    const r = box.getBoundingClientRect();
    let best = null;
    let bestDist = Infinity;
    document.querySelectorAll(FLYOUT_BLOCKS).forEach((b) => {
      const br = b.getBoundingClientRect();
      const d = Math.abs((br.top + br.bottom) / 2 - (r.top + r.bottom) / 2);
      if (br.left >= r.right - 2 && d < bestDist) {
        best = b;
        bestDist = d;
      }
    });
    if (!best || bestDist >= 20) return 'reporter';
    const label = blockLabel(best);
    return opcodeOf(best) + (label ? ` (${label})` : '');
  }

  /** The shadow block (number, text or menu oval) a field sits in, or null. */
  function fieldShadow(field) {
    const shadow = field.closest(edition.blockSelector);
    return shadow && edition.isShadowEl(shadow) ? shadow : null;
  }

  /** A field's clickable box: the whole oval of its shadow (an empty slot too), or itself. */
  function fieldBox(field) {
    const shadow = fieldShadow(field);
    const path = shadow && shadow.querySelector(':scope > path.blocklyPath');
    return (path || field).getBoundingClientRect();
  }

  /** A workspace block's own shape (its group also spans the blocks below it). */
  function ownPathBox(el) {
    const path = el.querySelector(':scope > path.blocklyPath');
    return (path || el).getBoundingClientRect();
  }

  /** The visible code area: the workspace right of the toolbox and the flyout. */
  function canvasElement() {
    const svg = document.querySelector('svg.blocklySvg');
    if (!svg) return null;
    const r = svg.getBoundingClientRect();
    let left = r.left;
    document.querySelectorAll('.blocklyToolbox, svg.blocklyFlyout').forEach((el) => {
      const er = el.getBoundingClientRect();
      if (er.width > 0 && getComputedStyle(el).display !== 'none') left = Math.max(left, er.right);
    });
    return { el: svg.querySelector('.blocklyMainBackground') || svg, rect: {
      left, top: r.top, right: r.right, bottom: r.bottom } };
  }

  /** The visible code area as {x, y, w, h}, or null. */
  function canvasBox() {
    const canvas = canvasElement();
    const b = canvas && clip(canvas.rect);
    return b ? { x: b.left, y: b.top, w: b.right - b.left, h: b.bottom - b.top } : null;
  }

  function clip(rect) {
    const left = Math.max(0, rect.left);
    const top = Math.max(0, rect.top);
    const right = Math.min(window.innerWidth, rect.right);
    const bottom = Math.min(window.innerHeight, rect.bottom);
    return right - left >= 2 && bottom - top >= 2 ? { left, top, right, bottom } : null;
  }

  /** Does a press at some sample point of `box` land on `el` itself? */
  function isTopmost(target, box, source) {
    const el = (source && source.hitArea && source.hitArea(target)) || target;
    const w = box.right - box.left;
    const h = box.bottom - box.top;
    const points = [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75],
      [0.1, 0.5], [0.5, 0.1]];
    const block = source && source.type === 'blocks';
    const spots = points.map(([fx, fy]) => [box.left + fx * w, box.top + fy * h]);
    // A C-block's own shape is mostly its arms: its samples above can all fall on the blocks
    // in its mouth; the top-left corner of the top arm is always its own.
    if (block) spots.push([box.left + Math.min(6, w / 4), box.top + Math.min(8, h / 4)]);
    for (const [x, y] of spots) {
      const hit = document.elementFromPoint(x, y);
      if (!hit) continue;
      if (block ? ownerBlock(hit) === el : el === hit || el.contains(hit)) return true;
    }
    return false;
  }

  function visibleStyle(el) {
    if (el.closest('[display="none"], [aria-hidden="true"]')) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0;
  }

  function entry(type, text, box, meta) {
    const round = (v) => Math.round(v);
    return { type, text, x: round(box.left), y: round(box.top),
      w: round(box.right - box.left), h: round(box.bottom - box.top), meta: meta || {} };
  }

  function collect() {
    const seen = new Set();
    const out = [];
    for (const source of SOURCES) {
      for (const el of document.querySelectorAll(source.sel)) {
        if (seen.has(el) || (source.skip && source.skip(el))) continue;
        if (!source.nested && el.parentElement && el.parentElement.closest(source.sel)) continue;
        seen.add(el);
        const box = clip(source.box ? source.box(el) : el.getBoundingClientRect());
        if (!box || !visibleStyle(el) || !isTopmost(el, box, source)) continue;
        const text = source.text ? source.text(el) : generalText(el);
        out.push(entry(source.type, text, box, source.meta ? source.meta(el) : {}));
      }
    }
    const canvas = canvasElement();
    const cbox = canvas && clip(canvas.rect);
    const svg = canvas && canvas.el.closest('svg.blocklySvg');
    if (cbox && isTopmost(svg, cbox, null)) out.push(entry('canvas', 'code area', cbox, {}));
    const rank = (t) => (TYPE_ORDER.indexOf(t) + TYPE_ORDER.length + 1) % (TYPE_ORDER.length + 1);
    const canvasFirst = (e) => (e.type === 'blocks' && e.text.endsWith(' on canvas') ? 0 : 1);
    out.sort((a, b) => rank(a.type) - rank(b.type) || canvasFirst(a) - canvasFirst(b) ||
      Math.round(a.y / 4) - Math.round(b.y / 4) || a.x - b.x);
    return out;
  }

  /** What a press at (x, y) hits; `drag`: a press on a block's input grabs the block. */
  function describeAt(x, y, drag) {
    const hit = document.elementFromPoint(x, y);
    if (!hit) return null;
    const block = ownerBlock(hit);
    const field = hit.closest(FIELDS);
    const checkbox = hit.parentElement &&
      hit.parentElement.querySelector(':scope > .blocklyFlyoutCheckbox');
    if (checkbox) return `flyout_buttons: checkbox: ${checkboxFor(checkbox)}`;
    if (field && !(drag && block)) return `inputs: ${fieldText(field)}`;
    if (block && isCanvasBlock(block)) return `blocks: ${opcodeOf(block)} on canvas`;
    if (block && inFlyout(block)) return `blocks: ${opcodeOf(block)}`;
    for (const source of SOURCES) {
      const el = hit.closest(source.sel);
      if (el) return `${source.type}: ${source.text ? source.text(el) : generalText(el)}`;
    }
    const canvas = canvasElement();
    if (canvas && hit.closest('svg.blocklySvg') && !inFlyout(hit)) return 'canvas: code area';
    if (hit.closest('svg.blocklyFlyout')) return 'flyout: background';
    const named = hit.closest('[aria-label], [title], [role]');
    if (!named) return hit.tagName.toLowerCase();
    return `${named.tagName.toLowerCase()}: ${generalText(named)}`;
  }

  /** describeAt for several [x, y] points at once (one round trip for a drag). */
  function describePoints(points, drag) {
    return points.map(([x, y]) => describeAt(x, y, drag));
  }

  /** "type: text" of the element keys go to, or null when nothing has the focus. */
  function describeFocus() {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    if (el.matches('input, textarea') && el.closest('.blocklyWidgetDiv')) {
      return `inputs: editing ${generalText(el)}`;
    }
    for (const source of SOURCES) {
      const hit = el.closest(source.sel);
      if (hit) return `${source.type}: ${source.text ? source.text(hit) : generalText(hit)}`;
    }
    return `${el.tagName.toLowerCase()}: ${generalText(el)}`;
  }

  /** The transforms that move while the flyout or the workspace scrolls. */
  function motionSignature() {
    return [...document.querySelectorAll('.blocklyBlockCanvas, .blocklyDropDownDiv')]
      .map((el) => (el.getAttribute('transform') || '') + (el.style ? el.style.cssText : ''))
      .join('|');
  }

  /** Resolve once `frames` frames in a row looked the same and the edition ran no animation
   * (true), or after maxMs (false). */
  function settle(maxMs, frames) {
    const until = performance.now() + (maxMs || 1000);
    const needed = frames || 2;
    return new Promise((resolve) => {
      let last = motionSignature();
      let still = 0;
      const tick = () => {
        const now = motionSignature();
        still = now === last && !ED.animating() ? still + 1 : 0;
        last = now;
        if (still >= needed || performance.now() > until) {
          resolve(still >= needed);
          return;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  window.StudioElements = {
    collect, describeAt, describePoints, describeFocus, canvasBox, settle, version: 1,
  };
}());
