/*
 * Finds the Scratch classes inside the GUI bundle without mounting the editor, and builds
 * VMs equipped the way the editor equips its own. The page loads the bundle without its entry
 * (studio.services.runtime.lean_bundle: the GUI's own modules never run), and reaches the
 * bundle's webpack module table through the edition adapter (window.studioEdition.webpackRequire).
 * Each class is recognised in the table by its source: the VM (scratch-vm), the storage
 * (scratch-storage), the WebGL renderer (scratch-render), the V2 bitmap adapter
 * (scratch-svg-renderer: needed to load bitmap costumes stored at resolution 1, as projects
 * converted from Scratch 2 carry) and the audio engine (scratch-audio: without it sounds are not
 * loaded and "play sound until done" does not wait). They are the classes the editor of the
 * same edition uses (tests/e2e/test_lean_bundle.py compares them with its VM's).
 * `fresh()` gives the same classes from a new instance of the bundle's modules: the compiled
 * module functions (a private copy of the module table, taken when this file loads) run again
 * into an empty module cache, so nothing an earlier VM's classes or module state went through
 * reaches a VM made from them (page-reuse.js says why evaluation pages need that).
 * Exposes window.ScratchClasses = {VirtualMachine, Renderer, BitmapAdapter, AudioEngine,
 * createVM, stageCanvas, fresh}.
 */
(function () {
  'use strict';
  const edition = window.studioEdition;
  /** The id of the one module whose source holds every needle (copies of one package, source
   * for source the same, count as one: the classic bundle carries two of scratch-svg-renderer's). */
  function findId(req, what, needles) {
    const ids = Object.keys(req.m).filter((id) => {
      const src = Function.prototype.toString.call(req.m[id]);
      return needles.every((n) => src.includes(n));
    });
    const sources = new Set(ids.map((id) => Function.prototype.toString.call(req.m[id])));
    if (ids.length === 0 || sources.size !== 1) {
      throw new Error(`the Scratch GUI bundle has ${ids.length} candidates for the ${what} (${needles})`);
    }
    return ids[0];
  }
  const classOf = (mod) => mod.default || mod;
  const req = edition.webpackRequire();
  const IDS = {
    Renderer: findId(req, 'renderer', ['_allDrawables', 'Could not get WebGL context']),
    BitmapAdapter: findId(req, 'bitmap adapter', ['convertResolution1Bitmap', 'importBitmap']),
    AudioEngine: findId(req, 'audio engine', ['decodeSoundPlayer', 'createEffectChain', 'DECAY_DURATION']),
    VirtualMachine: findId(req, 'virtual machine', ['_addFileDescsToZip', 'loadProject']),
    Storage: findId(req, 'storage', ['setDefaultAssetId', 'addWebStore']),
  };
  const storageClass = (mod) => mod.ScratchStorage || classOf(mod);
  const Renderer = classOf(req(IDS.Renderer));
  const BitmapAdapter = classOf(req(IDS.BitmapAdapter));
  const AudioEngine = classOf(req(IDS.AudioEngine));
  const VirtualMachine = classOf(req(IDS.VirtualMachine));
  const Storage = storageClass(req(IDS.Storage));
  const table = Object.assign(Object.create(null), req.m);
  const helpers = Object.assign(Object.create(null), req);

  /** A new instance of the bundle's modules: a webpack require with an empty cache. */
  function freshRequire() {
    const cache = Object.create(null);
    function fresh(id) {
      const hit = cache[id];
      if (hit) return hit.exports;
      const factory = table[id];
      if (typeof factory !== 'function') throw new Error(`the bundle has no module ${id}`);
      const module = { id, i: id, loaded: false, l: false, exports: {} };
      cache[id] = module;
      factory.call(module.exports, module, module.exports, fresh);
      module.loaded = true;
      module.l = true;
      return module.exports;
    }
    for (const key of Object.keys(helpers)) if (key !== 'm' && key !== 'c') fresh[key] = helpers[key];
    fresh.m = table;
    fresh.c = cache;
    return fresh;
  }

  /** The Scratch classes from a new instance of the bundle's modules (see the header). */
  function fresh() {
    const r = freshRequire();
    const Storage = storageClass(r(IDS.Storage));
    return {
      VirtualMachine: classOf(r(IDS.VirtualMachine)),
      newStorage: () => new Storage(),
      Renderer: classOf(r(IDS.Renderer)),
      BitmapAdapter: classOf(r(IDS.BitmapAdapter)),
      AudioEngine: classOf(r(IDS.AudioEngine)),
    };
  }

  /** A canvas of the stage's size, outside the document (mouse picking needs one inside). */
  function stageCanvas() {
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 360;
    return canvas;
  }

  /**
   * Build a fresh VM with storage, a renderer, the bitmap adapter and an audio engine; nothing
   * is shared with other VMs. `options.audioContext` replaces the audio engine's context (the
   * virtual clock passes one whose time it drives); `options.classes` (from `fresh()`) replaces
   * the page's own classes.
   */
  function createVM(canvas, options = {}) {
    const c = options.classes || { VirtualMachine, Renderer, BitmapAdapter, AudioEngine,
      newStorage: () => new Storage() };
    const vm = new c.VirtualMachine();
    vm.attachStorage(c.newStorage());
    vm.attachRenderer(new c.Renderer(canvas || stageCanvas(), -240, 240, -180, 180));
    vm.attachV2BitmapAdapter(new c.BitmapAdapter());
    vm.attachAudioEngine(options.audioContext ? new c.AudioEngine(options.audioContext) : new c.AudioEngine());
    vm.setCompatibilityMode(true);
    vm.setTurboMode(false);
    return vm;
  }
  window.ScratchClasses = { VirtualMachine, Renderer, BitmapAdapter, AudioEngine, createVM, stageCanvas, fresh };
}());
