/*
 * Lets the editor's stage rest while nothing on it changes.
 *
 * The Scratch VM steps 30 times a second whether or not a project runs, and every step ends
 * with a full WebGL redraw of the stage; with software GL that keeps a core busy in an idle
 * window. Once the editor is ready this script gates the draws the VM's step asks for: a step
 * redraws the stage only when
 *   - a project is running (between the VM's PROJECT_RUN_START and PROJECT_RUN_STOP),
 *   - something the stage shows changed since the last draw: any call of a renderer method
 *     that creates, destroys, updates or sets something (drawables, skins, pen, size, effects,
 *     layer order) or a drawable's transform marked dirty (a costume finished loading),
 *   - a snapshot of the stage was requested, or
 *   - resting is not allowed (`studioRest.allow(false)`: a live episode has the editor, and
 *     it sees every frame the way the benchmark's own browser does).
 * While the page is hidden (a minimised window) a step draws only for a snapshot or when
 * resting is not allowed; the first step after it is shown again redraws.
 * Draws asked for outside a step (the editor's thumbnail, a direct `renderer.draw()`) are
 * never skipped. The VM itself keeps stepping (edge-triggered hats still fire).
 *
 * Exposed: window.studioRest { allow(bool), allowed(), stats(), markDirty() };
 * stats() = { steps, draws, skipped } counted since the gate was installed.
 */
(function () {
  'use strict';
  const CHANGES = /^(create|destroy|update|set|pen|resize)/;

  function install(vm) {
    const runtime = vm.runtime;
    const renderer = runtime.renderer;
    if (!renderer || renderer.__studioRest) return null;
    const gate = { allowed: true, dirty: true, running: false, inStep: false,
      steps: 0, draws: 0, skipped: 0 };
    const markDirty = () => { gate.dirty = true; };

    const proto = Object.getPrototypeOf(renderer);
    Object.getOwnPropertyNames(proto).forEach((name) => {
      const fn = Object.getOwnPropertyDescriptor(proto, name).value; // getters stay unread
      if (typeof fn !== 'function' || !CHANGES.test(name)) return;
      renderer[name] = function () { gate.dirty = true; return fn.apply(this, arguments); };
    });
    const drawable = renderer._allDrawables.find(Boolean);
    if (drawable) {
      const drawableProto = Object.getPrototypeOf(drawable);
      const setTransformDirty = drawableProto.setTransformDirty;
      drawableProto.setTransformDirty = function () {
        gate.dirty = true;
        return setTransformDirty.apply(this, arguments);
      };
    }
    const draw = proto.draw;
    renderer.draw = function () {
      const snapshot = this._snapshotCallbacks && this._snapshotCallbacks.length > 0;
      const wanted = gate.running || gate.dirty;
      if (gate.inStep && gate.allowed && !snapshot && (document.hidden || !wanted)) {
        gate.skipped += 1;
        return undefined;
      }
      gate.dirty = false;
      gate.draws += 1;
      return draw.apply(this, arguments);
    };
    const step = runtime._step;
    runtime._step = function () {
      gate.inStep = true;
      gate.steps += 1;
      try {
        return step.apply(this, arguments);
      } finally {
        gate.inStep = false;
      }
    };
    vm.on('PROJECT_RUN_START', () => { gate.running = true; gate.dirty = true; });
    vm.on('PROJECT_RUN_STOP', () => { gate.running = false; gate.dirty = true; });
    document.addEventListener('visibilitychange', markDirty);
    renderer.__studioRest = gate;
    return {
      allow(yes) {
        gate.allowed = Boolean(yes);
        gate.dirty = true;
        return gate.allowed;
      },
      allowed: () => gate.allowed,
      markDirty,
      stats: () => ({ steps: gate.steps, draws: gate.draws, skipped: gate.skipped,
        running: gate.running }),
    };
  }

  window.studioBridge.whenReady().then(() => {
    const rest = install(window.vm);
    if (rest) window.studioRest = rest;
  });
}());
