/*
 * Finds the Scratch classes inside the GUI bundle without mounting the editor:
 * the VM class (from a bare EditorState) and the WebGL renderer class (from the bundle's
 * webpack module table, recognised by its source). Exposes window.ScratchClasses.
 */
(function () {
  'use strict';
  function webpackRequire() {
    let req = null;
    self.webpackChunkGUI = self.webpackChunkGUI || [];
    self.webpackChunkGUI.push([[Symbol('studio-probe')], {}, (r) => { req = r; }]);
    if (!req) throw new Error('the Scratch GUI bundle exposes no webpack runtime');
    return req;
  }
  function findModule(req, needles) {
    const ids = Object.keys(req.m).filter((id) => {
      const src = Function.prototype.toString.call(req.m[id]);
      return needles.every((n) => src.includes(n));
    });
    if (ids.length !== 1) throw new Error(`expected one module with ${needles}, found ${ids.length}`);
    const mod = req(ids[0]);
    return mod.default || mod;
  }
  const req = webpackRequire();
  const Renderer = findModule(req, ['_allDrawables', 'Could not get WebGL context']);
  const probeState = new GUI.EditorState({ locale: 'en' });
  const VirtualMachine = probeState.store.getState().scratchGui.vm.constructor;

  /** Build a fresh VM with storage and a renderer on `canvas`; nothing shared with others. */
  function createVM(canvas) {
    const vm = new VirtualMachine();
    vm.attachStorage(new GUI.ScratchStorage());
    const renderer = new Renderer(canvas, -240, 240, -180, 180);
    vm.attachRenderer(renderer);
    vm.setCompatibilityMode(true);
    vm.setTurboMode(false);
    return vm;
  }
  window.ScratchClasses = { VirtualMachine, Renderer, createVM };
}());
