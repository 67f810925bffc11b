"""A random program plays a scenario the same way whichever scenarios played before it.

behaviour-trace.js runs in Node against a fake VM whose one variable takes a new Math.random()
on every frame, with a stand-in for the page's VirtualClock (what seeds Math.random): scenario B
played after A and played first in a fresh run of the same seed records the same values. Without
the per-scenario reseeding, B after A would read the numbers A left in the generator.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from studio.services.propose import codegen

NODE_RUN = r"""
const vm = require('vm');
const source = require('fs').readFileSync(0, 'utf8');
const ctx = { console };
vm.createContext(ctx);
vm.runInContext(`
function mulberry(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
var VirtualClock = { seedRandom(s) { Math.random = mulberry(s); } };
let now = 0;
Date.now = () => now;
const listeners = [];
const stage = {
  isStage: true, isOriginal: true, currentCostume: 0, sprite: { clones: [] },
  variables: { r: { type: '', name: 'r', value: 0 } },
  getCostumes: () => [{ name: 'backdrop1' }], setCostume() {},
};
const fakeVm = { runtime: { targets: [stage], on() {}, removeListener() {}, ioDevices: {} },
                 stopAll() {} };
function frame() {
  now += 33;
  stage.variables.r.value = Math.floor(Math.random() * 1000);
  listeners.slice().forEach((f) => f());
}
var EvaluationUtils = {
  getStage: () => stage, getSprites: () => [], greenFlag() {},
  waitFrames: async (_vm, n) => { for (let i = 0; i < n; i += 1) frame(); },
  sleep: async (ms) => { const end = now + ms; while (now + 33 <= end) frame(); now = end; },
  onStep: (_vm, f) => {
    listeners.push(f);
    return () => listeners.splice(listeners.indexOf(f), 1);
  },
  recordBroadcasts: () => ({ events: [], stop() {} }),
  autoAnswer: () => ({ questions: [], stop() {} }),
};
` + source + `
const A = { steps: [{ at: 0, do: 'flag', arg: '' }], duration: 400 };
const B = { steps: [{ at: 0, do: 'flag', arg: '' }], duration: 300, answers: [] };
(async () => {
  VirtualClock.seedRandom(7);
  await ProposedTrace.play(fakeVm, A);
  const afterA = await ProposedTrace.play(fakeVm, B);
  ProposedTrace.reset();
  VirtualClock.seedRandom(7);
  const first = await ProposedTrace.play(fakeVm, B);
  ProposedTrace.reset();
  VirtualClock.seedRandom(8);
  const otherSeed = await ProposedTrace.play(fakeVm, B);
  globalThis.done({ afterA: afterA.changes['var:r'], first: first.changes['var:r'],
                    otherSeed: otherSeed.changes['var:r'] });
})();
`, Object.assign(ctx, { done: (v) => console.log(JSON.stringify(v)) }));
"""


def test_a_scenario_of_a_random_program_does_not_depend_on_the_scenarios_before_it() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    out = subprocess.run(
        [node, "-e", NODE_RUN],
        input=codegen.library_source(),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    runs = json.loads(out.stdout)
    assert len(runs["first"]) > 5  # the variable changed on (nearly) every frame
    assert runs["afterA"] == runs["first"]
    assert runs["otherSeed"] != runs["first"]  # the run's seed still decides
