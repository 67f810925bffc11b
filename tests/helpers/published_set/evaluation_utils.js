/**
 * Evaluation helpers of the Scratch Bench Studio published-style task set.
 *
 * The evaluation service installs this file in the page as window.EvaluationUtils before it
 * runs a task script `fn(vm, config, cleanup)`. Everything here works on the VM it is given and
 * uses the real clock of the page (setTimeout, Date.now): cases sample the running program.
 * Stage coordinates are Scratch coordinates (x right, y up, origin at the centre); the mouse is
 * posted as the editor posts it: client coordinates (origin top-left) of the stage as it is on
 * screen, 480x360 or the small stage's 240x180, with that size as canvasWidth/canvasHeight.
 */
class EvaluationUtils {
  static get STAGE_WIDTH() { return 480; }
  static get STAGE_HEIGHT() { return 360; }

  static sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  /** Poll `predicate` every `intervalMs` until it holds (true) or `timeoutMs` passes (false). */
  static async waitUntil(predicate, timeoutMs = 3000, intervalMs = 50) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      let ok = false;
      try { ok = Boolean(await predicate()); } catch (e) { ok = false; }
      if (ok) return true;
      if (Date.now() >= end) return false;
      await EvaluationUtils.sleep(intervalMs);
    }
  }

  /** Call `probe()` every `intervalMs` for `durationMs`; the list of what it returned. */
  static async sample(durationMs, intervalMs, probe) {
    const samples = [];
    const end = Date.now() + durationMs;
    while (Date.now() < end) {
      samples.push(probe(samples.length));
      await EvaluationUtils.sleep(intervalMs);
    }
    samples.push(probe(samples.length));
    return samples;
  }

  // ---- sprites, clones, variables -----------------------------------------------------------
  static sprite(vm, name) {
    const target = vm.runtime.getSpriteTargetByName(name);
    if (!target) {
      const names = vm.runtime.targets.filter((t) => !t.isStage && t.isOriginal).map((t) => t.sprite.name);
      throw new Error(`sprite "${name}" not found (sprites: ${names.join(', ')})`);
    }
    return target;
  }
  static clones(vm, name) {
    return vm.runtime.targets.filter((t) => !t.isOriginal && t.sprite && t.sprite.name === name);
  }
  static stage(vm) { return vm.runtime.getTargetForStage(); }
  static findVariable(vm, name, type = '') {
    const targets = [EvaluationUtils.stage(vm), ...vm.runtime.targets.filter((t) => !t.isStage && t.isOriginal)];
    for (const target of targets) {
      for (const variable of Object.values(target.variables)) {
        if (variable.name === name && variable.type === type) return variable;
      }
    }
    return null;
  }
  static variable(vm, name) {
    const variable = EvaluationUtils.findVariable(vm, name);
    return variable ? variable.value : undefined;
  }
  static numberVariable(vm, name) {
    const value = EvaluationUtils.variable(vm, name);
    if (value === undefined) throw new Error(`variable "${name}" not found`);
    return Number(value);
  }
  static setVariable(vm, name, value) {
    const variable = EvaluationUtils.findVariable(vm, name);
    if (!variable) throw new Error(`variable "${name}" not found`);
    variable.value = value;
  }
  static list(vm, name) {
    const variable = EvaluationUtils.findVariable(vm, name, 'list');
    return variable ? variable.value.slice() : undefined;
  }
  static costume(target) { return target.getCostumes()[target.currentCostume].name; }
  static backdrop(vm) {
    const stage = EvaluationUtils.stage(vm);
    return stage.getCostumes()[stage.currentCostume].name;
  }
  static touching(vm, a, b) {
    return EvaluationUtils.sprite(vm, a).isTouchingSprite(b);
  }
  /** Record every position a sprite takes from now on: {points: [{x, y, at}], stop()}. */
  static track(target) {
    const points = [];
    const onMove = (t) => points.push({ x: t.x, y: t.y, at: Date.now() });
    target.on('TARGET_MOVED', onMove);
    return { points, stop: () => target.removeListener('TARGET_MOVED', onMove) };
  }
  static position(target) { return { x: Math.round(target.x), y: Math.round(target.y) }; }
  static distance(a, b) { return Math.hypot(a.x - b.x, a.y - b.y); }
  static near(a, b, tolerance) { return Math.abs(Number(a) - Number(b)) <= tolerance; }

  // ---- running the program ------------------------------------------------------------------
  /** Resolve after the VM's next frame (step). */
  static nextFrame(vm) {
    return new Promise((resolve) => {
      const runtime = vm.runtime;
      const step = runtime._step;
      runtime._step = function (...args) {
        runtime._step = step;
        const out = step.apply(this, args);
        resolve();
        return out;
      };
    });
  }
  /** Stop everything, click the green flag, let one frame run, then wait `settleMs`. */
  static async start(vm, settleMs = 300) {
    vm.stopAll();
    await EvaluationUtils.sleep(50);
    vm.greenFlag();
    await Promise.race([EvaluationUtils.nextFrame(vm), EvaluationUtils.sleep(1000)]);
    await EvaluationUtils.sleep(settleMs);
  }
  /** Record every call of a block (by opcode) from now on: {count(), calls, stop()}. */
  static spyOpcode(vm, opcode) {
    const runtime = vm.runtime;
    const original = runtime._primitives[opcode];
    const calls = [];
    runtime._primitives[opcode] = function (args, util) {
      calls.push({ sprite: util.target.sprite.name, args: { ...args }, at: Date.now() });
      return original ? original.call(this, args, util) : undefined;
    };
    // blocks that already ran keep their function in a cache: forget it
    for (const target of runtime.targets) target.blocks.resetCache();
    return { calls, count: () => calls.length, stop: () => { runtime._primitives[opcode] = original; } };
  }

  // ---- keyboard and mouse -------------------------------------------------------------------
  static keyDown(vm, key) { vm.postIOData('keyboard', { key, isDown: true }); }
  static keyUp(vm, key) { vm.postIOData('keyboard', { key, isDown: false }); }
  static async pressKey(vm, key, holdMs = 100) {
    EvaluationUtils.keyDown(vm, key);
    await EvaluationUtils.sleep(holdMs);
    EvaluationUtils.keyUp(vm, key);
  }
  /** Hold `key` down for `ms` (one key-down event, as a held key without auto-repeat). */
  static async holdKey(vm, key, ms) { await EvaluationUtils.pressKey(vm, key, ms); }
  /**
   * The stage's size on screen: 480x360, or 240x180 when the editor shows the small stage.
   * The renderer finds the sprite under the mouse through this box, so clicks must use it.
   */
  static stageBox(vm) {
    const canvas = vm.renderer && vm.renderer.canvas;
    const width = canvas && canvas.clientWidth ? canvas.clientWidth : 480;
    const height = canvas && canvas.clientHeight ? canvas.clientHeight : 360;
    return { width, height };
  }
  /** Client coordinates (origin top-left of the stage on screen) of the stage point (x, y). */
  static toClient(vm, x, y) {
    const box = EvaluationUtils.stageBox(vm);
    return { x: (x + 240) * box.width / 480, y: (180 - y) * box.height / 360, box };
  }
  static mouse(vm, x, y, isDown) {
    const client = EvaluationUtils.toClient(vm, x, y);
    const data = { x: client.x, y: client.y, canvasWidth: client.box.width, canvasHeight: client.box.height };
    if (isDown !== undefined) data.isDown = isDown;
    vm.postIOData('mouse', data);
  }
  static moveMouse(vm, x, y) { EvaluationUtils.mouse(vm, x, y); }
  static async click(vm, x, y, holdMs = 80) {
    EvaluationUtils.mouse(vm, x, y, true);
    await EvaluationUtils.sleep(holdMs);
    EvaluationUtils.mouse(vm, x, y, false);
  }
  /** Click the middle of a sprite as it is drawn now. */
  static async clickSprite(vm, name, holdMs = 80) {
    const target = EvaluationUtils.sprite(vm, name);
    let { x, y } = target;
    if (vm.renderer && target.drawableID !== null) {
      const bounds = vm.renderer.getBounds(target.drawableID);
      if (bounds) { x = (bounds.left + bounds.right) / 2; y = (bounds.top + bounds.bottom) / 2; }
    }
    await EvaluationUtils.click(vm, x, y, holdMs);
  }

  // ---- say, ask, broadcasts -----------------------------------------------------------------
  /**
   * Listen to SAY events (say and think bubbles; '' when a bubble goes away):
   * {events, texts(sprite), last(sprite), current(sprite), find(pred), waitFor(pred, ms), stop()}.
   */
  static recordSays(vm) {
    const events = [];
    const onSay = (target, type, text) => {
      if (!target || !target.sprite) return;
      events.push({ sprite: target.sprite.name, type, text: String(text), at: Date.now() });
    };
    vm.runtime.on('SAY', onSay);
    const shown = (sprite) => events.filter((e) => e.text !== '' && (!sprite || e.sprite === sprite));
    return {
      events,
      texts: (sprite) => shown(sprite).map((e) => e.text),
      last: (sprite) => { const list = shown(sprite); return list.length ? list[list.length - 1].text : null; },
      current: (sprite) => {
        const list = events.filter((e) => !sprite || e.sprite === sprite);
        return list.length ? list[list.length - 1].text : '';
      },
      find: (pred) => shown().find((e) => pred(e.text, e)) || null,
      waitFor: (pred, timeoutMs) => EvaluationUtils.waitUntil(() => shown().some((e) => pred(e.text, e)), timeoutMs),
      stop: () => vm.runtime.removeListener('SAY', onSay),
    };
  }
  /** The text of the speech or thought bubble a sprite shows now ('' when none). */
  static bubble(vm, name) {
    const state = EvaluationUtils.sprite(vm, name).getCustomState('Scratch.looks');
    return state && state.text ? String(state.text) : '';
  }
  /**
   * Answer each `ask` with the next of `answers`, `delayMs` after the question appears:
   * {asked (questions), answered (times), count(), stop()}.
   */
  static answerQuestions(vm, answers, delayMs = 300) {
    const queue = answers.map(String);
    const asked = [];
    const answered = []; // when each answer was given (Date.now())
    const pending = new Set();
    const onQuestion = (question) => {
      if (question === null) return;
      asked.push(question);
      const reply = queue.length ? queue.shift() : '';
      const timer = setTimeout(() => {
        pending.delete(timer);
        answered.push(Date.now());
        vm.runtime.emit('ANSWER', reply);
      }, delayMs);
      pending.add(timer);
    };
    vm.runtime.on('QUESTION', onQuestion);
    const stop = () => {
      vm.runtime.removeListener('QUESTION', onQuestion);
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
    return { asked, answered, count: () => asked.length, stop };
  }
  /** Record broadcasts by the receive hats they start: {messages(), stop()}. */
  static recordBroadcasts(vm) {
    const runtime = vm.runtime;
    const original = runtime.startHats;
    const seen = [];
    runtime.startHats = function (opcode, fields, target) {
      if (opcode === 'event_whenbroadcastreceived' && fields) seen.push(String(fields.BROADCAST_OPTION).toLowerCase());
      return original.call(this, opcode, fields, target);
    };
    return { messages: () => seen.slice(), stop: () => { runtime.startHats = original; } };
  }

  // ---- cases and the result -----------------------------------------------------------------
  /** Run one named case with its own time limit; the case throws to fail. */
  static async runCase(vm, name, limitMs, run) {
    const meta = {};
    const started = Date.now();
    const detail = { name, passed: false, timeout: false, duration_ms: 0, error: null, meta };
    let timer = null;
    const limit = new Promise((resolve) => { timer = setTimeout(() => resolve('__case_timeout__'), limitMs); });
    try {
      const outcome = await Promise.race([Promise.resolve().then(() => run(meta)), limit]);
      if (outcome === '__case_timeout__') {
        detail.timeout = true;
        detail.error = `timed out after ${limitMs} ms`;
      } else {
        detail.passed = true;
      }
    } catch (err) {
      detail.error = String((err && err.message) || err);
    } finally {
      clearTimeout(timer);
      detail.duration_ms = Date.now() - started;
      for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' ']) EvaluationUtils.keyUp(vm, key);
      vm.stopAll();
    }
    console.log(`[${detail.passed ? 'PASS' : 'FAIL'}] ${name}${detail.error ? ': ' + detail.error : ''}`);
    return detail;
  }
  static summarize(details) {
    const passed = details.filter((d) => d.passed).length;
    return {
      success: details.length > 0 && passed === details.length,
      passed_tests: passed,
      total_tests: details.length,
      partial_success_rate: details.length ? passed / details.length : 0,
      details,
    };
  }
  static assert(condition, message) { if (!condition) throw new Error(message); }
}

module.exports = EvaluationUtils;
