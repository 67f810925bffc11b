/*
 * Mounts the Scratch editor from the GUI bundle in #editor and exposes it to the studio.
 * The page's edition adapter (window.studioEdition, edition-<name>.js) mounts it; nothing
 * here depends on the edition.
 *
 * Every store the editor may fetch from points at this page's own server, so no request
 * leaves 127.0.0.1 (a missing asset is a local 404, never a trip to scratch.mit.edu).
 *
 * Exposed globals:
 *   window.vm                  the editor's VirtualMachine
 *   window.workspace           the Blockly workspace (set once the editor is ready)
 *   window.ScratchBlocks       the scratch-blocks module the workspace belongs to
 *   window.flyoutWorkspace     the palette's workspace (once ready)
 *   window.toolboxXML          the palette's toolbox XML (as the GUI last gave it)
 *   window.studioEditorReady   true once the editor, the VM and the workspace are ready
 *   window.studioBridge        { ready, whenReady(), loadProjectFromUrl(url, name, title),
 *                                loadProjectBase64(b64, name, title), saveProjectBase64(),
 *                                describeProject(), status(), markClean(), isDirty(),
 *                                studioEvaluate(source, arg, passArg), call(id, method, args) }
 *                             isDirty(): has the project changed since it was loaded or
 *                             markClean() was called
 * On ready the page also logs "studio:editor-ready" and appends " [ready]" to its title.
 *
 * Inside the studio (QtWebEngine) results of `call` go back through a QWebChannel object
 * named "studioHost" (method settle(json)); in a plain browser (Playwright) callers
 * await the promise-returning methods directly.
 */
(function () {
  'use strict';
  const READY_POLL_MS = 50;
  const SET_PROJECT_TITLE = 'projectTitle/SET_PROJECT_TITLE';
  const pageErrors = [];
  window.addEventListener('error', (ev) => {
    if (pageErrors.length < 100) pageErrors.push(String(ev.message));
  });

  // How this edition mounts the GUI, and what differs between editions: edition-<name>.js,
  // loaded by the page before this script.
  const edition = window.studioEdition;
  const root = document.getElementById('editor');
  const mounted = edition.mount(root);
  const vm = mounted.vm;
  const store = mounted.store;
  window.vm = vm;
  window.studioEditorState = mounted.state;

  /** The React component instance that owns the Blockly workspace, or null. */
  function findBlocksComponent() {
    const el = document.querySelector('[class^="blocks_blocks"], [class*=" blocks_blocks"]');
    if (!el) return null;
    const key = Object.keys(el).find((k) => k.startsWith(edition.reactKey));
    for (let fiber = key ? el[key] : null; fiber; fiber = fiber.return) {
      const inst = fiber.stateNode;
      if (inst && inst.workspace) return inst;
    }
    return null;
  }

  function webglSupported() {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl') || canvas.getContext('experimental-webgl'));
  }

  function editorIsReady() {
    const gui = store.getState().scratchGui;
    return vm.runtime.targets.length > 0 && Boolean(vm.editingTarget) &&
      String(gui.projectState.loadingState).startsWith('SHOWING') &&
      Boolean(document.querySelector(edition.categorySelector)) &&
      Boolean(findBlocksComponent());
  }

  const ready = new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!editorIsReady()) return;
      clearInterval(timer);
      const blocks = findBlocksComponent();
      window.workspace = blocks.workspace;
      window.ScratchBlocks = blocks.ScratchBlocks;
      const flyout = blocks.workspace.getFlyout && blocks.workspace.getFlyout();
      window.flyoutWorkspace = flyout ? flyout.getWorkspace() : null;
      Object.defineProperty(window, 'toolboxXML', {
        configurable: true,
        get: () => store.getState().scratchGui.toolbox.toolboxXML,
      });
      vm.on('PROJECT_CHANGED', () => { maybeDirty = true; });
      markClean();
      window.studioEditorReady = true;
      document.title += ' [ready]';
      console.info('studio:editor-ready');
      resolve(describeProject());
    }, READY_POLL_MS);
  });

  function describeProject() {
    const targets = vm.runtime.targets.filter((t) => t.isOriginal);
    return {
      stage: targets.filter((t) => t.isStage).map((t) => t.getName())[0] || null,
      sprites: targets.filter((t) => !t.isStage).map((t) => t.getName()),
      editingTarget: vm.editingTarget ? vm.editingTarget.getName() : null,
      blockCount: targets.reduce((n, t) => n + Object.keys(t.blocks._blocks).length, 0),
      title: store.getState().scratchGui.projectTitle,
    };
  }

  function describeError(err) {
    if (err instanceof Error) return err.message;
    if (typeof err === 'string') {
      try {
        const parsed = JSON.parse(err);
        if (parsed && parsed.validationError) return parsed.validationError;
      } catch (_) { /* a plain message */ }
      return err;
    }
    if (err && err.validationError) return String(err.validationError);
    return String(err);
  }

  function base64ToBuffer(b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes.buffer;
  }

  function blobToBase64(blob) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(',', 2)[1] || '');
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
  }

  // Unsaved-change tracking: the project as it was when last loaded or saved (vm.toJSON()),
  // compared again only after the VM said something changed.
  let cleanJson = null;
  let maybeDirty = false;
  function markClean() {
    cleanJson = vm.toJSON();
    maybeDirty = false;
    return true;
  }
  function isDirty() {
    if (!maybeDirty || cleanJson === null) return false;
    if (vm.toJSON() === cleanJson) {
      maybeDirty = false;
      return false;
    }
    return true;
  }

  let queue = Promise.resolve();
  /** Run project operations one after the other, whatever their outcome. */
  function serialized(fn) {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  }

  /**
   * The project as .sb3, as the page shows it. A costume or sound whose asset the VM could not
   * load (an item of Scratch's library: its files are on Scratch's asset server, which this
   * page never reaches) is shown and played as the VM's placeholder, but the VM saves it under
   * the missing asset's name and without a file: a project that names an asset it does not
   * carry. Here such an item is saved as the placeholder the page showed (its name kept);
   * the VM keeps what it had.
   */
  async function saveShown() {
    const unbroken = [];
    for (const target of vm.runtime.targets) {
      if (!target.isOriginal || !target.sprite) continue;
      for (const item of [...target.sprite.costumes, ...target.sprite.sounds]) {
        if (item && item.broken && !item.broken.asset) {
          unbroken.push([item, item.broken]);
          item.broken = undefined;
        }
      }
    }
    try {
      return await vm.saveProjectSb3(); // what it saves is read before its first await
    } finally {
      for (const [item, broken] of unbroken) item.broken = broken;
    }
  }

  /**
   * Replace the editor's project; if the VM refuses the new one, put the previous one back
   * (the VM clears itself before it deserializes, so a failure half-way leaves it empty).
   */
  async function loadProjectBuffer(buffer, name, title) {
    await ready;
    const label = name || 'project.sb3';
    const newTitle = title || label.split(/[\\/]/).pop().replace(/\.sb3$/i, '');
    const backup = await (await vm.saveProjectSb3()).arrayBuffer();
    const oldTitle = store.getState().scratchGui.projectTitle;
    vm.stopAll();
    try {
      await vm.loadProject(buffer);
    } catch (err) {
      let restored = '';
      try {
        await vm.loadProject(backup);
        store.dispatch({ type: SET_PROJECT_TITLE, title: oldTitle });
      } catch (again) {
        restored = `; the previous project could not be restored (${describeError(again)})`;
      }
      throw new Error(`${label}: the Scratch VM refused the project: ${describeError(err)}${restored}`);
    }
    store.dispatch({ type: SET_PROJECT_TITLE, title: newTitle });
    // the workspace redraws the new project after this resolves; changes from then on count
    await new Promise((resolve) => setTimeout(resolve, 0));
    markClean();
    return describeProject();
  }

  async function fetchBuffer(url, name) {
    let response;
    try {
      response = await fetch(url, { cache: 'no-store' });
    } catch (err) {
      throw new Error(`${name || url}: cannot be fetched (${describeError(err)})`);
    }
    if (!response.ok) throw new Error(`${name || url}: cannot be fetched (HTTP ${response.status})`);
    return response.arrayBuffer();
  }

  let host = null;
  const unsent = [];
  /** Report the outcome of call `id` to the studio as one JSON string {id, ok, value}. */
  function settle(id, ok, value) {
    let message;
    try {
      message = JSON.stringify({ id, ok, value: value === undefined ? null : value });
    } catch (err) {
      message = JSON.stringify({ id, ok: false, value: `the result cannot be serialized: ${describeError(err)}` });
    }
    if (host) host.settle(message);
    else unsent.push(message);
  }
  if (typeof QWebChannel !== 'undefined' && window.qt && window.qt.webChannelTransport) {
    new QWebChannel(window.qt.webChannelTransport, (channel) => {
      host = channel.objects.studioHost;
      unsent.splice(0).forEach((message) => host.settle(message));
    });
  }

  const bridge = {
    ready,
    whenReady: () => ready,
    isReady: () => window.studioEditorReady === true,
    status: () => ({
      ready: window.studioEditorReady === true,
      webgl: webglSupported(),
      loadingState: store.getState().scratchGui.projectState.loadingState,
      errors: pageErrors.slice(0, 20),
    }),
    describeProject,
    markClean,
    isDirty,
    getWorkspace: () => window.workspace || null,
    loadProjectFromUrl: (url, name, title) =>
      serialized(async () => loadProjectBuffer(await fetchBuffer(url, name), name, title)),
    loadProjectBase64: (b64, name, title) =>
      serialized(() => loadProjectBuffer(base64ToBuffer(b64), name, title)),
    saveProjectBase64: () => serialized(async () => {
      await ready;
      return blobToBase64(await saveShown());
    }),
    /**
     * Evaluate `source` as Playwright's page.evaluate does, for the studio's own window
     * (studio/views/editor/page.py, which reaches it through `call`): a source starting with
     * `function` is parenthesized, the source is evaluated in the global scope, and a function
     * value is called (with `arg` when `passArg`). What runs is a studio page script's call
     * (studio/services/page_scripts.py).
     */
    studioEvaluate(source, arg, passArg) {
      const text = /^(async)?\s*function(\s|\()/.test(source.trim()) ? `(${source})` : source;
      const value = (0, eval)(text);
      return typeof value === 'function' ? (passArg ? value(arg) : value()) : value;
    },
    /** Run bridge[method](...args) and report the outcome through the studio's channel. */
    call(id, method, args) {
      const fn = bridge[method];
      if (typeof fn !== 'function' || method === 'call') {
        settle(id, false, `no bridge method ${method}`);
        return;
      }
      Promise.resolve()
        .then(() => fn(...(args || [])))
        .then((value) => settle(id, true, value), (err) => settle(id, false, describeError(err)));
    },
  };
  window.studioBridge = bridge;
}());
