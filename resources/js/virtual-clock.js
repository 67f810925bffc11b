/*
 * A virtual clock for evaluation pages: timers, Date, performance.now, requestAnimationFrame,
 * requestIdleCallback and the audio engine's clock follow virtual time, which jumps straight to
 * the next due timer instead of waiting for it. The VM's sequencer advances the clock a little on
 * each of its work-timer polls, so a step behaves like a real step of a fast machine (threads
 * waiting on a timer are re-polled within the frame until the frame's work time is used up).
 *
 * Faithful where a browser is:
 *   - `Date()` called without `new` returns the date string; `Date.now()` is a whole number;
 *   - a repeating timer that fell behind skips the ticks it missed, as browsers do;
 *   - a timer's delay is a whole number of milliseconds, as browsers take it (1000 / 30 is 33);
 *   - a loop that busy-waits on `Date.now()` or `performance.now()` ends: past a large number of
 *     clock reads within one turn of the page, every read moves time on a little;
 *   - sounds end after their duration in virtual time ("play sound until done" waits as long as
 *     in the editor), through an AudioContext whose currentTime and `ended` events are virtual;
 *   - performance marks and measures carry virtual timestamps;
 *   - while real work is under way (requests, IndexedDB, decoding: see real-work.js), virtual
 *     time follows real time instead of jumping.
 * Not served (named in `hazards()` so that the studio can say so and use real time instead):
 * workers (their timers run on real time), audio contexts made by a script, the document's
 * animation timeline and Web Animations.
 *
 * The stage is not drawn on the virtual clock (nobody looks at it, and a software GPU would
 * otherwise fall seconds behind): `hookRenderer` keeps only the draws a snapshot asks for.
 * Also seeds Math.random, so that the same project, script and seed give the same run.
 * Exposes window.VirtualClock.
 */
(function () {
  'use strict';
  const real = {
    setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window),
    setInterval: window.setInterval.bind(window), clearInterval: window.clearInterval.bind(window),
    requestAnimationFrame: window.requestAnimationFrame && window.requestAnimationFrame.bind(window),
    cancelAnimationFrame: window.cancelAnimationFrame && window.cancelAnimationFrame.bind(window),
    requestIdleCallback: window.requestIdleCallback, cancelIdleCallback: window.cancelIdleCallback,
    perfNow: performance.now.bind(performance), Date: window.Date, random: Math.random,
    AudioContext: window.AudioContext || window.webkitAudioContext,
  };
  const POLL_STEP_MS = 0.5; // virtual time one sequencer work-timer poll costs
  const BUSY_READS = 200000; // clock reads within one turn beyond which the reader is busy-waiting
  const BUSY_STEP_MS = 0.001; // virtual time each further read costs

  /** Small, fast, seedable PRNG (mulberry32). */
  function seededRandom(seed) {
    let a = (seed >>> 0) || 0x9e3779b9;
    return function random() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function seedRandom(seed) { Math.random = seededRandom(seed); }

  const state = {
    installed: false, now: 0, epoch: 0, perfBase: 0, nextId: 1, timers: new Map(), fired: 0,
    reads: 0, busyReads: 0, hazards: new Set(), watched: [], restore: [], profile: null,
  };

  /**
   * Where the script phase goes (real milliseconds; `profile()` gives a copy): `steps`/`stepMs`
   * the VM's frames (its step timer, drawing included), `passes` the sequencer's work-timer polls
   * (about one per pass over the threads) and `skipped` those of them fast-forwarded (passes
   * that would have found every thread still waiting: hookSequencer), `draws`/`drawMs` the stage drawn for
   * real (a snapshot, a touching-colour test, a script's own draw call), `timers`/`timerMs`
   * every other timer fired (the helper library's sleeps and polls, the script's own timers),
   * `turns`/`turnMs` the page turns between timers (where the script's and helper library's
   * code runs once a timer resolved what they await), `idleMs` real time waited for real work.
   */
  function newProfile() {
    return { steps: 0, stepMs: 0, passes: 0, skipped: 0, draws: 0, drawMs: 0, timers: 0, timerMs: 0, turns: 0,
             turnMs: 0, idleMs: 0 };
  }

  /** A delay given to setTimeout or setInterval as a browser takes it: a WebIDL `long` (the
   * fraction dropped, NaN 0, past 2^31 wrapped). The VM's frame timer, setInterval(step,
   * 1000 / 30), ticks every 33 ms in a browser (30.3 frames a second), not every 33.33.
   * (Animation frames and sounds keep their exact times.) */
  function delayOf(delay) {
    return Number(delay) | 0;
  }

  function addTimer(fn, delay, args, repeat) {
    const id = state.nextId++;
    const ms = Math.max(0, Number(delay) || 0);
    state.timers.set(id, { id, fn, args, at: state.now + (repeat ? Math.max(ms, 1) : ms),
                           every: repeat ? Math.max(ms, 1) : 0, seq: id });
    return id;
  }
  function clearTimer(id) { state.timers.delete(id); }

  function nextTimer() {
    let best = null;
    for (const t of state.timers.values()) {
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }

  function fire(t) {
    if (t.every) {
      t.at += t.every;
      while (t.at <= state.now) t.at += t.every; // missed ticks are skipped, not caught up
      t.seq = state.nextId++;
    } else state.timers.delete(t.id);
    state.fired += 1;
    const p = state.profile;
    const began = real.perfNow();
    const steps = p ? p.steps : 0;
    try {
      if (typeof t.fn === 'function') t.fn(...(t.args || []));
      // eslint-disable-next-line no-new-func
      else new Function(String(t.fn))();
    } catch (err) {
      // as a browser does with a throwing timer callback: report it, and carry on
      if (typeof window.reportError === 'function') window.reportError(err);
      else console.error(err);
    }
    if (p && p.steps === steps) { p.timers += 1; p.timerMs += real.perfNow() - began; }
  }

  /** Every read of the clock: past BUSY_READS in one turn, each read moves time on. */
  function readClock() {
    state.reads += 1;
    if (state.reads > BUSY_READS) { state.now += BUSY_STEP_MS; state.busyReads += 1; }
    return state.now;
  }

  const macrotask = (() => {
    const channel = new MessageChannel();
    const queue = [];
    channel.port1.onmessage = () => { const r = queue.shift(); if (r) r(); };
    return () => new Promise((resolve) => { queue.push(resolve); channel.port2.postMessage(0); });
  })();

  function makeDate(RealDate) {
    function VirtualDate(...args) {
      if (!new.target) return new RealDate(state.epoch + readClock()).toString();
      const date = args.length === 0 ? new RealDate(state.epoch + readClock()) : new RealDate(...args);
      if (new.target !== VirtualDate) Object.setPrototypeOf(date, new.target.prototype);
      return date;
    }
    VirtualDate.prototype = RealDate.prototype;
    VirtualDate.now = () => Math.floor(state.epoch + readClock());
    VirtualDate.parse = RealDate.parse;
    VirtualDate.UTC = RealDate.UTC;
    Object.defineProperty(VirtualDate, 'name', { value: 'Date' });
    VirtualDate.toString = () => RealDate.toString();
    return VirtualDate;
  }

  function replace(owner, name, value) {
    const had = Object.prototype.hasOwnProperty.call(owner, name);
    const before = Object.getOwnPropertyDescriptor(owner, name);
    Object.defineProperty(owner, name, { value, configurable: true, writable: true });
    state.restore.push(() => {
      if (had) Object.defineProperty(owner, name, before);
      else delete owner[name];
    });
  }

  /**
   * Wrap what the virtual clock cannot serve so that its use is named, then let it work. Only
   * uses from the evaluation's own files count (their names on the call stack): the VM may
   * start a worker for a project's extension, which says nothing about the script.
   */
  function watchHazards() {
    const note = (name) => {
      const stack = String(new Error().stack || '');
      if (!state.watched.length || state.watched.some((file) => stack.includes(file))) {
        state.hazards.add(name);
      }
    };
    const constructors = {
      Worker: 'Worker (timers inside a worker run on real time)',
      SharedWorker: 'SharedWorker (timers inside a worker run on real time)',
      AudioContext: 'AudioContext made by the script (its clock is real time)',
      webkitAudioContext: 'AudioContext made by the script (its clock is real time)',
      OfflineAudioContext: 'OfflineAudioContext (rendered in real time)',
    };
    for (const [name, label] of Object.entries(constructors)) {
      const Real = window[name];
      if (typeof Real !== 'function') continue;
      const Watched = function (...args) { note(label); return Reflect.construct(Real, args, new.target || Real); };
      Watched.prototype = Real.prototype;
      replace(window, name, Watched);
    }
    if (window.Element && Element.prototype.animate) {
      const animate = Element.prototype.animate;
      replace(Element.prototype, 'animate', function (...args) {
        note('Element.animate (Web Animations run on real time)');
        return animate.apply(this, args);
      });
    }
    const timeline = Object.getOwnPropertyDescriptor(Document.prototype, 'timeline');
    if (timeline && timeline.get) {
      Object.defineProperty(document, 'timeline', {
        configurable: true,
        get() { note('document.timeline (the animation clock is real time)'); return timeline.get.call(document); },
      });
      state.restore.push(() => { delete document.timeline; });
    }
  }

  /** Performance marks and measures are stamped with virtual time, like performance.now(). */
  function virtualMarks() {
    const mark = performance.mark;
    const measure = performance.measure;
    if (typeof mark !== 'function' || typeof measure !== 'function') return;
    replace(performance, 'mark', function (name, options) {
      const opts = Object.assign({}, options);
      if (opts.startTime === undefined) opts.startTime = performance.now();
      return mark.call(performance, name, opts);
    });
    replace(performance, 'measure', function (name, start, end) {
      if (start !== null && typeof start === 'object') {
        const opts = Object.assign({}, start);
        if (opts.end === undefined && opts.duration === undefined) opts.end = performance.now();
        return measure.call(performance, name, opts);
      }
      const opts = { end: end !== undefined ? end : performance.now() };
      if (start !== undefined) opts.start = start;
      return measure.call(performance, name, opts);
    });
  }

  /** `options.watch`: the names of the files (as their sourceURL) whose uses are hazards. */
  function install(options = {}) {
    if (state.installed) return;
    state.installed = true;
    state.watched = (options.watch || []).filter(Boolean);
    state.now = 0;
    state.epoch = real.Date.now();
    state.perfBase = real.perfNow();
    state.hazards.clear();
    state.reads = 0;
    state.busyReads = 0;
    state.profile = newProfile();
    // Each replacement is undone at `uninstall` with the property as it was (the same function,
    // not a copy): a page used again must look exactly as before (page-reuse.js).
    replace(window, 'setTimeout', (fn, delay, ...args) => addTimer(fn, delayOf(delay), args, false));
    replace(window, 'setInterval', (fn, delay, ...args) => addTimer(fn, delayOf(delay), args, true));
    replace(window, 'clearTimeout', clearTimer);
    replace(window, 'clearInterval', clearTimer);
    replace(window, 'requestAnimationFrame',
      (fn) => addTimer(() => fn(state.perfBase + state.now), 1000 / 60, [], false));
    replace(window, 'cancelAnimationFrame', clearTimer);
    replace(window, 'requestIdleCallback', (fn) => addTimer(
      () => fn({ didTimeout: false, timeRemaining: () => 50 }), 1, [], false));
    replace(window, 'cancelIdleCallback', clearTimer);
    replace(performance, 'now', () => state.perfBase + readClock());
    replace(window, 'Date', makeDate(real.Date));
    virtualMarks();
    watchHazards();
    if (window.RealWork) window.RealWork.install();
  }

  // What a thread's status is (scratch-vm's Thread.STATUS_*), and the inputs of a `wait` block
  // whose value a pass may read again without any effect (no reporter that draws a random
  // number, reads a clock or calls out).
  const RUNNING = 0, PROMISE_WAIT = 1, YIELD = 2, YIELD_TICK = 3, DONE = 4;
  const PURE_INPUTS = new Set(['math_number', 'math_positive_number', 'math_whole_number',
    'math_integer', 'text', 'data_variable', 'argument_reporter_string_number']);

  /**
   * True when a pass of the sequencer over `threads` at the current virtual time would do
   * nothing but run each waiting `wait N seconds` block again and find it unfinished: every
   * thread then either waits on a promise or the next frame (after the frame's first pass), or
   * sits in a `wait` block (not in warp mode) whose timer has not run out and whose duration
   * input is a plain value. Anything else (a thread about to start, run or finish a block) and
   * it is false.
   */
  function passWouldIdle(threads, firstPassRan) {
    if (!threads.length) return false;
    for (let i = 0; i < threads.length; i++) {
      const thread = threads[i];
      const status = thread.status;
      if (!thread.stack.length || status === DONE || !thread.target) return false;
      if (status === PROMISE_WAIT) continue;
      if (status === YIELD_TICK) { if (firstPassRan) continue; return false; }
      if (status !== RUNNING && status !== YIELD) return false;
      const frame = thread.peekStackFrame();
      const context = frame && frame.executionContext;
      if (!context || !context.timer || frame.warpMode) return false;
      const container = thread.blockContainer;
      const block = container && container.getBlock(thread.peekStack());
      if (!block || block.opcode !== 'control_wait') return false;
      const input = block.inputs && block.inputs.DURATION;
      const argument = input && container.getBlock(input.block);
      if (!argument || !PURE_INPUTS.has(argument.opcode)) return false;
      if (!(context.timer.timeElapsed() < context.duration)) return false;
    }
    return true;
  }

  /**
   * Let the VM's work timer cost virtual time, so a step's busy re-polling ends; count the
   * VM's steps and their real time in the profile. With `fastForward`, the passes within a
   * frame that would find every thread still waiting on time are not run: the clock moves on
   * by what they would have cost, poll by poll (the same virtual times, to the bit), to the
   * pass where a wait ends or the frame's work time is used up. What the program does, and
   * when, is unchanged; a frame of waiting threads costs one pass instead of some fifty.
   */
  function hookSequencer(vm, options = {}) {
    const runtime = vm.runtime;
    const sequencer = runtime.sequencer;
    const timer = sequencer.timer;
    const elapsed = timer.timeElapsed.bind(timer);
    const fastForward = options.fastForward !== false;
    let polls = 0; // work-timer polls in the current step
    timer.timeElapsed = function () {
      state.now += POLL_STEP_MS;
      polls += 1;
      const p = state.profile;
      if (p) p.passes += 1;
      const work = 0.75 * runtime.currentStepTime; // the sequencer's WORK_TIME
      // From the third poll on, one pass has run (YIELD_TICK threads had their turn).
      if (fastForward && polls >= 2 && state.reads < BUSY_READS / 2 && !runtime.turboMode &&
          !runtime.redrawRequested) {
        while (elapsed() < work && passWouldIdle(runtime.threads, true)) {
          state.now += POLL_STEP_MS;
          if (p) { p.passes += 1; p.skipped += 1; }
        }
      }
      return elapsed();
    };
    const step = runtime._step;
    runtime._step = function (...args) {
      const began = real.perfNow();
      polls = 0;
      try {
        return step.apply(this, args);
      } finally {
        const p = state.profile;
        if (p) { p.steps += 1; p.stepMs += real.perfNow() - began; }
      }
    };
  }

  /** Draw the stage only when a snapshot waits for it; pen strokes are still flushed. */
  function hookRenderer(vm) {
    const renderer = vm.renderer;
    if (!renderer) return;
    const draw = renderer.draw.bind(renderer);
    renderer.draw = function () {
      if (this._snapshotCallbacks && this._snapshotCallbacks.length) {
        const began = real.perfNow();
        draw();
        const p = state.profile;
        if (p) { p.draws += 1; p.drawMs += real.perfNow() - began; }
        return;
      }
      if (typeof this._doExitDrawRegion === 'function') this._doExitDrawRegion();
    };
  }

  /** A buffer source whose `ended` comes after its duration in virtual time; no real playback. */
  function virtualSource(node) {
    const listeners = new Set();
    let timer = null;
    let started = false;
    let ended = false;
    const finish = () => {
      timer = null;
      if (ended) return;
      ended = true;
      const event = new Event('ended');
      for (const l of [...listeners]) {
        if (typeof l === 'function') l.call(node, event); else if (l && l.handleEvent) l.handleEvent(event);
      }
      if (typeof node.onended === 'function') node.onended(event);
    };
    const endAt = (seconds) => {
      if (timer !== null) clearTimer(timer);
      timer = addTimer(finish, Math.max(0, seconds * 1000 - state.now), [], false);
    };
    const invalid = (what) => new DOMException(`cannot ${what}`, 'InvalidStateError');
    node.addEventListener = (type, l, o) => (type === 'ended' ? listeners.add(l)
      : EventTarget.prototype.addEventListener.call(node, type, l, o));
    node.removeEventListener = (type, l, o) => (type === 'ended' ? listeners.delete(l)
      : EventTarget.prototype.removeEventListener.call(node, type, l, o));
    node.start = (when = 0, offset = 0) => {
      if (started) throw invalid('start a source twice');
      started = true;
      const rate = Math.abs(node.playbackRate.value) || 1;
      const length = node.buffer ? Math.max(0, node.buffer.duration - offset) : 0;
      if (!node.loop) endAt(Math.max(state.now / 1000, when) + length / rate);
    };
    node.stop = (when = 0) => {
      if (!started) throw invalid('stop a source that has not started');
      endAt(Math.max(state.now / 1000, when));
    };
    return node;
  }

  /** An AudioContext for the VM's audio engine whose clock is the virtual one. */
  function audioContext() {
    const context = new real.AudioContext();
    Object.defineProperty(context, 'currentTime', { get: () => state.now / 1000 });
    const create = context.createBufferSource.bind(context);
    context.createBufferSource = () => virtualSource(create());
    return context;
  }

  function uninstall() {
    if (!state.installed) return;
    while (state.restore.length) state.restore.pop()();
    if (window.RealWork) window.RealWork.uninstall();
    state.timers.clear();
    state.installed = false;
  }

  /**
   * Fire timers in virtual-time order until `until` settles. After each timer the page gets a
   * real macrotask turn, so promise chains settle before time moves on. Virtual time follows
   * real time instead of jumping while real work is under way (window.RealWork: requests,
   * IndexedDB, image and audio decoding...) and, with `{accelerate: false}`, all along (used
   * while the project loads): such work must not be overtaken by jumping timers.
   */
  async function drive(until, options = {}) {
    const accelerate = options.accelerate !== false;
    const realWork = () => (window.RealWork ? window.RealWork.pending() : 0);
    let anchor = null; // {real, virtual} while virtual time follows real time
    let settled = false;
    until.then(() => { settled = true; }, () => { settled = true; });
    let idleTurns = 0;
    const p = state.profile;
    while (!settled) {
      state.reads = 0;
      const turn = real.perfNow();
      await macrotask();
      if (p) { p.turns += 1; p.turnMs += real.perfNow() - turn; }
      if (settled) break;
      const follow = !accelerate || realWork() > 0;
      if (!follow) anchor = null;
      else if (!anchor) anchor = { real: real.perfNow(), virtual: state.now };
      if (anchor) state.now = Math.max(state.now, anchor.virtual + real.perfNow() - anchor.real);
      const t = nextTimer();
      if (!t || (anchor && t.at > state.now)) {
        idleTurns += 1; // nothing due: let real work (requests, decoding) go on
        const idle = real.perfNow();
        await new Promise((r) => real.setTimeout(r, Math.min(anchor ? 4 : 50, idleTurns)));
        if (p) p.idleMs += real.perfNow() - idle;
        continue;
      }
      idleTurns = 0;
      if (t.at > state.now) state.now = t.at;
      state.reads = 0;
      fire(t);
    }
  }

  window.VirtualClock = {
    install, uninstall, drive, seedRandom, hookSequencer, hookRenderer, audioContext,
    now: () => state.now,
    hazards: () => [...state.hazards],
    stats: () => ({ now: state.now, fired: state.fired, pending: state.timers.size, busyReads: state.busyReads }),
    profile: () => (state.profile ? { ...state.profile } : null),
    resetProfile: () => { state.profile = newProfile(); },
  };
}());
