/*
 * Scratch Bench Studio evaluation helpers, installed in the page as window.EvaluationUtils.
 *
 * Written for the studio; same calling convention as the ScratchWorld helper library:
 * evaluation scripts are `module.exports = async (vm, config, cleanup) => result` and call these
 * functions with the VM they are given. Every helper works on that VM only.
 */
(function () {
  'use strict';
  const STAGE_W = 480;
  const STAGE_H = 360;

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // ---- targets, sprites, variables -------------------------------------------------------
  function getStage(vm) { return vm.runtime.getTargetForStage(); }
  function getSprites(vm) { return vm.runtime.targets.filter((t) => t.isOriginal && !t.isStage); }
  function spriteNames(vm) { return getSprites(vm).map((t) => t.sprite.name); }
  function findSprite(vm, name) {
    const exact = vm.runtime.getSpriteTargetByName(name);
    if (exact) return exact;
    const lower = String(name).toLowerCase();
    return getSprites(vm).find((t) => t.sprite.name.toLowerCase() === lower) || null;
  }
  function requireSprite(vm, name) {
    const t = findSprite(vm, name);
    if (!t) throw new Error(`no sprite named "${name}" (sprites: ${spriteNames(vm).join(', ')})`);
    return t;
  }
  function getClones(vm, name) {
    const t = requireSprite(vm, name);
    return t.sprite.clones.filter((c) => !c.isOriginal);
  }
  function countClones(vm, name) { return getClones(vm, name).length; }

  function findVariable(vm, name, spriteName, type) {
    const kind = type === undefined ? '' : type;
    const targets = spriteName ? [requireSprite(vm, spriteName), getStage(vm)] : [getStage(vm), ...getSprites(vm)];
    for (const t of targets) {
      for (const v of Object.values(t.variables)) {
        if (v.name === name && v.type === kind) return v;
      }
    }
    return null;
  }
  function getVariableValue(vm, name, spriteName) {
    const v = findVariable(vm, name, spriteName, '');
    return v ? v.value : undefined;
  }
  function setVariableValue(vm, name, value, spriteName) {
    const v = findVariable(vm, name, spriteName, '');
    if (!v) throw new Error(`no variable named "${name}"`);
    v.value = value;
  }
  function getList(vm, name, spriteName) {
    const v = findVariable(vm, name, spriteName, 'list');
    return v ? v.value.slice() : undefined;
  }

  function getSpriteState(vm, name) {
    const t = requireSprite(vm, name);
    return {
      x: t.x, y: t.y, direction: t.direction, size: t.size, visible: t.visible,
      costume: t.getCostumes()[t.currentCostume].name, costumeIndex: t.currentCostume,
      layer: t.getLayerOrder ? t.getLayerOrder() : null,
    };
  }
  function getPosition(vm, name) { const t = requireSprite(vm, name); return { x: t.x, y: t.y }; }
  function getBackdropName(vm) { const s = getStage(vm); return s.getCostumes()[s.currentCostume].name; }
  function isTouching(vm, nameA, nameB) {
    const a = requireSprite(vm, nameA);
    if (nameB === '_edge_' || nameB === '_mouse_') return a.isTouchingObject(nameB);
    return a.isTouchingSprite(nameB);
  }

  // ---- running the project ---------------------------------------------------------------
  function greenFlag(vm) { vm.greenFlag(); }
  function stopAll(vm) { vm.stopAll(); }
  function runningThreads(vm) { return vm.runtime.threads.filter((th) => th.status !== 4).length; }
  async function waitUntil(predicate, timeoutMs = 3000, intervalMs = 20) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      let ok = false;
      try { ok = await predicate(); } catch (e) { ok = false; }
      if (ok) return true;
      if (Date.now() >= end) return false;
      await sleep(intervalMs);
    }
  }
  async function waitForIdle(vm, timeoutMs = 3000) {
    return waitUntil(() => vm.runtime.threads.length === 0, timeoutMs);
  }
  /** Call `fn` after every VM step (frame); returns a function that stops the calls. */
  function onStep(vm, fn) {
    const rt = vm.runtime;
    if (!rt.__studioStepHooked) {
      const original = rt._step;
      rt._step = function () { original.call(this); this.emit('STUDIO_STEP'); };
      rt.__studioStepHooked = true;
    }
    rt.on('STUDIO_STEP', fn);
    return () => rt.off('STUDIO_STEP', fn);
  }
  /** Wait for a number of VM frames (30 per second in compatibility mode). */
  function waitFrames(vm, frames) {
    return new Promise((resolve) => {
      let seen = 0;
      const stop = onStep(vm, () => { seen += 1; if (seen >= frames) { stop(); resolve(); } });
    });
  }

  // ---- keyboard ------------------------------------------------------------------------------
  const KEY_NAMES = {
    space: ' ', 'left arrow': 'ArrowLeft', 'right arrow': 'ArrowRight', 'up arrow': 'ArrowUp',
    'down arrow': 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', up: 'ArrowUp', down: 'ArrowDown',
    enter: 'Enter',
  };
  function domKey(key) { const k = String(key); return KEY_NAMES[k.toLowerCase()] || k; }
  function keyDown(vm, key) { vm.postIOData('keyboard', { key: domKey(key), isDown: true }); }
  function keyUp(vm, key) { vm.postIOData('keyboard', { key: domKey(key), isDown: false }); }
  async function pressKey(vm, key, holdMs = 100) {
    keyDown(vm, key);
    await sleep(holdMs);
    keyUp(vm, key);
  }

  // ---- mouse ---------------------------------------------------------------------------------
  function toClient(x, y) { return { x: x + STAGE_W / 2, y: STAGE_H / 2 - y }; }
  function postMouse(vm, x, y, isDown) {
    const c = toClient(x, y);
    const data = { x: c.x, y: c.y, canvasWidth: STAGE_W, canvasHeight: STAGE_H };
    if (isDown !== undefined) data.isDown = isDown;
    vm.postIOData('mouse', data);
  }
  function moveMouse(vm, x, y) { postMouse(vm, x, y); }
  function mouseDown(vm, x, y) { postMouse(vm, x, y, true); }
  function mouseUp(vm, x, y) { postMouse(vm, x, y, false); }
  async function clickAt(vm, x, y, holdMs = 50) {
    mouseDown(vm, x, y);
    await sleep(holdMs);
    mouseUp(vm, x, y);
  }
  /** Click a sprite where it is drawn (falls back to its position when nothing is drawn). */
  async function clickSprite(vm, name, holdMs = 50) {
    const t = requireSprite(vm, name);
    let x = t.x;
    let y = t.y;
    const r = vm.renderer;
    if (r && t.drawableID !== null) {
      const b = r.getBounds(t.drawableID);
      if (b) { x = (b.left + b.right) / 2; y = (b.top + b.bottom) / 2; }
    }
    await clickAt(vm, x, y, holdMs);
  }
  function getMouse(vm) {
    const m = vm.runtime.ioDevices.mouse;
    return { x: m.getScratchX(), y: m.getScratchY(), down: m.getIsDown() };
  }

  // ---- events: say, ask, broadcasts --------------------------------------------------------
  /** Record every say/think bubble: returns {events, texts(sprite), last(sprite), waitFor, stop}. */
  function recordSays(vm) {
    const events = [];
    const onSay = (target, type, text) => {
      events.push({ sprite: target.sprite.name, isClone: !target.isOriginal, type, text: String(text), at: Date.now() });
    };
    vm.runtime.on('SAY', onSay);
    return {
      events,
      texts: (sprite) => events.filter((e) => !sprite || e.sprite === sprite).map((e) => e.text).filter((t) => t !== ''),
      last: (sprite) => { const l = events.filter((e) => (!sprite || e.sprite === sprite) && e.text !== ''); return l.length ? l[l.length - 1].text : null; },
      clear: () => { events.length = 0; },
      waitFor: (pred, timeoutMs = 3000) => waitUntil(() => events.some((e) => e.text !== '' && pred(e.text, e)), timeoutMs),
      stop: () => vm.runtime.off('SAY', onSay),
    };
  }
  function sayText(vm, name) {
    const t = requireSprite(vm, name);
    const bubble = t.getCustomState && t.getCustomState('Scratch.looks');
    return bubble && bubble.text ? String(bubble.text) : '';
  }
  /** Answer `ask` blocks in order with `answers`; returns {questions, stop}. */
  function autoAnswer(vm, answers) {
    const queue = answers.map(String);
    const questions = [];
    const onQuestion = (question) => {
      if (question === null) return;
      questions.push(String(question));
      const next = queue.length ? queue.shift() : '';
      setTimeout(() => vm.runtime.emit('ANSWER', next), 0);
    };
    vm.runtime.on('QUESTION', onQuestion);
    return { questions, stop: () => vm.runtime.off('QUESTION', onQuestion) };
  }
  function answer(vm, text) { vm.runtime.emit('ANSWER', String(text)); }
  function broadcast(vm, message) {
    vm.runtime.startHats('event_whenbroadcastreceived', { BROADCAST_OPTION: String(message) });
  }
  /** Record broadcasts the program sends (by watching which receive hats start). */
  function recordBroadcasts(vm) {
    const seen = [];
    const runtime = vm.runtime;
    const original = runtime.startHats;
    runtime.startHats = function (opcode, fields, target) {
      if (opcode === 'event_whenbroadcastreceived' && fields) seen.push({ message: fields.BROADCAST_OPTION, at: Date.now() });
      return original.call(this, opcode, fields, target);
    };
    return { messages: () => seen.map((s) => s.message), events: seen, stop: () => { runtime.startHats = original; } };
  }

  // ---- tests ---------------------------------------------------------------------------------
  class AssertionFailed extends Error {}
  function check(condition, message) { if (!condition) throw new AssertionFailed(message || 'check failed'); }
  function approx(a, b, tol = 0.5) { return Math.abs(Number(a) - Number(b)) <= tol; }

  /**
   * Run named cases one after another, each with its own time limit, and build the result in
   * the ScratchWorld shape. A case is {name, run: async (ctx) => void | meta, timeoutMs?, reset?}.
   * Before each case the VM is stopped; a case fails when it throws or runs out of time. A case
   * that runs out of time cannot be cancelled: register its clean-up with ctx.defer(fn).
   * Note: when a visible sprite asks, the VM shows the question as a say bubble (a SAY event).
   */
  async function runTests(vm, cases, options = {}) {
    const details = [];
    for (const c of cases) {
      if (c.reset !== false) { vm.stopAll(); await sleep(0); }
      const started = Date.now();
      const limit = c.timeoutMs || options.caseTimeoutMs || 10000;
      const deferred = [];
      // ctx.defer(fn): run fn after the case, even when it timed out (remove listeners etc.).
      const ctx = { vm, meta: {}, defer: (fn) => deferred.push(fn) };
      let timer;
      const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve('__timeout'), limit); });
      const detail = { name: c.name, passed: false, timeout: false, duration_ms: 0, error: null, meta: ctx.meta };
      try {
        const value = await Promise.race([Promise.resolve().then(() => c.run(ctx)), timeout]);
        if (value === '__timeout') {
          detail.timeout = true;
          detail.error = `timed out after ${limit} ms`;
        } else {
          detail.passed = true;
          if (value && typeof value === 'object') Object.assign(detail.meta, value);
        }
      } catch (err) {
        detail.error = String(err && err.message || err);
      } finally {
        clearTimeout(timer);
        detail.duration_ms = Date.now() - started;
        for (const fn of deferred.reverse()) { try { fn(); } catch (e) { /* keep going */ } }
      }
      details.push(detail);
    }
    vm.stopAll();
    if (typeof options.cleanup === 'function') options.cleanup();
    return buildResult(details);
  }
  function buildResult(details) {
    const passed = details.filter((d) => d.passed).length;
    const total = details.length;
    return {
      success: total > 0 && passed === total, passed_tests: passed, total_tests: total,
      partial_success_rate: total ? passed / total : 0, details,
    };
  }

  const EvaluationUtils = {
    sleep, wait: sleep, getStage, getSprites, spriteNames, findSprite, getSprite: findSprite, requireSprite,
    getClones, countClones, findVariable, getVariableValue, setVariableValue, getList, getSpriteState,
    getPosition, getBackdropName, isTouching, greenFlag, stopAll, runningThreads, waitUntil, waitForIdle,
    waitFrames, onStep, keyDown, keyUp, pressKey, moveMouse, mouseDown, mouseUp, clickAt, clickSprite, getMouse,
    recordSays, sayText, autoAnswer, answer, broadcast, recordBroadcasts, check, approx, runTests,
    buildResult, AssertionFailed,
  };
  if (typeof module !== 'undefined') module.exports = EvaluationUtils;
  else window.EvaluationUtils = EvaluationUtils;
}());
