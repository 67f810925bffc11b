/*
 * Behaviour traces, for the tests `studio propose` writes (studio.services.propose).
 *
 * This file is not loaded by any page on its own: its text is copied into the scripts that
 * studio.services.propose.codegen writes (the trace recorder and every proposed evaluation
 * script), so that what is recorded while proposing and what a proposed test checks are made
 * by the same code. It defines one global, ProposedTrace, and uses the studio's helper
 * library: PROPOSED_HELPERS when the script defines it (a task whose own helper library is
 * window.EvaluationUtils gets the studio's embedded under that name), else
 * window.EvaluationUtils. ProposedTrace.helpers is the library it uses.
 *
 * ProposedTrace.play(vm, scenario) puts the program back in the state it had when the script
 * started (sprites, variables, lists, backdrop, timer), on a seeded page reseeds Math.random
 * for the scenario (from the run's first random number and the scenario), runs the scenario's
 * steps at their virtual times ({at, do, arg}; do is 'flag', 'key', 'click', 'click_stage',
 * 'broadcast', 'touch' (puts the sprite arg[0] where the sprite arg[1] is) or 'scramble'
 * (moves, turns, hides every sprite and puts it on its next costume, and adds 7 to every
 * numeric variable: a start "from anywhere")),
 * answers `ask` blocks with scenario.answers in order, and records until scenario.duration:
 *   changes    {observable: [[ms, value], ...]}: each observable's value at 0 ms (or when it
 *              first exists) and at every VM frame where it changed (see `observe`);
 *   end        {observable: value} after the last frame;
 *   says       [[ms, sprite, text]] every say/think, clones included ('' clears a bubble);
 *   broadcasts [[ms, message]] every broadcast the program sent (the scenario's own excluded);
 *   questions  [[ms, text]] every question asked.
 * ProposedTrace.recording(vm, id, scenario) plays a scenario once per evaluation and shares the
 * recording between the tests that read it. The helpers after it (same, dedupe, firstTime,
 * intervals) are what the proposed checks call.
 */
const ProposedTrace = (function () {
  'use strict';
  // eslint-disable-next-line no-undef
  const EU = typeof PROPOSED_HELPERS !== 'undefined' ? PROPOSED_HELPERS : EvaluationUtils;
  const FRAME_OFFSET_MS = 10;
  const EFFECTS = ['color', 'fisheye', 'whirl', 'pixelate', 'mosaic', 'brightness', 'ghost'];
  let start = null;
  let base = null;
  let recordings = {};
  let reach = {}; // per sprite, the extremes its clones reached in the scenario playing

  function hash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  /** Numbers (and numeric text, as Scratch compares it) rounded to 1/1000; other values as text. */
  function norm(value) {
    if (typeof value === 'boolean') return value;
    const n = Number(value);
    const numeric = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '');
    if (numeric && Number.isFinite(n)) return Math.round(n * 1000) / 1000;
    return String(value);
  }

  function bubble(t) {
    const state = t.getCustomState && t.getCustomState('Scratch.looks');
    return state && state.text ? String(state.text) : '';
  }

  function penDown(t) {
    const state = t.getCustomState && t.getCustomState('Scratch.pen');
    return Boolean(state && state.penDown);
  }

  function addVariables(out, t, prefix) {
    for (const v of Object.values(t.variables)) {
      if (v.type === '') out[`${prefix}var:${v.name}`] = norm(v.value);
      else if (v.type === 'list') out[`${prefix}list:${v.name}`] = JSON.stringify(v.value.map(norm));
    }
  }

  /** How far the clones of `t` have gone since the scenario started (from the first clone
   * on): 'Drop.clones:min y' is the lowest y any Drop clone was seen at. A clone that falls
   * 20 steps and deletes itself leaves nothing else to see once it is gone. */
  function addCloneReach(out, t, prefix) {
    const name = t.sprite.name;
    for (const c of t.sprite.clones) {
      if (c.isOriginal) continue;
      if (!reach[name]) reach[name] = { 'min x': c.x, 'max x': c.x, 'min y': c.y, 'max y': c.y };
      const r = reach[name];
      r['min x'] = Math.min(r['min x'], c.x);
      r['max x'] = Math.max(r['max x'], c.x);
      r['min y'] = Math.min(r['min y'], c.y);
      r['max y'] = Math.max(r['max y'], c.y);
    }
    for (const [k, v] of Object.entries(reach[name] || {})) out[`${prefix}clones:${k}`] = norm(v);
  }

  /** Every observable of the program now, by name ('Cat.x', 'var:score', 'backdrop', ...). */
  function observe(vm) {
    const stage = EU.getStage(vm);
    const out = { backdrop: stage.getCostumes()[stage.currentCostume].name };
    addVariables(out, stage, '');
    for (const t of EU.getSprites(vm)) {
      const p = `${t.sprite.name}.`;
      out[`${p}x`] = norm(t.x);
      out[`${p}y`] = norm(t.y);
      out[`${p}direction`] = norm(t.direction);
      out[`${p}costume`] = t.getCostumes()[t.currentCostume].name;
      out[`${p}size`] = norm(t.size);
      out[`${p}visible`] = t.visible;
      out[`${p}layer`] = t.getLayerOrder ? t.getLayerOrder() : 0;
      for (const e of EFFECTS) out[`${p}effect:${e}`] = norm(t.effects[e] || 0);
      out[`${p}says`] = bubble(t);
      out[`${p}clones`] = t.sprite.clones.length - 1;
      addCloneReach(out, t, p);
      out[`${p}pen`] = penDown(t);
      addVariables(out, t, p);
    }
    return out;
  }

  function copyVariables(t) {
    const out = {};
    for (const [id, v] of Object.entries(t.variables)) {
      out[id] = Array.isArray(v.value) ? v.value.slice() : v.value;
    }
    return out;
  }

  /** What the program holds when the script starts, to put back before each scenario. */
  function snapshot(vm) {
    return vm.runtime.targets.filter((t) => t.isOriginal).map((t) => ({
      target: t, x: t.x, y: t.y, direction: t.direction, size: t.size, visible: t.visible,
      costume: t.currentCostume, effects: { ...t.effects }, variables: copyVariables(t),
    }));
  }

  function restore(vm, snap) {
    for (const s of snap) {
      const t = s.target;
      if (!t.isStage) {
        t.setXY(s.x, s.y);
        t.setDirection(s.direction);
        t.setSize(s.size);
        t.setVisible(s.visible);
        t.clearEffects();
        for (const [name, value] of Object.entries(s.effects)) t.setEffect(name, value);
      }
      t.setCostume(s.costume);
      for (const [id, value] of Object.entries(s.variables)) {
        if (t.variables[id]) t.variables[id].value = Array.isArray(value) ? value.slice() : value;
      }
    }
    const clock = vm.runtime.ioDevices.clock;
    if (clock && clock.resetProjectTimer) clock.resetProjectTimer();
  }

  /** Start "from anywhere": every sprite moved, turned, on its next costume and hidden, every
   * numeric variable changed. */
  function scramble(vm) {
    for (const t of [EU.getStage(vm), ...EU.getSprites(vm)]) {
      if (!t.isStage) {
        t.setXY(t.x + 40, t.y - 30);
        t.setDirection(t.direction + 15);
        t.setCostume(t.currentCostume + 1);
        t.setVisible(false);
      }
      for (const v of Object.values(t.variables)) {
        if (v.type === '' && typeof norm(v.value) === 'number') v.value = Number(v.value) + 7;
      }
    }
  }

  async function act(vm, step) {
    if (step.do === 'scramble') scramble(vm);
    else if (step.do === 'flag') EU.greenFlag(vm);
    else if (step.do === 'key') await EU.pressKey(vm, step.arg, 50);
    else if (step.do === 'click') {
      if (EU.findSprite(vm, step.arg)) await EU.clickSprite(vm, step.arg, 50);
    } else if (step.do === 'click_stage') await EU.clickAt(vm, -235, -175, 50);
    else if (step.do === 'broadcast') EU.broadcast(vm, step.arg);
    else if (step.do === 'touch') {
      const [sprite, other] = step.arg.map((name) => EU.findSprite(vm, name));
      if (sprite && other) sprite.setXY(other.x, other.y);
    }
  }

  async function sleepUntil(time) {
    const left = time - Date.now();
    if (left > 0) await EU.sleep(left);
  }

  async function play(vm, scenario) {
    if (start === null) start = snapshot(vm);
    // Each scenario draws its random numbers from a generator of its own, seeded from the run's
    // first number and the scenario: a random program then plays a scenario the same way
    // whichever scenarios played before it (in a script of all candidates, or of the kept few).
    // Only a seeded page (the studio's virtual clock) needs it: elsewhere every run is random.
    // eslint-disable-next-line no-undef
    const clock = typeof VirtualClock !== 'undefined' ? VirtualClock : null;
    if (clock && clock.seedRandom) {
      if (base === null) base = Math.floor(Math.random() * 4294967296);
      clock.seedRandom(base ^ hash(JSON.stringify(scenario)));
    }
    vm.stopAll();
    restore(vm, start);
    // Start 10 ms after a VM frame (30 a second): the steps then fall at the same point between
    // frames whatever ran before (other scenarios, in a script of many tests), and never on a
    // frame, so a key held for 50 ms is seen by the same frames in the script that proposes and
    // in the script that checks.
    await EU.waitFrames(vm, 1);
    await EU.sleep(FRAME_OFFSET_MS);
    reach = {};
    const t0 = Date.now();
    const stamp = () => Date.now() - t0;
    let last = observe(vm);
    const changes = {};
    for (const [k, v] of Object.entries(last)) changes[k] = [[0, v]];
    const stopSteps = EU.onStep(vm, () => {
      const now = observe(vm);
      for (const [k, v] of Object.entries(now)) {
        if (last[k] !== v) (changes[k] = changes[k] || []).push([stamp(), v]);
      }
      last = now;
    });
    const says = [];
    const onSay = (target, type, text) => says.push([stamp(), target.sprite.name, String(text)]);
    vm.runtime.on('SAY', onSay);
    const sent = EU.recordBroadcasts(vm);
    const asked = EU.autoAnswer(vm, scenario.answers || []);
    const ours = [];
    try {
      for (const step of scenario.steps) {
        await sleepUntil(t0 + step.at);
        if (step.do === 'broadcast') ours.push(step.arg);
        await act(vm, step);
      }
      await sleepUntil(t0 + scenario.duration);
    } finally {
      stopSteps();
      vm.runtime.removeListener('SAY', onSay);
      sent.stop();
      asked.stop();
      vm.stopAll();
    }
    const broadcasts = sent.events.map((e) => [e.at - t0, String(e.message)])
      .filter(([, m]) => { const i = ours.indexOf(m); if (i < 0) return true; ours.splice(i, 1); return false; });
    return { changes, end: last, says, broadcasts, questions: asked.questions.map((q) => [0, q]) };
  }

  /** The recording of scenario `id`, played once per evaluation. */
  async function recording(vm, id, scenario) {
    if (!recordings[id]) recordings[id] = await play(vm, scenario);
    return recordings[id];
  }

  // ---- what the checks read --------------------------------------------------------------
  /** Equal as Scratch shows them: numbers within `tol`, anything else as text. */
  function same(a, b, tol = 0.5) {
    if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= tol;
    return String(a) === String(b);
  }
  function values(rec, key) { return (rec.changes[key] || []).map(([, v]) => v); }
  /** The values one after another, each run of equal values once. */
  function dedupe(list) { return list.filter((v, i) => i === 0 || !same(v, list[i - 1], 1e-9)); }
  function sequence(rec, key) { return dedupe(values(rec, key)); }
  function sameSequence(a, b) { return a.length === b.length && a.every((v, i) => same(v, b[i])); }
  /** When `key` first had `value` (ms from the scenario's start), or null. */
  function firstTime(rec, key, value) {
    const hit = (rec.changes[key] || []).find(([, v]) => same(v, value));
    return hit ? hit[0] : null;
  }
  /** The ms between consecutive changes of `key`. */
  function intervals(rec, key) {
    const times = (rec.changes[key] || []).map(([t]) => t).slice(1);
    return times.slice(1).map((t, i) => t - times[i]);
  }
  function texts(rec, sprite) {
    return dedupe(rec.says.filter(([, s, text]) => s === sprite && text !== '').map(([, , text]) => text));
  }
  function messages(rec) { return rec.broadcasts.map(([, m]) => m); }
  function show(list, max = 12) {
    const shown = list.slice(0, max).map((v) => JSON.stringify(v)).join(', ');
    return list.length > max ? `${shown}, … (${list.length} values)` : shown;
  }

  return {
    observe, play, recording, same, values, sequence, sameSequence, firstTime, intervals, texts,
    messages, show, helpers: EU, reset: () => { start = null; base = null; recordings = {}; },
  };
}());
