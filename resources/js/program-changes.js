/*
 * Counts the changes an exported program could show, so that an episode exports its program
 * again only when something changed since the last export (studio/services/episodes/
 * program_cache.py). Installed in an editor page whose VM is ready (`window.vm`).
 *
 *   window.studioChanges.key()   "<install id>:<count>", or null when the page has no VM;
 *                                two equal keys mean nothing was counted between the reads
 *
 * Counted (each adds one):
 *   - any event the VM or its runtime emits (a block changed, PROJECT_CHANGED, a target or
 *     monitor update, a project loaded, a run started or stopped, a say bubble, ...): a step
 *     with nothing to do emits none;
 *   - a VM step that runs threads (scripts, hats, shown monitors: what they do changes
 *     positions, costumes, variables, lists and monitor values the export carries);
 *   - a thread pushed (a hat that started a script, a click on a script, a monitor's thread);
 *   - an input event of the page (mouse, keys, wheel, touch, focus, text input, drag and
 *     drop), dispatched to the window in its capture phase: an edit by hand;
 *   - a change the renderer is asked to make (create, destroy, update or set something):
 *     the paint editor's costume changes go through it.
 * The install id differs between installs, so a page that loaded again (and lost the script)
 * never gives a key it gave before.
 */
(function () {
  'use strict';
  const INPUT_EVENTS = ['pointerdown', 'pointerup', 'pointermove', 'mousedown', 'mouseup',
    'mousemove', 'click', 'dblclick', 'contextmenu', 'keydown', 'keyup', 'keypress', 'wheel',
    'touchstart', 'touchmove', 'touchend', 'focusin', 'focusout', 'input', 'change',
    'dragstart', 'drop', 'paste', 'cut'];
  const RENDERER_CHANGES = /^(create|destroy|update|set|pen|resize)/;
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let count = 0;
  const bump = () => { count += 1; };

  function wrap(owner, name, before) {
    const fn = owner && owner[name];
    if (typeof fn !== 'function') return;
    owner[name] = function () {
      before.apply(this, arguments);
      return fn.apply(this, arguments);
    };
  }

  function install(vm) {
    const runtime = vm.runtime;
    wrap(vm, 'emit', bump);
    wrap(runtime, 'emit', bump);
    wrap(runtime, '_pushThread', bump);
    wrap(runtime.sequencer, 'stepThreads', () => {
      if (runtime.threads.length > 0) bump();
    });
    const renderer = runtime.renderer;
    if (renderer) {
      const proto = Object.getPrototypeOf(renderer);
      Object.getOwnPropertyNames(proto).forEach((name) => {
        const desc = Object.getOwnPropertyDescriptor(proto, name);
        if (!desc || typeof desc.value !== 'function' || !RENDERER_CHANGES.test(name)) return;
        wrap(renderer, name, bump);
      });
    }
    INPUT_EVENTS.forEach((type) => window.addEventListener(type, bump, true));
  }

  const vm = window.vm;
  if (vm && vm.runtime) install(vm);
  window.studioChanges = {
    key: () => (vm && vm.runtime ? `${id}:${count}` : null),
  };
}());
