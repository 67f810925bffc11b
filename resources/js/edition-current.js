/*
 * The current editor edition's page adapter (@scratch/scratch-gui-standalone 15.x, Blockly 12).
 * Every edition's adapter defines the same `window.studioEdition`; the editor bridge, the
 * evaluation page and the shared page helpers call it instead of asking which edition they run
 * on (studio/services/editions.py lists the editions):
 *
 *   name                      'current' | 'classic'
 *   mount(root)               renders the editor in `root`; {vm, store, state} (state.store is
 *                             the GUI's redux store)
 *   reactKey                  prefix of the property a DOM element's React fiber hides under
 *   categorySelector          a palette category button (present once the palette is drawn)
 *   blockSelector             a block's own element (its SVG group; shadows included)
 *   isShadowEl(el)            whether such an element is a shadow block's
 *   finishRenders(SB)         a promise: Blockly has drawn what it queued
 *   flyoutBlocks(opcode)      the palette's top block elements of `opcode`, top to bottom
 *   webpackRequire()          the bundle's webpack require (its module table is `.m`; an
 *                             evaluation page's bundle runs no entry: scratch-classes.js)
 *   restorePublished(ws, state, settle)  restores a published drag item's workspace_state
 *                             (scale, scrollX/scrollY, tx/ty); `settle` awaits Blockly's renders
 *   blockly                   the workspace operations whose Blockly API differs:
 *     rect(block)                        {left, top, right, bottom} in workspace units
 *     moveTo(SB, block, x, y)            move a top block to a workspace point
 *     inputType(SB, 'statement'|'value') the input type constant of that kind
 *     check(connection)                  its type check (array) or null
 *     canConnect(SB, ws, a, b)           whether connection a may connect to b
 *     createVariable(SB, ws, name, type, local)  a new variable model (events fired)
 *     categories(ws)                     the palette's categories [{id, name}]
 *     selectCategory(ws, id)             select (and scroll to) a category; false if none
 *     selectedCategory(ws)               the selected category's id, or null
 *     contentBox(ws)                     the blocks' bounding box {left, top} (workspace units)
 *     scrollTo(ws, x, y)                 put the canvas's translation at (x, y), as Blockly
 *                                        12's ws.scroll(x, y) does
 *     scrollFlyout(ws, y)                scroll the palette so that its workspace's scrollY
 *                                        is y (a category's scroll animation under way stops)
 *   drag                      what drag trials and region computation (drag-trials.js) need:
 *     toScreen(SB, ws, x, y)             a workspace point of `ws` on the screen {x, y}
 *     connectionXY(c)                    a connection's workspace point {x, y}
 *     offsetInBlock(c)                   its offset in its block {x, y}, or null
 *     undoCount(ws)                      how many events the undo stack holds
 *     radii(SB)                          {snap, connecting, preference} in workspace units
 *     snappable(SB, ws, a, b, palette)   whether dragging connection `a` may snap to `b` at
 *                                        some distance (`palette`: a is on the palette's
 *                                        block, whose copy is what is dragged)
 *     paletteDragPoint(SB, ws, fw, block, c)  where the drag of a copy of palette block
 *                                        `block` measures its connection `c` (screen {x, y})
 *     emptyMouth(SB, ws)                 height of an empty C-block mouth (workspace units)
 *   elements                  what primitive mode's element list (elements.js) reads off the page:
 *     canvasBlocks                       selector of the code area's block elements (shadows
 *                                        included)
 *     fields                             selector of a block's editable field (number, text,
 *                                        dropdown)
 *     isDropdown(field)                  whether that field opens a menu
 *     blockType(el)                      the opcode of a block element (palette or code area)
 *     categoryId(el), categorySelected(el)  a category menu entry's id, and whether it is open
 *     zooms                              selector of each zoom button
 *     zoomKind(el)                       'in' | 'out' | 'reset'
 *     spriteName(el)                     the text of a sprite list item (its name)
 *     animating()                        whether an editor animation that covers or moves
 *                                        elements, and that no transform shows, still runs
 */
(function () {
  'use strict';
  const ASSET_PATH = 'studio-assets/';
  const PROJECT_PATH = 'studio-projects/';
  const FLYOUT_BLOCKS = '.blocklyFlyout .blocklyBlockCanvas > .blocklyDraggable';

  /** Format a react-intl message descriptor with its default (English) text. */
  function translate(message, values) {
    const text = (message && message.defaultMessage) || '';
    return text.replace(/\{(\w+)\}/g, (whole, key) =>
      (values && key in values ? String(values[key]) : whole));
  }

  // Library thumbnails live on Scratch's servers, which the studio never contacts.
  const OFFLINE_THUMBNAIL = 'data:image/svg+xml,' + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80">' +
    '<rect width="80" height="80" rx="8" fill="#e9eef2"/>' +
    '<text x="40" y="46" font-family="sans-serif" font-size="12" fill="#8a98a8" ' +
    'text-anchor="middle">offline</text></svg>');

  function localUrl(path) {
    return new URL(path, window.location.href).href;
  }

  /** The editor's storage: built-in default project, web stores on this server only. */
  function makeStorage() {
    const scratchStorage = new GUI.ScratchStorage();
    const types = scratchStorage.AssetType;
    let translator = translate;
    const cacheDefaultProject = () => {
      GUI.buildDefaultProject(translator).forEach((asset) => scratchStorage.builtinHelper._store(
        types[asset.assetType], scratchStorage.DataFormat[asset.dataFormat], asset.data, asset.id));
    };
    const assetUrl = (asset) => localUrl(`${ASSET_PATH}${asset.assetId}.${asset.dataFormat}`);
    cacheDefaultProject();
    scratchStorage.addWebStore([types.Project], (asset) => localUrl(PROJECT_PATH + asset.assetId));
    scratchStorage.addWebStore([types.ImageVector, types.ImageBitmap, types.Sound], assetUrl);
    return {
      scratchStorage,
      setTranslatorFunction(fn) {
        translator = fn;
        cacheDefaultProject();
      },
      getLibraryAssetUrl: () => OFFLINE_THUMBNAIL,
      saveProject: () => Promise.reject(new Error('the studio saves projects itself')),
      setProjectHost() {},
      setProjectToken() {},
      setProjectMetadata() {},
      setAssetHost() {},
      setBackpackHost() {},
    };
  }

  function mount(root) {
    GUI.setAppElement(root);
    const state = new GUI.EditorState({ locale: 'en' }, () => ({ storage: makeStorage() }));
    GUI.createStandaloneRoot(state, root).render({
      projectId: '0',
      canSave: false,
      canCreateNew: false, // true makes the GUI try to create the project on a server
      canShare: false,
      canEditTitle: true,
      enableCommunity: false,
      hasCloudPermission: false,
      showComingSoon: false,
      backpackVisible: false,
    });
    return { vm: state.store.getState().scratchGui.vm, store: state.store, state };
  }

  function webpackRequire() {
    let req = null;
    self.webpackChunkGUI = self.webpackChunkGUI || [];
    self.webpackChunkGUI.push([[Symbol('studio-probe')], {}, (r) => { req = r; }]);
    if (!req) throw new Error('the Scratch GUI bundle exposes no webpack runtime');
    return req;
  }

  window.studioEdition = {
    name: 'current',
    mount,
    reactKey: '__reactFiber$',
    categorySelector: '.blocklyToolboxCategory',
    blockSelector: '.blocklyBlock',
    isShadowEl: (el) => el.classList.contains('blocklyShadow'),
    finishRenders: (SB) => SB.renderManagement.finishQueuedRenders(),
    flyoutBlocks: (opcode) => [...document.querySelectorAll(FLYOUT_BLOCKS)]
      .filter((el) => el.classList.contains(opcode)),
    webpackRequire,
    // The published runner never ran on this edition; the studio's own published-style items
    // were made with this restore: zoom first, then scroll; where the scroll cannot reach,
    // translate the canvas to (tx, ty).
    restorePublished: async (w, state, settle) => {
      if (state.scale && w.scale !== state.scale) w.setScale(state.scale);
      await settle();
      const sx = Number(state.scrollX), sy = Number(state.scrollY);
      w.scroll(sx, sy);
      if (Math.abs(w.scrollX - sx) > 0.5 || Math.abs(w.scrollY - sy) > 0.5) {
        const m = w.getMetrics();
        w.scrollX = sx;
        w.scrollY = sy;
        const tx = typeof state.tx === 'number' ? state.tx : sx + m.absoluteLeft;
        const ty = typeof state.ty === 'number' ? state.ty : sy + m.absoluteTop;
        w.translate(tx, ty);
      }
      await settle();
    },
    blockly: {
      rect: (block) => {
        const r = block.getBoundingRectangle();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      },
      moveTo: (SB, block, x, y) => block.moveTo(new SB.utils.Coordinate(x, y)),
      inputType: (SB, kind) => (kind === 'statement' ?
        SB.inputs.inputTypes.STATEMENT : SB.inputs.inputTypes.VALUE),
      check: (connection) => connection.getCheck(),
      canConnect: (SB, ws, a, b) =>
        ws.connectionChecker.canConnectWithReason(a, b, false) === SB.Connection.CAN_CONNECT,
      createVariable: (SB, ws, name, type, local) => {
        const Model = SB.registry.getClassFromOptions(SB.registry.Type.VARIABLE_MODEL, ws.options, true);
        const model = new Model(ws, name, type, undefined, local, false);
        ws.getVariableMap().addVariable(model);
        SB.Events.fire(new (SB.Events.get(SB.Events.VAR_CREATE))(model));
        return model;
      },
      categories: (ws) => {
        const toolbox = ws.getToolbox();
        const items = (toolbox && toolbox.getToolboxItems && toolbox.getToolboxItems()) || [];
        return items.map((c) => ({ id: String((c.getId && c.getId()) || ''),
          name: String((c.getName && c.getName()) || '') }));
      },
      selectCategory: (ws, id) => {
        const toolbox = ws.getToolbox();
        const item = toolbox && toolbox.getToolboxItemById && toolbox.getToolboxItemById(id);
        if (!item) return false;
        if (toolbox.getSelectedItem() !== item) toolbox.setSelectedItem(item);
        return true;
      },
      selectedCategory: (ws) => {
        const toolbox = ws.getToolbox();
        const item = toolbox && toolbox.getSelectedItem && toolbox.getSelectedItem();
        return item && item.getId ? item.getId() : null;
      },
      contentBox: (ws) => {
        const box = ws.getBlocksBoundingBox();
        return { left: box.left, top: box.top };
      },
      scrollTo: (ws, x, y) => ws.scroll(x, y),
      scrollFlyout: (ws, y) => {
        const flyout = ws.getFlyout();
        flyout.scrollTarget = undefined; // a category's scroll animation stops (see classic)
        if (flyout.scrollbar) flyout.scrollbar.set(-y);
        else flyout.getWorkspace().scroll(flyout.getWorkspace().scrollX, y);
      },
    },
    drag: {
      toScreen: (SB, ws, x, y) => {
        const p = SB.utils.svgMath.wsToScreenCoordinates(ws, new SB.utils.Coordinate(x, y));
        return { x: p.x, y: p.y };
      },
      connectionXY: (c) => ({ x: c.x, y: c.y }),
      offsetInBlock: (c) => (c.offsetInBlock ? { x: c.offsetInBlock.x, y: c.offsetInBlock.y } : null),
      undoCount: (ws) => ws.getUndoStack().length,
      radii: (SB) => ({ snap: SB.config.snapRadius,
        connecting: SB.config.connectingSnapRadius || SB.config.snapRadius,
        preference: SB.config.currentConnectionPreference || 0 }),
      // A palette block's connections are on the palette's workspace, which the checker's
      // safety check refuses; the copy really dragged lives on the code area, so for it the
      // same checks run without that one (opposite types, type checks, drag checks).
      snappable: (SB, ws, a, b, palette) => {
        const checker = ws.connectionChecker;
        try {
          if (!palette) return checker.canConnect(a, b, true, Infinity);
          return ({ 1: 2, 2: 1, 3: 4, 4: 3 })[a.type] === b.type && checker.doTypeChecks(a, b) &&
            checker.doDragChecks(a, b, Infinity);
        } catch (e) {
          return false;
        }
      },
      // The copy is made with its top left corner where the palette showed the block; its
      // connections are not placed yet when its drag starts, so the drag measures every one of
      // them from that corner (seen in the editor: the candidate search counts them there).
      paletteDragPoint: (SB, ws, fw, block) => {
        const xy = block.getRelativeToSurfaceXY();
        const p = SB.utils.svgMath.wsToScreenCoordinates(fw, new SB.utils.Coordinate(xy.x, xy.y));
        return { x: p.x, y: p.y };
      },
      emptyMouth: (SB, ws) => ws.getRenderer().getConstants().EMPTY_STATEMENT_INPUT_HEIGHT || 0,
    },
    elements: { // Blockly 12 puts the block type first in a block group's classes
      canvasBlocks: 'g.blocklyWorkspace > g.blocklyBlockCanvas .blocklyBlock[data-id]',
      fields: '.blocklyEditableField',
      isDropdown: (field) => field.classList.contains('blocklyDropdownField'),
      blockType: (el) => (el.getAttribute('class') || '').split(/\s+/)[0] || 'block',
      categoryId: (el) => el.id,
      categorySelected: (el) => el.classList.contains('blocklyToolboxSelected'),
      zooms: '.blocklyZoom',
      zoomKind: (el) => {
        const c = el.getAttribute('class') || '';
        return c.includes('blocklyZoomIn') ? 'in' : c.includes('blocklyZoomOut') ? 'out' : 'reset';
      },
      spriteName: (el) => el.innerText,
      animating: () => false,
    },
  };
}());
