/*
 * Lets the editor's stage rest while nothing on it changes.
 *
 * The Scratch VM steps 30 times a second whether or not a project runs, and every step ends
 * with a full WebGL redraw of the stage; with software GL that keeps a core busy in an idle
 * window. Once the editor is ready this script gates the draws the VM's step asks for: a step
 * redraws the stage only when
 *   - something the stage shows changed since the last draw: any call of a renderer method
 *     that creates, destroys, updates or sets something (drawables, skins, pen, size, effects,
 *     layer order) or a drawable's transform marked dirty (a costume finished loading), a
 *     project starting or stopping (the VM's PROJECT_RUN_START and PROJECT_RUN_STOP) included.
 *     A running project is drawn as it changes the stage, not at every step: a project whose
 *     scripts run without changing what the stage shows (a `forever` loop waiting for a key,
 *     an edge-activated hat such as `when timer > 10`, whose checks make the editor count the
 *     project as running) costs no draws (each was a full software-GL redraw, about a quarter
 *     of a core a page),
 *   - a snapshot of the stage was requested, or
 *   - resting is not allowed (`studioRest.allow(false)`: a live episode has the editor, and
 *     it sees every frame the way the benchmark's own browser does).
 * While the page is hidden (a minimised window) a step draws only for a snapshot or when
 * resting is not allowed; the first step after it is shown again redraws.
 * Draws asked for outside a step (the editor's thumbnail, a direct `renderer.draw()`) are
 * never skipped. By default the VM itself keeps stepping (edge-triggered hats still fire).
 *
 * Deep rest (`studioRest.restVm(true)`: an episode page waiting for its agent) also stops the
 * VM's own 30 Hz step loop once the VM has nothing to do, and keeps the VM's audio context
 * suspended while no sound plays (a running context renders silence on Chromium's audio
 * thread, about 10 ms of CPU a second a page even with the VM stepping: most of what a waiting
 * page cost, bench/bench_agents.py). The context is suspended once no sound has played on it
 * for AUDIO_REST_MS (whether or not the step loop rests: many agents at once keep their pages
 * awake) and resumed before a sound starts on it (a buffer source made on the context: the
 * VM's sound players, the music and text-to-speech extensions), when resting is not allowed
 * or deep rest ends; a sound started on a suspended context plays once it resumes, from its
 * start. The step loop stops after
 * REST_AFTER steps in a row in which no thread ran, nothing was left to draw, no targets or
 * monitors update was pending, no sound played, no script starts with an edge-activated hat
 * (`when timer > 1`: those fire from the step loop itself) and no shown monitor reads a value
 * that changes by itself (the timer, the date, loudness). The loop restarts (`wake`) before
 * anything that could give a step work: an input event of the page (mouse, keys, wheel,
 * touch, focus), a thread pushed or hats started, any event of the runtime or the VM (a block
 * changed, a target or monitor update asked for, a project loaded), a change of something the
 * stage shows, `allow(false)`, or `wake()`. An action therefore runs, and is observed, on a
 * stepping VM exactly as before; only the empty steps between actions are left out. A context
 * the page suspended itself is never resumed here.
 *
 * Exposed: window.studioRest { allow(bool), allowed(), stats(), markDirty(), restVm(bool),
 * wake() }; stats() = { steps, draws, skipped, running, resting, rests, wakes, audioRests,
 * audioWakes, audioSuspended } counted since the gate was installed (`resting`: the step loop
 * is stopped now; `audioSuspended`: the audio context is suspended by the rest now;
 * `audioWakes`: resumes for a sound or the end of deep rest).
 */
(function () {
  'use strict';
  const CHANGES = /^(create|destroy|update|set|pen|resize)/;
  // idle steps in a row before the step loop stops (deep rest): about a second, so an agent
  // stepping back to back never pays a stop and a wake per step (with 3, the lone agent's
  // steps cost about a fifth more CPU and wall than a page that never rests, in one run of a
  // probe alternating the two on one page), while an agent that thinks leaves its page at rest
  const REST_AFTER = 30;
  const AUDIO_REST_MS = 1000; // no sound for this long suspends the audio context
  const WAKING_EVENTS = ['pointerdown', 'pointerup', 'pointermove', 'mousedown', 'mouseup',
    'mousemove', 'click', 'dblclick', 'contextmenu', 'keydown', 'keyup', 'keypress', 'wheel',
    'touchstart', 'touchmove', 'touchend', 'focusin', 'input', 'change', 'dragstart', 'drop'];
  // monitors whose value changes only when a thread or an input changes it
  const STILL_MONITORS = /^(data_|motion_[xy]position|motion_direction|looks_|sound_volume|sensing_answer|sensing_mouse|sensing_username)/;

  function install(vm) {
    const runtime = vm.runtime;
    const renderer = runtime.renderer;
    if (!renderer || renderer.__studioRest) return null;
    const gate = { allowed: true, dirty: true, running: false, inStep: false,
      steps: 0, draws: 0, skipped: 0, deep: false, resting: false, idle: 0, rests: 0, wakes: 0,
      audioTimer: null, audioSuspended: false, audioRests: 0, audioWakes: 0 };

    function audio() {
      const engine = runtime.audioEngine;
      return engine && engine.audioContext;
    }

    function restAudio() {
      gate.audioTimer = null;
      const context = audio();
      if (!gate.deep || !gate.allowed || !context || context.state !== 'running') return;
      if (runtime.threads.length > 0 || soundPlaying()) return; // the next quiet step asks again
      gate.audioSuspended = true;
      gate.audioRests += 1;
      context.suspend().catch(() => undefined);
    }

    /** No sound for AUDIO_REST_MS from now suspends the context (deep rest only). */
    function quietAudio() {
      if (gate.audioTimer !== null || gate.audioSuspended || !gate.deep || !gate.allowed) return;
      gate.audioTimer = setTimeout(restAudio, AUDIO_REST_MS);
    }

    function wakeAudio() {
      if (gate.audioTimer !== null) {
        clearTimeout(gate.audioTimer);
        gate.audioTimer = null;
      }
      if (!gate.audioSuspended) return;
      gate.audioSuspended = false;
      gate.audioWakes += 1;
      const context = audio();
      if (context) context.resume().catch(() => undefined);
    }

    // a sound about to start on the VM's context resumes it first
    const context = audio();
    if (context && typeof context.createBufferSource === 'function') {
      const createBufferSource = context.createBufferSource;
      context.createBufferSource = function () {
        wakeAudio();
        return createBufferSource.apply(this, arguments);
      };
    }

    function wake() {
      gate.idle = 0;
      if (!gate.resting) return;
      gate.resting = false;
      gate.wakes += 1;
      // the loop as runtime.start() makes it, without its RUNTIME_STARTED (the editor would
      // lay itself out again for a loop that only paused)
      const every = runtime.currentStepTime || 1000 / 30;
      runtime._steppingInterval = setInterval(() => { runtime._step(); }, every);
    }

    function soundPlaying() {
      return runtime.targets.some((t) => {
        const bank = t.sprite && t.sprite.soundBank;
        return Boolean(bank && Object.values(bank.soundPlayers || {}).some((p) => p.isPlaying));
      });
    }

    function edgeHats() {
      return runtime.targets.some((t) => t.isOriginal && t.blocks.getScripts().some((id) => {
        const top = t.blocks.getBlock(id);
        const hat = top && runtime._hats[top.opcode];
        return Boolean(hat && hat.edgeActivated);
      }));
    }

    function monitorsMoving() {
      return runtime._monitorState.some((m) => m.get('visible') && !STILL_MONITORS.test(m.get('opcode')));
    }

    function nothingToDo() {
      return gate.deep && gate.allowed && !gate.running && !gate.dirty && !document.hidden
        && runtime.threads.length === 0 && !runtime._refreshTargets && !runtime.redrawRequested
        && !edgeHats() && !monitorsMoving();
    }

    function afterStep() {
      // only deep rest stops the loop or the audio: other pages pay nothing more per step
      if (!gate.deep || !gate.allowed) { gate.idle = 0; return; }
      // a thread may be playing a note of its own (the music extension's players are not in
      // any sprite's sound bank): only a VM with no thread and no sound is quiet
      const quiet = runtime.threads.length === 0 && !soundPlaying();
      if (quiet) quietAudio();
      if (!quiet || !nothingToDo()) { gate.idle = 0; return; }
      gate.idle += 1;
      if (gate.idle < REST_AFTER || !runtime._steppingInterval) return;
      runtime.quit();
      gate.resting = true;
      gate.rests += 1;
    }

    const markDirty = () => { gate.dirty = true; wake(); };

    const proto = Object.getPrototypeOf(renderer);
    Object.getOwnPropertyNames(proto).forEach((name) => {
      const fn = Object.getOwnPropertyDescriptor(proto, name).value; // getters stay unread
      if (typeof fn !== 'function' || !CHANGES.test(name)) return;
      renderer[name] = function () { markDirty(); return fn.apply(this, arguments); };
    });
    const drawable = renderer._allDrawables.find(Boolean);
    if (drawable) {
      const drawableProto = Object.getPrototypeOf(drawable);
      const setTransformDirty = drawableProto.setTransformDirty;
      drawableProto.setTransformDirty = function () {
        markDirty();
        return setTransformDirty.apply(this, arguments);
      };
    }
    const draw = proto.draw;
    renderer.draw = function () {
      const snapshot = this._snapshotCallbacks && this._snapshotCallbacks.length > 0;
      const wanted = gate.dirty;
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
        afterStep();
      }
    };
    // whatever could give the next step work restarts the loop first
    for (const [owner, name] of [[runtime, '_pushThread'], [runtime, 'startHats'],
      [runtime, 'emit'], [vm, 'emit'], [vm, 'postIOData']]) {
      const fn = owner[name];
      if (typeof fn !== 'function') continue;
      owner[name] = function () { if (gate.resting) wake(); return fn.apply(this, arguments); };
    }
    WAKING_EVENTS.forEach((type) => window.addEventListener(type, wake, true));
    vm.on('PROJECT_RUN_START', () => { gate.running = true; gate.dirty = true; });
    vm.on('PROJECT_RUN_STOP', () => { gate.running = false; gate.dirty = true; });
    document.addEventListener('visibilitychange', markDirty);
    renderer.__studioRest = gate;
    return {
      allow(yes) {
        gate.allowed = Boolean(yes);
        if (!gate.allowed) wakeAudio();
        markDirty();
        return gate.allowed;
      },
      allowed: () => gate.allowed,
      markDirty,
      restVm(yes) {
        gate.deep = Boolean(yes);
        if (!gate.deep) wakeAudio();
        wake();
        return gate.deep;
      },
      wake,
      stats: () => ({ steps: gate.steps, draws: gate.draws, skipped: gate.skipped,
        running: gate.running, resting: gate.resting, rests: gate.rests, wakes: gate.wakes,
        audioRests: gate.audioRests, audioWakes: gate.audioWakes,
        audioSuspended: gate.audioSuspended }),
    };
  }

  window.studioBridge.whenReady().then(() => {
    const rest = install(window.vm);
    if (rest) window.studioRest = rest;
  });
}());
