/*
 * The classic editor edition's page adapter: scratch-gui 5.x (scratch-blocks 1.x, React 16),
 * mounted as the published ScratchWorld benchmark's playground page mounts it: the GUI wrapped
 * in AppStateHOC (5.1.89 exports no HashParserHOC; the playground's hash parser only sets the
 * project id from the URL's hash, the default project '0' for an empty one: passed here as the
 * projectId prop), rendered with canEditTitle,
 * backpackVisible, showComingSoon, backpackHost null and canSave={false}. The project and asset
 * hosts point at this page's own server (nothing leaves 127.0.0.1; the screen is the same).
 * Defines the same `window.studioEdition` as edition-current.js (see there for each member).
 */
(function () {
  'use strict';
  const OFFLINE_HOST = new URL('/classic-offline', window.location.href).href;

  /** The redux store AppStateHOC made: a component holding it, or the Provider's prop. */
  function findStore(root) {
    const container = root._reactRootContainer;
    const start = container && (container._internalRoot || container).current;
    const queue = start ? [start] : [];
    while (queue.length) {
      const fiber = queue.shift();
      const inst = fiber.stateNode;
      if (inst && inst.store && typeof inst.store.getState === 'function') return inst.store;
      const props = fiber.memoizedProps;
      if (props && props.store && typeof props.store.getState === 'function') return props.store;
      if (fiber.child) queue.push(fiber.child);
      if (fiber.sibling) queue.push(fiber.sibling);
    }
    throw new Error('the classic editor mounted without a redux store');
  }

  function mount(root) {
    GUI.setAppElement(root);
    const WrappedGui = GUI.AppStateHOC(GUI.default);
    ReactDOM.render(React.createElement(WrappedGui, {
      projectId: '0',
      canEditTitle: true,
      backpackVisible: true,
      showComingSoon: true,
      backpackHost: null,
      canSave: false,
      projectHost: OFFLINE_HOST,
      assetHost: OFFLINE_HOST,
    }), root);
    const store = findStore(root);
    return { vm: store.getState().scratchGui.vm, store, state: { store } };
  }

  function webpackRequire() {
    let req = null;
    self.webpackChunkGUI = self.webpackChunkGUI || [];
    self.webpackChunkGUI.push([[Symbol('studio-probe')], {}, (r) => { req = r; }]);
    if (!req) throw new Error('the classic Scratch GUI bundle exposes no webpack runtime');
    return req;
  }

  function flyoutWorkspace() {
    const ws = window.workspace;
    const flyout = ws && ws.getFlyout();
    return flyout ? flyout.getWorkspace() : null;
  }

  window.studioEdition = {
    name: 'classic',
    mount,
    reactKey: '__reactInternalInstance$',
    categorySelector: '.scratchCategoryMenuItem',
    blockSelector: 'g[data-shapes]', // scratch-blocks 1.x marks block groups with their shape
    // shadows are the groups that are never draggable (their block, when found, says so)
    isShadowEl: (el) => {
      const id = el.getAttribute('data-id');
      const ws = window.workspace;
      const fw = flyoutWorkspace();
      const block = (ws && ws.getBlockById(id)) || (fw && fw.getBlockById(id));
      return block ? block.isShadow() : !el.classList.contains('blocklyDraggable');
    },
    finishRenders: () => Promise.resolve(), // scratch-blocks 1.x draws synchronously
    flyoutBlocks: (opcode) => {
      const fw = flyoutWorkspace();
      if (!fw) return [];
      return fw.getTopBlocks(true).filter((b) => b.type === opcode).map((b) => b.getSvgRoot());
    },
    webpackRequire,
    // As the published drag runner's set_workspace_state (SCRATCHWORLD_API.md section 11): zoom
    // to the scale, set the scrollbars to (scrollX, scrollY) (else translate the canvas to
    // (-scrollX, -scrollY), else scroll), then, whatever that reached, force the block and
    // bubble canvases' transform to translate(-scrollX*scale, -scrollY*scale) scale(scale) and
    // store scrollX/scrollY on the workspace.
    restorePublished: async (w, state, settle) => {
      const num = (v) => typeof v === 'number' && Number.isFinite(v);
      const scale = num(state.scale) ? state.scale : w.scale;
      w.setScale(scale);
      await settle();
      const sx = num(state.scrollX) ? state.scrollX : (num(state.tx) ? -state.tx / scale : 0);
      const sy = num(state.scrollY) ? state.scrollY : (num(state.ty) ? -state.ty / scale : 0);
      if (w.scrollbar && typeof w.scrollbar.set === 'function') {
        w.scrollbar.set(sx, sy);
      } else if (typeof w.translate === 'function') {
        w.translate(-sx, -sy);
        w.scrollX = sx;
        w.scrollY = sy;
      } else {
        w.scroll(sx - w.scrollX, sy - w.scrollY);
      }
      const transform = `translate(${-sx * scale},${-sy * scale}) scale(${scale})`;
      for (const canvas of [w.getCanvas(), w.getBubbleCanvas()]) {
        if (canvas) canvas.setAttribute('transform', transform);
      }
      w.scrollX = sx;
      w.scrollY = sy;
      await settle();
    },
    blockly: { // scratch-blocks 1.x (Closure's goog.math types, the toolbox's category menu)
      rect: (block) => {
        const r = block.getBoundingRectangle();
        return { left: r.topLeft.x, top: r.topLeft.y, right: r.bottomRight.x, bottom: r.bottomRight.y };
      },
      moveTo: (SB, block, x, y) => {
        const xy = block.getRelativeToSurfaceXY();
        block.moveBy(x - xy.x, y - xy.y);
      },
      inputType: (SB, kind) => (kind === 'statement' ? SB.NEXT_STATEMENT : SB.INPUT_VALUE),
      check: (connection) => connection.check_ || null,
      canConnect: (SB, ws, a, b) => a.canConnectWithReason_(b) === SB.Connection.CAN_CONNECT,
      createVariable: (SB, ws, name, type, local) =>
        ws.createVariable(name, type, undefined, local, false),
      categories: (ws) => {
        const toolbox = ws.getToolbox();
        const menu = toolbox && toolbox.categoryMenu_;
        return ((menu && menu.categories_) || []).map((c) => ({ id: String(c.id_ || ''),
          name: String(c.name_ || '') }));
      },
      selectCategory: (ws, id) => {
        const toolbox = ws.getToolbox();
        const menu = toolbox && toolbox.categoryMenu_;
        if (!menu || !(menu.categories_ || []).some((c) => c.id_ === id)) return false;
        toolbox.setSelectedCategoryById(id);
        return true;
      },
      selectedCategory: (ws) => {
        const toolbox = ws.getToolbox();
        return toolbox && toolbox.selectedItem_ ? toolbox.getSelectedCategoryId() : null;
      },
      contentBox: (ws) => {
        const box = ws.getBlocksBoundingBox();
        return { left: box.x, top: box.y };
      },
      // ws.scroll only works mid-drag here; the scrollbars put scrollX at -value - contentLeft
      scrollTo: (ws, x, y) => {
        const m = ws.getMetrics();
        if (ws.scrollbar) ws.scrollbar.set(-x - m.contentLeft, -y - m.contentTop);
      },
      // the palette's own scrollbar (scrollbar_ here) puts its workspace's scrollY at -value
      // the scrollbar clamps to the content's height, which a category click's scroll may
      // have passed: then the palette's workspace is put there as its setMetrics_ would
      // a category's scroll animation under way is stopped first (each of its frames steps
      // from where the palette is: it would carry on from y to the category)
      scrollFlyout: (ws, y) => {
        const flyout = ws.getFlyout();
        flyout.scrollTarget = null;
        flyout.scrollbar_.set(-y);
        const fw = flyout.getWorkspace();
        if (Math.abs(fw.scrollY - y) > 0.01) {
          const m = flyout.getMetrics_();
          fw.scrollY = y;
          fw.translate(fw.scrollX + m.absoluteLeft, y + m.absoluteTop);
        }
      },
    },
    drag: { // scratch-blocks 1.x; see edition-current.js for each member
      // from the canvas's own transform: the published restore forces it, whatever the
      // workspace's scroll says
      toScreen: (SB, ws, x, y) => {
        const m = ws.getCanvas().getScreenCTM();
        return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
      },
      connectionXY: (c) => ({ x: c.x_, y: c.y_ }),
      offsetInBlock: (c) => (c.offsetInBlock_ ? { x: c.offsetInBlock_.x, y: c.offsetInBlock_.y } : null),
      undoCount: (ws) => (ws.undoStack_ || []).length,
      radii: (SB) => ({ snap: SB.SNAP_RADIUS, connecting: SB.CONNECTING_SNAP_RADIUS || SB.SNAP_RADIUS,
        preference: SB.CURRENT_CONNECTION_PREFERENCE || 0 }),
      // the drag's own check (isConnectionAllowed); for a palette block, as made by its copy
      // on the code area: the same block seen as living on the target's workspace
      snappable: (SB, ws, a, b, palette) => {
        try {
          if (!palette) return a.isConnectionAllowed(b);
          const block = Object.create(a.getSourceBlock(), { workspace: { value: b.getSourceBlock().workspace } });
          return Object.create(a, { sourceBlock_: { value: block } }).isConnectionAllowed(b);
        } catch (e) {
          return false;
        }
      },
      // the copy is placed with its corner where the palette showed the block, at the code
      // area's scale, and its connections are placed with it
      paletteDragPoint: (SB, ws, fw, block, c) => {
        const xy = block.getRelativeToSurfaceXY();
        const m = fw.getCanvas().getScreenCTM();
        const off = c.offsetInBlock_ || { x: 0, y: 0 };
        return { x: m.a * xy.x + m.e + off.x * ws.scale, y: m.d * xy.y + m.f + off.y * ws.scale };
      },
      emptyMouth: (SB) => (SB.BlockSvg && SB.BlockSvg.MIN_STATEMENT_INPUT_HEIGHT) || 0,
    },
    // scratch-blocks 1.x marks blocks with data-shapes and names no type in the DOM (the Blockly
    // block of the element's data-id knows it); the category menu is its own; the zoom buttons
    // are images in one group; a sprite item also holds its (hidden) context menu's texts.
    elements: {
      canvasBlocks: 'g.blocklyWorkspace > g.blocklyBlockCanvas g[data-shapes][data-id]',
      fields: '.blocklyEditableText',
      isDropdown: (field) => field.getAttribute('data-argument-type') === 'dropdown' ||
        Boolean(field.querySelector('.blocklyDropdownText')),
      blockType: (el) => {
        const id = el.getAttribute('data-id');
        const ws = window.workspace;
        const fw = el.closest('.blocklyFlyout') ? flyoutWorkspace() : ws;
        const block = fw && fw.getBlockById(id);
        return block ? block.type : 'block';
      },
      categoryId: (el) => {
        const m = /(?:^|\s)scratchCategoryId-(\S+)/.exec(el.getAttribute('class') || '');
        return m ? m[1] : '';
      },
      categorySelected: (el) => el.classList.contains('categorySelected'),
      zooms: '.blocklyZoom > image',
      zoomKind: (el) => {
        const href = el.getAttribute('xlink:href') || el.getAttribute('href') || '';
        return href.includes('zoom-in') ? 'in' : href.includes('zoom-out') ? 'out' : 'reset';
      },
      spriteName: (el) => {
        const name = el.querySelector('[class^="sprite-selector-item_sprite-name_"], ' +
          '[class*=" sprite-selector-item_sprite-name_"]');
        return (name || el).innerText;
      },
      // a closed text editor shrinks for 0.25 s on a timer, covering its field meanwhile
      animating: () => {
        const SB = window.ScratchBlocks;
        return Boolean(SB && SB.WidgetDiv && SB.WidgetDiv.disposeAnimationTimer_);
      },
    },
  };
}());
