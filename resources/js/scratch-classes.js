/*
 * Finds the Scratch classes inside the GUI bundle without mounting the editor, and builds
 * VMs equipped the way the editor equips its own. What differs between editions (the VM class,
 * the storage, the webpack runtime) comes from the page's edition adapter (window.studioEdition):
 *   - the VM class and a storage, from the adapter;
 *   - the WebGL renderer (scratch-render), the V2 bitmap adapter (scratch-svg-renderer: needed
 *     to load bitmap costumes stored at resolution 1, as projects converted from Scratch 2 carry)
 *     and the audio engine (scratch-audio: without it sounds are not loaded and "play sound until
 *     done" does not wait), from the bundle's webpack module table, each recognised by its source.
 * Exposes window.ScratchClasses = {VirtualMachine, Renderer, BitmapAdapter, AudioEngine, createVM}.
 */
(function () {
  'use strict';
  const edition = window.studioEdition;
  /** The one module whose source holds every needle (copies of one package, source for
   * source the same, count as one: the classic bundle carries two of scratch-svg-renderer's). */
  function findModule(req, what, needles) {
    const ids = Object.keys(req.m).filter((id) => {
      const src = Function.prototype.toString.call(req.m[id]);
      return needles.every((n) => src.includes(n));
    });
    const sources = new Set(ids.map((id) => Function.prototype.toString.call(req.m[id])));
    if (ids.length === 0 || sources.size !== 1) {
      throw new Error(`the Scratch GUI bundle has ${ids.length} candidates for the ${what} (${needles})`);
    }
    const mod = req(ids[0]);
    return mod.default || mod;
  }
  const req = edition.webpackRequire();
  const Renderer = findModule(req, 'renderer', ['_allDrawables', 'Could not get WebGL context']);
  const BitmapAdapter = findModule(req, 'bitmap adapter', ['convertResolution1Bitmap', 'importBitmap']);
  const AudioEngine = findModule(req, 'audio engine', ['decodeSoundPlayer', 'createEffectChain', 'DECAY_DURATION']);
  const VirtualMachine = edition.VirtualMachine();

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
   * virtual clock passes one whose time it drives).
   */
  function createVM(canvas, options = {}) {
    const vm = new VirtualMachine();
    vm.attachStorage(edition.newStorage());
    vm.attachRenderer(new Renderer(canvas || stageCanvas(), -240, 240, -180, 180));
    vm.attachV2BitmapAdapter(new BitmapAdapter());
    vm.attachAudioEngine(options.audioContext ? new AudioEngine(options.audioContext) : new AudioEngine());
    vm.setCompatibilityMode(true);
    vm.setTurboMode(false);
    return vm;
  }
  window.ScratchClasses = { VirtualMachine, Renderer, BitmapAdapter, AudioEngine, createVM, stageCanvas };
}());
