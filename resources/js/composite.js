/*
 * Composite mode inside the editor page: reads the Blockly workspace as structured data and
 * performs the composite APIs through it (so the editor shows what the agent did and the VM
 * follows through its normal workspace listener). Installed by studio/services/page_scripts.py
 * (after resources/js/page-helpers.js) once window.studioEditorReady.
 *
 *   window.studioComposite.snapshot()  -> {version, target, targets, variables, lists, tops,
 *                                          blocks: {id: {opcode, next, inputs, fields}}}
 *   window.studioComposite.run(request) -> {ok, error?, blockId?, detail?}
 *
 * `version` counts the workspace changes that can move an index: block create, delete, change,
 * moves that change a parent, variable changes and editing-target switches. Moves of a whole
 * script on the canvas (Blockly bumps stacks apart some time after a connection) do not count.
 */
(function () {
  'use strict';
  const SB = window.ScratchBlocks;
  const vm = window.vm;
  const H = window.studioPageHelpers;
  const B = window.studioEdition.blockly; // what differs between the editions' Blockly
  const { ws, settle, waitFor, lastInStack } = H;
  const SHADOW_NUMBERS = new Set(H.lists.numberShadows);
  const HIDDEN_OPTIONS = new Set([SB.RENAME_VARIABLE_ID, SB.DELETE_VARIABLE_ID,
    SB.NEW_BROADCAST_MESSAGE_ID]);
  const MARGIN = 32;
  const COLUMNS = [48, 420]; // both in view at the editor's default zoom
  let version = 0;

  class ActionFailure extends Error {}
  const fail = (msg) => { throw new ActionFailure(msg); };

  function countsAsChange(e) {
    if (e.isUiEvent) return false;
    if (e.type === SB.Events.BLOCK_MOVE) return Boolean(e.oldParentId || e.newParentId);
    return true;
  }
  ws().addChangeListener((e) => { if (countsAsChange(e)) version += 1; });
  vm.on('workspaceUpdate', () => { version += 1; });

  // ---- reading ---------------------------------------------------------------------------
  function optionText(opt) {
    const text = opt[0];
    return typeof text === 'string' ? text : (text && text.alt) || String(opt[1]);
  }

  function isVariableField(field) {
    return typeof field.getVariable === 'function';
  }

  function variableType(field) {
    const v = field.getVariable && field.getVariable();
    if (v) return v.type;
    const types = field.variableTypes || (field.getVariableTypes_ && field.getVariableTypes_());
    return types && types.length ? types[0] : '';
  }

  function fieldInfo(field) {
    if (isVariableField(field)) {
      const type = variableType(field);
      const names = ws().getVariableMap().getVariablesOfType(type).map((v) => v.name).sort();
      return { name: field.name, kind: 'variable', value: field.getText(), varType: type,
        choices: names };
    }
    if (field instanceof SB.FieldDropdown) {
      const options = field.getOptions(false).filter((o) => !HIDDEN_OPTIONS.has(o[1]));
      return { name: field.name, kind: 'dropdown', value: field.getValue(),
        choices: options.map((o) => o[1]), labels: options.map(optionText) };
    }
    return { name: field.name, kind: 'text', value: field.getValue() };
  }

  function namedFields(block) {
    const out = [];
    for (const input of block.inputList) {
      for (const field of input.fieldRow) {
        if (field.name && (field.EDITABLE || isVariableField(field))) out.push(field);
      }
    }
    return out;
  }

  function describeBlock(block) {
    const inputs = [];
    for (const input of block.inputList) {
      if (!input.name || !input.connection) continue;
      const kind = input.type === B.inputType(SB, 'statement') ? 'statement' : 'value';
      const child = input.connection.targetBlock();
      const item = { name: input.name, kind, block: null, shadow: null,
        boolean: (B.check(input.connection) || []).includes('Boolean') };
      if (child && !child.isShadow()) item.block = child.id;
      else if (child) {
        item.shadow = { opcode: child.type, fields: namedFields(child).map(fieldInfo) };
      }
      inputs.push(item);
    }
    const next = block.getNextBlock();
    return { opcode: block.type, next: next ? next.id : null,
      inputs, fields: namedFields(block).map(fieldInfo) };
  }

  function dataInScope(type) {
    const target = vm.editingTarget;
    const stage = vm.runtime.getTargetForStage();
    const out = [];
    const add = (t, scope) => {
      for (const v of Object.values(t.variables)) if (v.type === type) out.push({ name: v.name, scope });
    };
    if (stage) add(stage, 'all');
    if (target && !target.isStage) add(target, 'sprite');
    return out;
  }

  function snapshot() {
    const blocks = {};
    for (const block of ws().getAllBlocks(false)) {
      if (block.isShadow() || (block.isInsertionMarker && block.isInsertionMarker())) continue;
      blocks[block.id] = describeBlock(block);
    }
    const tops = ws().getTopBlocks(false).filter((b) => blocks[b.id]).map((b) => b.id);
    const target = vm.editingTarget;
    const targets = vm.runtime.targets.filter((t) => t.isOriginal);
    return {
      version,
      target: target ? target.getName() : null,
      isStage: Boolean(target && target.isStage),
      targets: [...targets.filter((t) => t.isStage), ...targets.filter((t) => !t.isStage)]
        .map((t) => t.getName()),
      variables: dataInScope(''),
      lists: dataInScope('list'),
      tops,
      blocks,
    };
  }

  // ---- placing ---------------------------------------------------------------------------
  function overlaps(a, b) {
    return a.left < b.right + MARGIN && b.left < a.right + MARGIN &&
      a.top < b.bottom + MARGIN && b.top < a.bottom + MARGIN;
  }

  /** A workspace point where a stack of size w x h touches no other script. */
  function freeSpot(block) {
    const own = B.rect(block);
    const w = own.right - own.left;
    const h = own.bottom - own.top;
    const others = ws().getTopBlocks(false).filter((b) => b !== block)
      .map((b) => B.rect(b));
    const bottom = others.reduce((m, r) => Math.max(m, r.bottom), 0);
    for (let y = 48; y <= bottom + MARGIN; y += 24) {
      for (const x of COLUMNS) {
        const rect = { left: x, right: x + w, top: y, bottom: y + h };
        if (!others.some((r) => overlaps(rect, r))) return { x, y };
      }
    }
    return { x: COLUMNS[0], y: bottom + 2 * MARGIN };
  }

  /** Move a top block to a free spot and scroll the canvas so that it is in view. */
  async function placeFree(block) {
    await window.studioEdition.finishRenders(SB);
    const spot = freeSpot(block);
    B.moveTo(SB, block, spot.x, spot.y);
    if (ws().scrollBoundsIntoView) ws().scrollBoundsIntoView(block.getBoundingRectangle());
  }

  // ---- the APIs --------------------------------------------------------------------------
  function getBlock(id, role) {
    const block = ws().getBlockById(id);
    if (!block || block.isShadow()) fail(`${role} is no longer in the workspace; observe again`);
    return block;
  }

  async function selectTarget(target) {
    await H.selectTarget(target);
    scrollTopLeft();
    return { target: target.getName() };
  }

  function scrollTopLeft() {
    const w = ws();
    const tops = w.getTopBlocks(false);
    if (!tops.length) {
      B.scrollTo(w, 0, 0);
      return;
    }
    const box = B.contentBox(w);
    B.scrollTo(w, -box.left * w.scale + 20, -box.top * w.scale + 20);
  }

  function selectSprite(args) {
    const sprites = vm.runtime.targets.filter((t) => t.isOriginal && !t.isStage);
    const target = sprites.find((t) => t.getName() === args.name);
    if (!target) {
      fail(`no sprite named ${JSON.stringify(args.name)}; sprites: ` +
        (sprites.map((t) => t.getName()).join(', ') || 'none'));
    }
    return selectTarget(target);
  }

  function lookupData(name, type) {
    return ws().getVariableMap().getVariablesOfType(type).find((v) => v.name === name) || null;
  }

  function createData(name, type, local) {
    return B.createVariable(SB, ws(), name, type, local);
  }

  async function addData(args, type) {
    const what = type === 'list' ? 'list' : 'variable';
    const name = String(args.name).trim();
    if (!name) fail(`a ${what} needs a name`);
    const target = vm.editingTarget;
    const local = args.scope === 'sprite' && !target.isStage;
    const clash = vm.runtime.targets.filter((t) => t.isOriginal).find((t) =>
      Object.values(t.variables).some((v) => v.name === name && v.type === type) &&
      (t.isStage || t === target || !local));
    if (clash) {
      fail(`a ${what} named ${JSON.stringify(name)} already exists ` +
        (clash.isStage ? '(for all sprites)' : `(for ${clash.getName()} only)`));
    }
    const model = createData(name, type, local);
    await settle();
    const toolbox = ws().getToolbox();
    if (toolbox && toolbox.refreshSelection) toolbox.refreshSelection();
    const note = args.scope === 'sprite' && target.isStage ?
      'the Stage has no sprite-only data: created for all sprites' : undefined;
    return { variableId: model.getId(), scope: local ? 'sprite' : 'all', note };
  }

  function dataBlockXml(type, fieldName, model) {
    const xml = document.implementation.createDocument(null, 'xml', null);
    const block = xml.createElement('block');
    block.setAttribute('type', type);
    const field = xml.createElement('field');
    field.setAttribute('name', fieldName);
    field.setAttribute('id', model.getId());
    field.setAttribute('variabletype', model.type);
    field.textContent = model.name;
    block.appendChild(field);
    return block;
  }

  function templateFor(args) {
    const type = args.blockType;
    const creation = args.creation || {};
    if (type === 'data_variable' || type === 'data_listcontents') {
      const list = type === 'data_listcontents';
      const name = list ? creation.listName : creation.variableName;
      const model = lookupData(name, list ? 'list' : '');
      if (!model) {
        fail(`no ${list ? 'list' : 'variable'} named ${JSON.stringify(name)} in scope; ` +
          `create it first with ${list ? 'add_list' : 'add_variable'}`);
      }
      return dataBlockXml(type, list ? 'LIST' : 'VARIABLE', model);
    }
    const flyout = ws().getFlyout();
    const source = flyout.getWorkspace().getTopBlocks(false).find((b) => b.type === type);
    if (source) return SB.Xml.blockToDom(source, true);
    if (/^data_.*list/.test(type) && !ws().getVariableMap().getVariablesOfType('list').length) {
      fail(`${type} needs a list; create one first with add_list`);
    }
    if (/^data_/.test(type) && !ws().getVariableMap().getVariablesOfType('').length) {
      fail(`${type} needs a variable; create one first with add_variable`);
    }
    const where = vm.editingTarget.isStage ? 'the Stage' : `sprite ${vm.editingTarget.getName()}`;
    return fail(`block ${type} is not available for ${where}`);
  }

  async function addBlock(args) {
    const dom = templateFor(args);
    const block = SB.Xml.domToBlock(dom, ws());
    await placeFree(block);
    await settle();
    if (!await waitFor(() => Boolean(vm.editingTarget.blocks.getBlock(block.id)), 2000)) {
      fail('the VM did not receive the new block');
    }
    return { blockId: block.id };
  }

  function inputNames(block, kind) {
    const type = B.inputType(SB, kind);
    return block.inputList.filter((i) => i.name && i.connection && i.type === type)
      .map((i) => i.name);
  }

  function namedInput(block, name, kind, label) {
    const names = inputNames(block, kind);
    if (!names.includes(name)) {
      fail(`${label} (${block.type}) has no ${kind} input ${JSON.stringify(name)}; ` +
        `its ${kind} inputs: ${names.join(', ') || 'none'}`);
    }
    return block.getInput(name);
  }

  function checkConnectable(a, b, what) {
    if (!B.canConnect(SB, ws(), a, b)) fail(`${what}: the blocks do not fit together`);
  }

  function needPrevious(block, label) {
    if (!block.previousConnection) {
      fail(`${label} (${block.type}) cannot go below another block` +
        (block.outputConnection ? '; it is a reporter: use value_into' : ''));
    }
  }

  function connectStackAfter(source, target) {
    needPrevious(source, 'the source block');
    if (!target.nextConnection) fail(`the target block (${target.type}) has no bottom to stack under`);
    checkConnectable(target.nextConnection, source.previousConnection, 'stack_after');
    source.unplug(false);
    target.nextConnection.connect(source.previousConnection);
  }

  function connectStackBefore(source, target) {
    if (!target.previousConnection) fail(`the target block (${target.type}) is a hat: nothing goes above it`);
    const last = lastInStack(source);
    if (!last.nextConnection) fail(`the source stack ends with ${last.type}, which has no bottom`);
    const parent = target.previousConnection.targetConnection;
    if (parent) {
      needPrevious(source, 'the source block');
      checkConnectable(parent, source.previousConnection, 'stack_before');
      source.unplug(false);
      parent.connect(source.previousConnection);
      return;
    }
    checkConnectable(last.nextConnection, target.previousConnection, 'stack_before');
    source.unplug(false);
    const where = target.getRelativeToSurfaceXY();
    last.nextConnection.connect(target.previousConnection);
    const now = target.getRelativeToSurfaceXY();
    source.moveBy(where.x - now.x, where.y - now.y);
  }

  function connectStatementInto(source, target, inputName) {
    const input = namedInput(target, inputName, 'statement', 'the target block');
    needPrevious(source, 'the source block');
    checkConnectable(input.connection, source.previousConnection, 'statement_into');
    source.unplug(false);
    input.connection.connect(source.previousConnection);
  }

  function connectValueInto(source, target, inputName) {
    const input = namedInput(target, inputName, 'value', 'the target block');
    if (!source.outputConnection) fail(`the source block (${source.type}) is not a reporter; only reporters go into inputs`);
    if (!B.canConnect(SB, ws(), source.outputConnection, input.connection)) {
      const boolean = (B.check(input.connection) || []).includes('Boolean');
      fail(boolean ? `input ${inputName} takes only a boolean (hexagonal) block` :
        `${source.type} does not fit input ${inputName}`);
    }
    source.unplug(false);
    input.connection.connect(source.outputConnection);
  }

  function connectWrap(source, target, inputName) {
    const name = inputName || inputNames(source, 'statement')[0];
    if (!name) fail(`the source block (${source.type}) has no C-slot to wrap with`);
    const input = namedInput(source, name, 'statement', 'the source block');
    if (input.connection.targetBlock()) fail(`input ${name} of the source block is not empty`);
    needPrevious(target, 'the target block');
    needPrevious(source, 'the source block');
    const parent = target.previousConnection.targetConnection;
    const where = target.getRelativeToSurfaceXY();
    source.unplug(true);
    target.unplug(false);
    if (parent) parent.connect(source.previousConnection);
    else B.moveTo(SB, source, where.x, where.y);
    input.connection.connect(target.previousConnection);
  }

  function isInside(block, container) {
    for (let b = block; b; b = b.getParent()) if (b === container) return true;
    return false;
  }

  async function connectBlocks(args) {
    const source = getBlock(args.sourceId, 'the source block');
    const target = getBlock(args.targetId, 'the target block');
    const kind = args.placement.kind;
    if (source === target) fail('a block cannot be connected to itself');
    if (isInside(target, source)) {
      fail('the target block is part of the source block\'s own stack or inputs; ' +
        'detach it first');
    }
    if (kind === 'stack_after') connectStackAfter(source, target);
    else if (kind === 'stack_before') connectStackBefore(source, target);
    else if (kind === 'statement_into') connectStatementInto(source, target, args.placement.inputName);
    else if (kind === 'value_into') connectValueInto(source, target, args.placement.inputName);
    else if (kind === 'wrap') connectWrap(source, target, args.placement.inputName);
    else fail(`unknown placement kind ${kind}`);
    await settle();
    return { blockId: source.id };
  }

  async function detachBlocks(args) {
    const block = getBlock(args.blockId, 'the block');
    if (!block.getParent()) fail('the block is already the top of its own script');
    block.unplug(false);
    await placeFree(block);
    await settle();
    return { blockId: block.id };
  }

  async function deleteBlock(args) {
    const block = getBlock(args.blockId, 'the block');
    block.dispose(true, false);
    await settle();
    return { blockId: args.blockId };
  }

  // ---- fields ----------------------------------------------------------------------------
  function setVariableField(field, value, label) {
    const type = variableType(field);
    const name = value === null || value === undefined ? '' : String(value).trim();
    if (!name) fail(`${label}: give the name of a ${type === 'list' ? 'list' : type || 'variable'}`);
    let model = lookupData(name, type) || ws().getVariableMap().getVariableById(name);
    if (!model && type === SB.BROADCAST_MESSAGE_VARIABLE_TYPE) {
      model = createData(name, type, false);
    }
    if (!model || model.type !== type) {
      const names = ws().getVariableMap().getVariablesOfType(type).map((v) => v.name);
      const what = type === 'list' ? 'list' : 'variable';
      fail(`${label}: no ${what} named ${JSON.stringify(name)} in scope; ` +
        `choices: ${JSON.stringify(names)}` +
        (type === '' || type === 'list' ? ` (create one with add_${what})` : ''));
    }
    field.setValue(model.getId());
    return model.name;
  }

  function setDropdownField(field, value, label) {
    const options = field.getOptions(false).filter((o) => !HIDDEN_OPTIONS.has(o[1]));
    const text = String(value);
    const match = options.find((o) => o[1] === text) ||
      options.find((o) => optionText(o) === text) ||
      options.find((o) => String(o[1]).toLowerCase() === text.toLowerCase()) ||
      options.find((o) => optionText(o).toLowerCase() === text.toLowerCase());
    if (!match) fail(`${label}: ${JSON.stringify(text)} is not a choice; choices: ${JSON.stringify(options.map((o) => o[1]))}`);
    field.setValue(match[1]);
    return match[1];
  }

  function setTextField(field, value, owner, label) {
    let text = typeof value === 'string' ? value : JSON.stringify(value);
    if (value === null || value === undefined) text = '';
    if (SHADOW_NUMBERS.has(owner.type)) {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) fail(`${label}: ${JSON.stringify(text)} is not a number`);
      const whole = owner.type === 'math_integer' || owner.type === 'math_whole_number';
      if (whole && !Number.isInteger(number)) fail(`${label}: takes a whole number`);
      const positive = owner.type === 'math_whole_number' || owner.type === 'math_positive_number';
      if (positive && number < 0) fail(`${label}: takes a number of 0 or more`);
      text = String(number);
    }
    field.setValue(text);
    return field.getValue();
  }

  function setField(field, owner, value, label) {
    if (isVariableField(field)) return setVariableField(field, value, label);
    if (field instanceof SB.FieldDropdown) return setDropdownField(field, value, label);
    return setTextField(field, value, owner, label);
  }

  async function setBlockField(args) {
    const block = getBlock(args.blockId, 'the block');
    const name = args.fieldName;
    const field = namedFields(block).find((f) => f.name === name);
    let stored;
    if (field) {
      stored = setField(field, block, args.value, `field ${name}`);
    } else {
      const input = block.getInput(name);
      if (!input || !input.connection || input.type !== B.inputType(SB, 'value')) {
        fail(`${block.type} has no field or input ${JSON.stringify(name)}; fields: ` +
          `${namedFields(block).map((f) => f.name).join(', ') || 'none'}; inputs: ` +
          `${inputNames(block, 'value').join(', ') || 'none'}`);
      }
      const child = input.connection.targetBlock();
      if (child && !child.isShadow()) {
        fail(`input ${name} holds a ${child.type} block; set that block's fields, or detach ` +
          'or delete it to type a value');
      }
      const inner = child ? namedFields(child)[0] : null;
      if (!inner) fail(`input ${name} has no value of its own; connect a block into it with value_into`);
      stored = setField(inner, child, args.value, `input ${name}`);
    }
    await settle();
    return { blockId: block.id, value: stored };
  }

  // ---- entry points ----------------------------------------------------------------------
  const APIS = {
    select_sprite: selectSprite,
    select_stage: () => selectTarget(vm.runtime.getTargetForStage()),
    add_variable: (args) => addData(args, ''),
    add_list: (args) => addData(args, 'list'),
    add_block: addBlock,
    connect_blocks: connectBlocks,
    detach_blocks: detachBlocks,
    set_block_field: setBlockField,
    delete_block: deleteBlock,
  };

  async function run(request) {
    const indexed = request.expectVersion !== undefined && request.expectVersion !== null;
    if (indexed) await settle(); // changes still queued in Blockly count
    if (indexed && request.expectVersion !== version) {
      return { ok: false, stale: true,
        error: 'the program changed since your last observation; observe again' };
    }
    const fn = APIS[request.api];
    if (!fn) return { ok: false, error: `unknown api ${request.api}` };
    SB.Events.setGroup(true);
    try {
      const detail = await fn(request.args || {});
      return { ok: true, detail: detail || {} };
    } catch (err) {
      if (err instanceof ActionFailure) return { ok: false, error: err.message };
      return { ok: false, internal: true, error: `the editor failed: ${err && err.message}` };
    } finally {
      SB.Events.setGroup(false);
    }
  }

  async function layout() {
    const sprite = vm.runtime.targets.find((t) => t.isOriginal && !t.isStage);
    const result = await selectTarget(sprite || vm.runtime.getTargetForStage());
    const category = sprite ? 'motion' : 'events';
    B.selectCategory(ws(), category);
    H.closeAlerts();
    await settle();
    scrollTopLeft();
    return { ...result, category };
  }

  window.studioComposite = {
    snapshot: async () => { await settle(); return snapshot(); },
    run,
    layout,
    version: () => version,
  };
}());
