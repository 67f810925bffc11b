/*
 * What lets an evaluation page run one evaluation after another without any of them reaching
 * the next (studio.services.browser reuses a page only when `check()` here, and the pool's own
 * checks, say it is clean). Loaded after the runner's other scripts and before any evaluation.
 *
 * The page's state falls in three parts, each kept from one evaluation to the next:
 *   1. The Scratch classes (VM, storage, renderer, bitmap adapter, audio engine) and everything
 *      their modules keep: each evaluation gets its own instance of the bundle's modules
 *      (ScratchClasses.fresh: the compiled module functions run again into an empty module
 *      cache), so classes, prototypes and module state are never shared (but for three pure
 *      modules made once per page and frozen: scratch-classes.js says which and why).
 *   2. The realm (JavaScript intrinsics, the window and every object reachable from it through
 *      properties and prototypes, the bundle's shared exports included) and the document:
 *      `baseline()` records, before the first evaluation, each reachable object's prototype,
 *      extensibility and property descriptors (values by identity), plus the document and the
 *      host state a property walk does not see (window.name, title, cookie, location, fonts,
 *      adopted style sheets, storage); `check()` compares after each evaluation. Any difference
 *      (a polluted prototype, a global left behind, a replaced method, a node added) means the
 *      page is discarded, never cleaned up by guesswork.
 *   3. Work that could run later: timers, intervals, animation frames, idle callbacks and
 *      listeners added to the window, document or its nodes during an evaluation are tracked
 *      and cancelled (removed) at its end (on the virtual clock they
 *      live in the clock's own table, emptied); channels, workers, observers, sockets and event
 *      sources made during an evaluation, real work still pending (requests, decoding) and
 *      popups make the page unclean. Event listeners on the window and the document are
 *      compared by the pool through the DevTools protocol (they are not properties).
 * The walk runs on references taken when this file loads, so a script that replaces a built-in
 * cannot change how the page is checked (the replacement itself is a difference).
 * Exposes window.PageReuse = {baseline, check, trackWork, endWork, nextTurn, uses, ...}.
 */
(function () {
  'use strict';
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const describe = Reflect.getOwnPropertyDescriptor;
  const protoOf = Reflect.getPrototypeOf;
  const extensible = Reflect.isExtensible;
  const M = Map.prototype;
  const mapGet = M.get, mapSet = M.set, mapHas = M.has;
  const A = Array.prototype;
  const push = A.push, pop = A.pop;
  const toStr = String;
  const win = window;
  const doc = document;
  const outerHTML = describe(Element.prototype, 'outerHTML').get;
  const docEl = describe(Document.prototype, 'documentElement').get;
  const nameGet = describe(win, 'name') ? describe(win, 'name').get : null;
  const titleGet = describe(Document.prototype, 'title').get;
  const cookieGet = describe(Document.prototype, 'cookie').get;
  const hrefGet = describe(Location.prototype, 'href')
    ? describe(Location.prototype, 'href').get : describe(win.location, 'href').get;
  const loc = win.location;
  const fonts = doc.fonts;
  const fontsSize = fonts ? describe(protoOf(fonts), 'size').get : null;
  const adoptedGet = describe(Document.prototype, 'adoptedStyleSheets')
    ? describe(Document.prototype, 'adoptedStyleSheets').get : null;
  const lsGet = describe(win, 'localStorage') ? describe(win, 'localStorage').get : null;
  const ssGet = describe(win, 'sessionStorage') ? describe(win, 'sessionStorage').get : null;
  const storageLength = describe(Storage.prototype, 'length').get;
  const realNow = performance.now.bind(performance); // before any virtual clock
  const ET = EventTarget.prototype;
  const addListener = ET.addEventListener, removeListener = ET.removeEventListener;
  const real = {
    setTimeout: win.setTimeout, clearTimeout: win.clearTimeout,
    setInterval: win.setInterval, clearInterval: win.clearInterval,
    requestAnimationFrame: win.requestAnimationFrame, cancelAnimationFrame: win.cancelAnimationFrame,
    requestIdleCallback: win.requestIdleCallback, cancelIdleCallback: win.cancelIdleCallback,
    setImmediate: win.setImmediate, clearImmediate: win.clearImmediate, // the bundle's polyfill
  };
  // (A script that reaches another realm's timers through a frame of its own leaves a node in
  // the document; removed, the frame's timers die with it.)
  // Constructors of things that can call back later on their own: made during an evaluation,
  // they make the page unclean (nothing lists them afterwards to prove they are quiet).
  const SOURCES = ['MessageChannel', 'BroadcastChannel', 'Worker', 'SharedWorker', 'WebSocket',
    'EventSource', 'MutationObserver', 'ResizeObserver', 'IntersectionObserver',
    'PerformanceObserver', 'ReportingObserver', 'RTCPeerConnection', 'Notification', 'Audio',
    'AudioContext', 'webkitAudioContext', 'OfflineAudioContext'];
  const RealAudioContext = win.AudioContext || win.webkitAudioContext;

  let base = null; // {records: Map(object -> record), size: objects reachable, host: [...]}
  let work = null; // what the current evaluation made: timers by kind, sources
  let made = 0; // sources made by evaluations (counted while `work` is set)
  let uses = 0;
  let refuseWorkers = false; // while a VM's storage is made (see withoutWorkers)
  let pendingWork = 0; // real work an evaluation left pending (eval-runner.js counts it)

  const symbolIds = new Map();
  function keyName(key) {
    if (typeof key !== 'symbol') return toStr(key);
    let id = apply(mapGet, symbolIds, [key]);
    if (id === undefined) { id = `@${symbolIds.size}`; apply(mapSet, symbolIds, [key, id]); }
    return id;
  }

  const S = Set.prototype;
  const setHas = S.has, setAdd = S.add;
  const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');
  // Two values are the same when identical, NaN matching NaN and -0 matching 0 (as their
  // printed forms, which an earlier version of this walk compared, match).
  const same = (a, b) => a === b || (a !== a && b !== b);
  const DATA = 8; // flag of a data property (else an accessor)

  /**
   * Every object reachable from the window through own properties and prototypes; `visit(o,
   * proto, extensible, keys, descriptors)` is called once per object. The walk keeps nothing
   * but the objects it has seen, so a check costs the property reads and no more.
   */
  function walk(visit) {
    const seen = new Set();
    const stack = [win];
    const reach = (v) => { if (isObject(v) && !apply(setHas, seen, [v])) apply(push, stack, [v]); };
    while (stack.length) {
      const o = apply(pop, stack, []);
      if (apply(setHas, seen, [o])) continue;
      apply(setAdd, seen, [o]);
      const proto = protoOf(o);
      reach(proto);
      const keys = ownKeys(o);
      const purify = typeof o === 'function' && describe(o, 'sanitize') && describe(o, 'isSupported');
      const descriptors = [];
      for (let i = 0; i < keys.length; i++) {
        // DOMPurify's `removed`, reset by every sanitize, and a key that vanished under the walk
        const d = purify && keys[i] === 'removed' ? undefined : describe(o, keys[i]);
        apply(push, descriptors, [d]);
        if (!d) continue;
        if ('value' in d) reach(d.value);
        else { reach(d.get); reach(d.set); }
      }
      visit(o, proto, extensible(o), keys, descriptors);
    }
    return seen.size;
  }

  /** An own property as the baseline keeps it: key, flags, value (or getter), setter. */
  function flagsOf(d) {
    return (d.enumerable ? 1 : 0) + (d.configurable ? 2 : 0) + (d.writable ? 4 : 0) + ('value' in d ? DATA : 0);
  }

  /** The record of every reachable object: [prototype, extensible, then per own property its
   * key, flags, value or getter, setter]. */
  function record() {
    const records = new Map();
    const size = walk((o, proto, ext, keys, descriptors) => {
      const rec = [proto, ext];
      for (let i = 0; i < keys.length; i++) {
        const d = descriptors[i];
        if (!d) continue;
        const data = 'value' in d;
        apply(push, rec, [keys[i], flagsOf(d), data ? d.value : d.get, data ? undefined : d.set]);
      }
      apply(mapSet, records, [o, rec]);
    });
    return { records, size };
  }

  /** '' when `o` is as the baseline recorded it, else the first difference, named. */
  function compare(rec, proto, ext, keys, descriptors) {
    if (rec === undefined) return 'new';
    if (rec[0] !== proto) return 'its prototype';
    if (rec[1] !== ext) return ext ? 'became extensible' : 'became non-extensible';
    let j = 2;
    for (let i = 0; i < keys.length; i++) {
      const d = descriptors[i];
      if (!d) continue;
      const key = keys[i];
      if (j >= rec.length || rec[j] !== key) return `${keyName(key)} added or moved`;
      const data = 'value' in d;
      if (rec[j + 1] !== flagsOf(d)) return `${keyName(key)}: its attributes`;
      if (!same(rec[j + 2], data ? d.value : d.get) || !same(rec[j + 3], data ? undefined : d.set)) {
        return `${keyName(key)}: its value`;
      }
      j += 4;
    }
    return j === rec.length ? '' : `${keyName(rec[j])} removed`;
  }

  /** Host state that is not a property value: the document, names, storage, fonts. */
  function hostState() {
    const storageLen = (get) => {
      try { return get ? apply(storageLength, apply(get, win, []), []) : 0; } catch (e) { return 'denied'; }
    };
    return [
      apply(outerHTML, apply(docEl, doc, []), []),
      nameGet ? apply(nameGet, win, []) : '', apply(titleGet, doc, []), apply(cookieGet, doc, []),
      apply(hrefGet, loc, []), fontsSize ? apply(fontsSize, fonts, []) : 0,
      adoptedGet ? apply(adoptedGet, doc, []).length : 0, storageLen(lsGet), storageLen(ssGet),
    ];
  }

  const HOST = ['document', "window's name", 'title', 'cookie', 'location', 'fonts',
    'adopted style sheets', 'local storage', 'session storage'];

  /** Record the clean page; once, before any evaluation runs. */
  function baseline() {
    if (base) return;
    const { records, size } = record();
    base = { records, size, host: hostState() };
  }

  /** Differences from the baseline (at most a few, named), or [] for a clean page. */
  function check() {
    if (!base) return ['the page has no baseline'];
    const found = [];
    if (work) found.push('an evaluation is still running');
    if (made) found.push(`${made} channel(s), worker(s) or observer(s) made by an evaluation`);
    if (pendingWork) found.push('real work (requests, decoding) was still pending at the end');
    const host = hostState();
    for (let i = 0; i < host.length; i++) {
      if (host[i] !== base.host[i]) found.push(`the ${HOST[i]} changed`);
    }
    const changed = [];
    const size = walk((o, proto, ext, keys, descriptors) => {
      if (changed.length > 5) return;
      const why = compare(apply(mapGet, base.records, [o]), proto, ext, keys, descriptors);
      if (why) apply(push, changed, [`an object changed: ${describeObject(o)} (${toStr(why).slice(0, 120)})`]);
    });
    if (size !== base.size) found.push(`${size - base.size} object(s) more reachable from the window`);
    for (const line of changed) if (found.length <= 5) found.push(line);
    uses += 1;
    return found;
  }

  function describeObject(o) {
    try {
      const ctor = o && describe(o, 'constructor');
      const name = typeof o === 'function' ? o.name : (ctor && ctor.value && ctor.value.name);
      return toStr(name || typeof o).slice(0, 80);
    } catch (e) { return typeof o; }
  }

  /** From now on timers, animation frames and idle callbacks are tracked, and the sources of
   * later callbacks counted, until `endWork()`; on the virtual clock the clock installs its
   * own timers over these (and empties them at its end). */
  function trackWork() {
    work = { timeouts: new Set(), intervals: new Set(), frames: new Set(), idles: new Set(),
      immediates: new Set(), listeners: [] };
    const w = work;
    const tracked = (set, make, clear) => function (...args) {
      const id = apply(make, win, args);
      set.add(id);
      return id;
    };
    win.setTimeout = tracked(w.timeouts, real.setTimeout);
    win.setInterval = tracked(w.intervals, real.setInterval);
    if (real.requestAnimationFrame) win.requestAnimationFrame = tracked(w.frames, real.requestAnimationFrame);
    if (real.requestIdleCallback) win.requestIdleCallback = tracked(w.idles, real.requestIdleCallback);
    if (real.setImmediate) win.setImmediate = tracked(w.immediates, real.setImmediate);
    // Listeners added to the window, the document or its nodes are removed at the end (the
    // VM's sandbox frames listen on the window); the pool then compares every listener of
    // the window and document with the baseline's, so one added another way is still found.
    ET.addEventListener = function (type, listener, options) {
      if (this === win || this === doc || (this instanceof Node && this.isConnected)) {
        w.listeners.push([this, type, listener, options]);
      }
      return apply(addListener, this, [type, listener, options]);
    };
  }

  /** Cancel the timers, intervals, frames and idle callbacks the evaluation has scheduled so
   * far (it still runs under tracking: `endWork` cancels what comes after). */
  function cancelScheduled() {
    const w = work;
    if (!w) return;
    for (const id of w.timeouts) apply(real.clearTimeout, win, [id]);
    if (real.clearImmediate) for (const id of w.immediates) apply(real.clearImmediate, win, [id]);
    for (const id of w.intervals) apply(real.clearInterval, win, [id]);
    if (real.cancelAnimationFrame) for (const id of w.frames) apply(real.cancelAnimationFrame, win, [id]);
    if (real.cancelIdleCallback) for (const id of w.idles) apply(real.cancelIdleCallback, win, [id]);
  }

  /** Cancel what the evaluation left scheduled and put the window's own functions back. */
  function endWork(pending) {
    pendingWork += pending || 0;
    const w = work;
    if (!w) return;
    cancelScheduled();
    for (const name of Object.keys(real)) if (real[name]) win[name] = real[name];
    ET.addEventListener = addListener;
    for (const [target, type, listener, options] of w.listeners) {
      try { apply(removeListener, target, [type, listener, options]); } catch (e) { /* gone */ }
    }
    work = null;
  }

  // Count sources of later callbacks made while an evaluation runs (the wrapper is in place
  // before the baseline, so it is part of what the baseline records).
  for (const name of SOURCES) {
    const Real = win[name];
    if (typeof Real !== 'function') continue;
    const worker = name === 'Worker' || name === 'SharedWorker';
    const Counted = function (...args) {
      if (worker && refuseWorkers) throw new DOMException('no workers here', 'SecurityError');
      if (work) made += 1;
      return Reflect.construct(Real, args, new.target || Real);
    };
    Counted.prototype = Real.prototype;
    Object.defineProperty(Counted, 'name', { value: name });
    const d = describe(win, name);
    Object.defineProperty(win, name, { ...d, value: Counted });
  }
  if (window.AbortSignal && typeof AbortSignal.timeout === 'function') {
    const timeout = AbortSignal.timeout;
    AbortSignal.timeout = function (ms) { if (work) made += 1; return apply(timeout, AbortSignal, [ms]); };
  }
  if (window.scheduler && typeof window.scheduler.postTask === 'function') {
    const Sched = protoOf(window.scheduler);
    const postTask = Sched.postTask;
    Sched.postTask = function (...args) { if (work) made += 1; return apply(postTask, this, args); };
  }

  /** `make()` with workers refused: scratch-storage starts a fetch worker with each instance of
   * its module, which a project loaded from its own file never uses (the storage falls back to
   * fetching on the page), and which would outlive the evaluation. */
  function withoutWorkers(make) {
    refuseWorkers = true;
    try { return make(); } finally { refuseWorkers = false; }
  }

  /** Wait (at most `limitMs`, in real time) until `pending()` is 0: real work an evaluation's
   * VM started (an image decode its renderer does not await) finishes, and what follows it
   * runs, before the page is checked. */
  function settle(pending, limitMs) {
    const start = realNow();
    return new Promise((resolve) => {
      const poll = () => {
        if (!pending() || realNow() - start > limitMs) resolve();
        else apply(real.setTimeout, win, [poll, 10]);
      };
      poll();
    });
  }

  /** A promise settled in a later real macrotask: every microtask queued before it (a
   * script's promise chain, however long) has run by then, so a check after it sees what
   * they did. */
  function nextTurn() {
    return new Promise((resolve) => { apply(real.setTimeout, win, [resolve, 0]); });
  }

  /** The audio context of an evaluation's VM (closed at its end): not one a script made. */
  const audioContext = () => new RealAudioContext();

  window.PageReuse = {
    baseline, check, trackWork, cancelScheduled, endWork, withoutWorkers, audioContext, settle,
    nextTurn, uses: () => uses,
  };
}());
