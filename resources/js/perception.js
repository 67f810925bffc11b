/*
 * Perception QA inside the editor page: the answer a question should have, read from the VM
 * and the workspace as they are on screen. Installed by studio/services/page_scripts.py (after
 * resources/js/page-helpers.js); studio/services/qa/capture.py calls it.
 *
 *   window.studioQa.connection(blockId)      {answer, tag, why}: is the block connected to
 *                                            the block above it (its parent in the VM)?
 *   window.studioQa.existence(opcode)        {answer, tag, why}: is a block of this opcode
 *                                            visible in the code area (not hidden behind
 *                                            something, not scrolled away)?
 *   window.studioQa.field(blockId, name)     {answer, tag, why}: the text the field (or the
 *                                            input's shadow) shows
 *   window.studioQa.codeArea()               {x, y, w, h} of the visible code area
 *   window.studioQa.blocks()                 [{id, opcode, label, box, parent, top}] on screen
 */
(function () {
  'use strict';
  const { ws, ownerBlockEl, vmBlocks } = window.studioPageHelpers;
  const SAMPLES = 7;

  function codeArea() {
    const area = document.querySelector('svg.blocklySvg').getBoundingClientRect();
    const fly = document.querySelector('svg.blocklyFlyout').getBoundingClientRect();
    const left = Math.max(area.left, fly.right);
    return { x: left, y: area.top, w: area.right - left, h: area.bottom - area.top };
  }

  function ownPath(block) {
    return block.getSvgRoot().querySelector(':scope > path') || block.getSvgRoot();
  }

  /** Share of sample points of the block's own shape where a press would reach the block. */
  function visibleShare(block) {
    const r = ownPath(block).getBoundingClientRect();
    const area = codeArea();
    let hits = 0;
    let total = 0;
    for (let i = 0; i < SAMPLES; i += 1) {
      for (let j = 0; j < 3; j += 1) {
        const x = r.left + ((i + 0.5) / SAMPLES) * r.width;
        const y = r.top + ((j + 0.5) / 3) * Math.min(r.height, 40);
        total += 1;
        if (x < area.x || x > area.x + area.w || y < area.y || y > area.y + area.h) continue;
        const owner = ownerBlockEl(document.elementFromPoint(x, y));
        if (owner && block.getSvgRoot().contains(owner)) hits += 1; // its own reporters count
      }
    }
    return total ? hits / total : 0;
  }

  function connection(blockId) {
    const b = vmBlocks()[blockId];
    if (!b) return { error: `no block ${blockId}` };
    const parent = b.parent ? vmBlocks()[b.parent] : null;
    if (parent) {
      const how = parent.next === blockId ? 'below' : 'inside';
      return { answer: 'YES', tag: `connection_yes_${how}`,
        why: `VM: parent of ${blockId} is ${b.parent} (${parent.opcode}), ${how}` };
    }
    const block = ws().getBlockById(blockId);
    const me = ownPath(block).getBoundingClientRect();
    let near = false;
    for (const other of ws().getTopBlocks(false)) {
      if (other.id === blockId) continue;
      const r = other.getSvgRoot().getBoundingClientRect();
      const gap = me.top - r.bottom;
      if (gap > -12 && gap < 24 && me.left < r.right && r.left < me.right) near = true;
    }
    return { answer: 'NO', tag: near ? 'connection_no_hard' : 'connection_no_easy',
      why: `VM: ${blockId} is a top block${near ? ', a script ends just above it' : ''}` };
  }

  function existence(opcode) {
    const blocks = ws().getAllBlocks(false).filter((b) => b.type === opcode && !b.isShadow());
    if (!blocks.length) {
      return { answer: 'NO', tag: 'existence_no_absent', why: `no ${opcode} block in the sprite` };
    }
    let best = 0;
    for (const b of blocks) best = Math.max(best, visibleShare(b));
    if (best >= 0.75) return { answer: 'YES', tag: 'existence_yes_visible', why: `${Math.round(best * 100)}% visible` };
    if (best >= 0.25) return { answer: 'YES', tag: 'existence_yes_occluded', why: `${Math.round(best * 100)}% visible` };
    return { answer: 'NO', tag: 'existence_no_hidden',
      why: `${blocks.length} block(s) in the sprite, at most ${Math.round(best * 100)}% visible` };
  }

  function field(blockId, name) {
    const block = ws().getBlockById(blockId);
    if (!block) return { error: `no block ${blockId}` };
    let f = block.getField(name);
    let kind = 'field';
    if (!f) {
      const input = block.getInput(name);
      const shadow = input && input.connection && input.connection.targetBlock();
      if (shadow && !shadow.isShadow()) {
        return { error: `input ${name} holds a reporter block, not a value` };
      }
      if (shadow) {
        for (const row of shadow.inputList) for (const x of row.fieldRow) if (x.name && !f) f = x;
      }
      kind = 'input';
    }
    if (!f) return { error: `block ${blockId} has no field or input ${name}` };
    const text = String(f.getText()).trim();
    const numeric = text !== '' && !Number.isNaN(Number(text));
    const dropdown = typeof f.getOptions === 'function';
    const tag = dropdown ? 'field_dropdown' : numeric ? 'field_number' : 'field_text';
    return { answer: text, tag, why: `${kind} ${name} of ${block.type} shows ${JSON.stringify(text)}` };
  }

  function blocks() {
    return ws().getAllBlocks(false).filter((b) => !b.isShadow()).map((b) => {
      const r = ownPath(b).getBoundingClientRect();
      const v = vmBlocks()[b.id] || {};
      return { id: b.id, opcode: b.type, parent: v.parent || null, top: Boolean(v.topLevel),
        box: { x: r.left, y: r.top, w: r.width, h: r.height } };
    });
  }

  window.studioQa = { connection, existence, field, codeArea, blocks };
}());
