/*
 * A virtual clock for evaluation pages: timers, Date, performance.now and
 * requestAnimationFrame follow virtual time, which jumps straight to the next due timer
 * instead of waiting for it. The VM's sequencer advances the clock a little on each of its
 * work-timer polls, so a step behaves like a real step of a fast machine (threads waiting on
 * a timer are re-polled within the frame until the frame's work time is used up).
 *
 * Also seeds Math.random, so that the same project, script and seed give the same run.
 * Exposes window.VirtualClock = {install(options), drive(untilPromise), now(), uninstall()}.
 */
(function () {
  'use strict';
  const real = {
    setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window),
    setInterval: window.setInterval.bind(window), clearInterval: window.clearInterval.bind(window),
    requestAnimationFrame: window.requestAnimationFrame && window.requestAnimationFrame.bind(window),
    cancelAnimationFrame: window.cancelAnimationFrame && window.cancelAnimationFrame.bind(window),
    perfNow: performance.now.bind(performance), Date: window.Date, random: Math.random,
  };
  const POLL_STEP_MS = 0.5; // virtual time one sequencer work-timer poll costs

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
  };

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
    if (t.every) { t.at += t.every; t.seq = state.nextId++; } else state.timers.delete(t.id);
    state.fired += 1;
    if (typeof t.fn === 'function') t.fn(...(t.args || []));
    // eslint-disable-next-line no-new-func
    else new Function(String(t.fn))();
  }

  const macrotask = (() => {
    const channel = new MessageChannel();
    const queue = [];
    channel.port1.onmessage = () => { const r = queue.shift(); if (r) r(); };
    return () => new Promise((resolve) => { queue.push(resolve); channel.port2.postMessage(0); });
  })();

  function install() {
    if (state.installed) return;
    state.installed = true;
    state.now = 0;
    state.epoch = real.Date.now();
    state.perfBase = real.perfNow();
    window.setTimeout = (fn, delay, ...args) => addTimer(fn, delay, args, false);
    window.setInterval = (fn, delay, ...args) => addTimer(fn, delay, args, true);
    window.clearTimeout = clearTimer;
    window.clearInterval = clearTimer;
    window.requestAnimationFrame = (fn) => addTimer(() => fn(state.perfBase + state.now), 1000 / 60, [], false);
    window.cancelAnimationFrame = clearTimer;
    performance.now = () => state.perfBase + state.now;
    const RealDate = real.Date;
    class VirtualDate extends RealDate {
      constructor(...args) { if (args.length === 0) super(state.epoch + state.now); else super(...args); }
      static now() { return state.epoch + state.now; }
    }
    window.Date = VirtualDate;
  }

  /** Let the VM's work timer cost virtual time, so a step's busy re-polling ends. */
  function hookSequencer(vm) {
    const timer = vm.runtime.sequencer.timer;
    const elapsed = timer.timeElapsed.bind(timer);
    timer.timeElapsed = function () { state.now += POLL_STEP_MS; return elapsed(); };
  }

  function uninstall() {
    if (!state.installed) return;
    window.setTimeout = real.setTimeout; window.clearTimeout = real.clearTimeout;
    window.setInterval = real.setInterval; window.clearInterval = real.clearInterval;
    if (real.requestAnimationFrame) window.requestAnimationFrame = real.requestAnimationFrame;
    if (real.cancelAnimationFrame) window.cancelAnimationFrame = real.cancelAnimationFrame;
    performance.now = real.perfNow;
    window.Date = real.Date;
    state.timers.clear();
    state.installed = false;
  }

  /**
   * Fire timers in virtual-time order until `until` settles. After each timer the page gets a
   * real macrotask turn, so promise chains settle before time moves on. With
   * `{accelerate: false}` virtual time follows real time (used while the project loads: real
   * work such as workers and image decoding must not be overtaken by jumping timers).
   */
  async function drive(until, options = {}) {
    const accelerate = options.accelerate !== false;
    const realStart = real.perfNow() - state.now;
    let settled = false;
    until.then(() => { settled = true; }, () => { settled = true; });
    let idleTurns = 0;
    while (!settled) {
      await macrotask();
      if (settled) break;
      if (!accelerate) state.now = Math.max(state.now, real.perfNow() - realStart);
      const t = nextTimer();
      if (!t || (!accelerate && t.at > state.now)) {
        idleTurns += 1; // nothing due: let real work (workers, decoding) go on
        await new Promise((r) => real.setTimeout(r, Math.min(accelerate ? 50 : 4, idleTurns)));
        continue;
      }
      idleTurns = 0;
      if (t.at > state.now) state.now = t.at;
      fire(t);
    }
  }

  window.VirtualClock = {
    install, uninstall, drive, seedRandom, hookSequencer, now: () => state.now,
    stats: () => ({ now: state.now, fired: state.fired, pending: state.timers.size }),
  };
}());
