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
 * reaches a VM made from them (page-reuse.js says why evaluation pages need that). In those
 * fresh modules, scratch-svg-renderer's `sanitizeSvgText` (a pure function of the SVG's text)
 * goes through the page's asset cache (asset-cache.js `memo`): while a project loads, the same
 * costume text is sanitized once per page, not twice per evaluation. Three modules are made
 * once per page and shared by every fresh instance (`SHARED`), each a pure function of its
 * input whose module state is made once and only read:
 *   - scratch-parser's project validator: its own JSON-schema compiler (ajv) with the two
 *     schemas it compiles on first use (10-20 ms each time a fresh instance compiled them);
 *     ajv with its default options does not change the data it validates, and the errors of a
 *     failed validation are new arrays each call (which the VM hands on as text);
 *   - the line breaker (`linebreak`) and the grapheme breaker (`grapheme-breaker`) of the
 *     renderer's text bubbles: each decodes a Unicode table when it loads (about 10 ms) and
 *     then only reads it; their breaks are new objects each call.
 * None of them is reachable from what an evaluation gets (their exports are held in the
 * closures of the fresh modules that call them), and what they export is frozen (a class's
 * prototype too), so even a reference could not change them; their own dependencies (the
 * schemas, the Unicode tables) are a private instance of their own.
 * Exposes window.ScratchClasses = {VirtualMachine, Renderer, BitmapAdapter, AudioEngine,
 * createVM, stageCanvas, fresh}.
 */
(function () {
  'use strict';
  const edition = window.studioEdition;
  /** The id of the one module whose source holds every needle (copies of one package, source
   * for source the same, count as one: the classic bundle carries two of scratch-svg-renderer's). */
  function findId(req, what, needles) {
    const ids = findAll(req, needles);
    const sources = new Set(ids.map((id) => Function.prototype.toString.call(req.m[id])));
    if (ids.length === 0 || sources.size !== 1) {
      throw new Error(`the Scratch GUI bundle has ${ids.length} candidates for the ${what} (${needles})`);
    }
    return ids[0];
  }
  /** The ids of every module whose source holds every needle. */
  function findAll(req, needles) {
    return Object.keys(req.m).filter((id) => {
      const src = Function.prototype.toString.call(req.m[id]);
      return needles.every((n) => src.includes(n));
    });
  }
  const classOf = (mod) => mod.default || mod;
  const req = edition.webpackRequire();
  const IDS = {
    Renderer: findId(req, 'renderer', ['_allDrawables', 'Could not get WebGL context']),
    BitmapAdapter: findId(req, 'bitmap adapter', ['convertResolution1Bitmap', 'importBitmap']),
    AudioEngine: findId(req, 'audio engine', ['decodeSoundPlayer', 'createEffectChain', 'DECAY_DURATION']),
    VirtualMachine: findId(req, 'virtual machine', ['_addFileDescsToZip', 'loadProject']),
    Storage: findId(req, 'storage', ['setDefaultAssetId', 'addWebStore']),
    // shared by every fresh instance (see the header): scratch-parser's validator, the line
    // and grapheme breakers
    Shared: [
      ...findAll(req, ['Could not parse as a valid SB2 or SB3 project', 'sb3Errors', 'addSchema']),
      ...findAll(req, ['pairTable', 'nextCharClass', 'nextCodePoint']),
      ...findAll(req, ['Regional_Indicator', 'SpacingMark', 'previousBreak', 'countBreaks']),
    ],
    // every copy of scratch-svg-renderer's sanitizer (none in a build without one)
    Sanitize: findAll(req, ['sanitizeSvgText', 'sanitizeByteStream', 'USE_PROFILES']),
  };
  const storageClass = (mod) => mod.ScratchStorage || classOf(mod);
  const Renderer = classOf(req(IDS.Renderer));
  const BitmapAdapter = classOf(req(IDS.BitmapAdapter));
  const AudioEngine = classOf(req(IDS.AudioEngine));
  const VirtualMachine = classOf(req(IDS.VirtualMachine));
  const Storage = storageClass(req(IDS.Storage));
  const table = Object.assign(Object.create(null), req.m);
  const helpers = Object.assign(Object.create(null), req);

  const SHARED = new Set(IDS.Shared); // made once per page (see the header)
  const shared = Object.create(null); // id -> its frozen exports, once made

  /** `value` frozen, and so are its own functions' and a class's prototypes. */
  function freeze(value) {
    const parts = [value];
    for (const key of Reflect.ownKeys(value)) {
      const d = Reflect.getOwnPropertyDescriptor(value, key);
      if (d && typeof d.value === 'function') parts.push(d.value);
    }
    for (const part of [...parts]) {
      if (typeof part === 'function' && part.prototype) parts.push(part.prototype);
    }
    for (const part of parts) Object.freeze(part);
    return value;
  }

  function sharedExports(id) {
    if (!(id in shared)) shared[id] = freeze(freshRequire(false)(id)); // dependencies its own
    return shared[id];
  }

  /** A new instance of the bundle's modules: a webpack require with an empty cache (the
   * SHARED modules, with `share`, excepted). */
  function freshRequire(share = true) {
    const cache = Object.create(null);
    function fresh(id) {
      const hit = cache[id];
      if (hit) return hit.exports;
      if (share && SHARED.has(String(id))) return sharedExports(String(id));
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
    for (const id of IDS.Sanitize) { // first, so that every module that takes it gets the wrapped one
      const sanitize = r(id);
      sanitize.sanitizeSvgText = window.AssetCache.memo('svg', sanitize.sanitizeSvgText);
    }
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

  const realGetContext = HTMLCanvasElement.prototype.getContext;
  const quiet = { value: () => null, configurable: true, writable: true };

  /**
   * `make()` with no WebGL extension given to the contexts `canvas` makes meanwhile. The
   * renderer gets its context through twgl's getWebGLContext, which enables every one of 30
   * extensions it knows on it (about 0.5 ms each, a round trip to the GPU process, 15 ms a
   * context, more under load) to copy their functions onto the context; scratch-render uses
   * none of them (its only getExtension calls are twgl's). Once made, the context answers
   * getExtension as any other does.
   */
  function withoutExtensions(canvas, make) {
    const made = [];
    Object.defineProperty(canvas, 'getContext', {
      configurable: true, writable: true,
      value(...args) {
        const gl = Reflect.apply(realGetContext, canvas, args);
        if (gl && typeof gl.getExtension === 'function' && !made.includes(gl)) {
          Object.defineProperty(gl, 'getExtension', quiet);
          made.push(gl);
        }
        return gl;
      },
    });
    try {
      return make();
    } finally {
      delete canvas.getContext;
      for (const gl of made) delete gl.getExtension;
    }
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
    const stage = canvas || stageCanvas();
    vm.attachRenderer(withoutExtensions(stage, () => new c.Renderer(stage, -240, 240, -180, 180)));
    vm.attachV2BitmapAdapter(new c.BitmapAdapter());
    vm.attachAudioEngine(options.audioContext ? new c.AudioEngine(options.audioContext) : new c.AudioEngine());
    vm.setCompatibilityMode(true);
    vm.setTurboMode(false);
    return vm;
  }
  window.ScratchClasses = { VirtualMachine, Renderer, BitmapAdapter, AudioEngine, createVM, stageCanvas, fresh };
}());
