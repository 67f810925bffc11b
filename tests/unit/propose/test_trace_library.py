"""The trace library (behaviour-trace.js) in Node, against a fake VM, with no browser.

The fake VM has a stage whose one variable takes a new Math.random() on every frame, a Drop
sprite whose three clones (from the green flag on) appear and fall 10 steps a frame until they
delete themselves; the page's own virtual-clock.js seeds Math.random.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from studio.services.core import paths
from studio.services.propose import codegen

CLOCK = paths.JS_DIR / "virtual-clock.js"

FAKE_VM = r"""
let now = 0;
Date.now = () => now;
const listeners = [];
const stage = {
  isStage: true, isOriginal: true, currentCostume: 0, sprite: { clones: [] },
  variables: { r: { type: '', name: 'r', value: 0 } },
  getCostumes: () => [{ name: 'backdrop1' }], setCostume() {},
};
const drop = {
  isOriginal: true, x: 0, y: 100, direction: 90, size: 100, visible: false, currentCostume: 0,
  effects: {}, variables: {}, getCostumes: () => [{ name: 'drop' }],
  setXY(x, y) { this.x = x; this.y = y; }, setDirection() {}, setSize() {}, setVisible() {},
  clearEffects() {}, setEffect() {}, setCostume() {},
};
drop.sprite = { name: 'Drop', clones: [drop] };
const fakeVm = {
  runtime: { targets: [stage, drop], on() {}, removeListener() {}, ioDevices: {} },
  stopAll() { drop.sprite.clones = [drop]; },
};
let falling = false;
let made = 0;
function frame() {
  now += 33;
  stage.variables.r.value = Math.floor(Math.random() * 1000);
  if (falling && made < 3) {
    made += 1;
    drop.sprite.clones.push({ isOriginal: false, x: made * 20, y: 100 });
  }
  for (const c of drop.sprite.clones) if (!c.isOriginal) c.y -= 10;
  drop.sprite.clones = drop.sprite.clones.filter((c) => c.isOriginal || c.y > 40);
  listeners.slice().forEach((f) => f());
}
var EvaluationUtils = {
  getStage: () => stage, getSprites: () => [drop], greenFlag() { falling = true; },
  waitFrames: async (_vm, n) => { for (let i = 0; i < n; i += 1) frame(); },
  sleep: async (ms) => { const end = now + ms; while (now + 33 <= end) frame(); now = end; },
  onStep: (_vm, f) => {
    listeners.push(f);
    return () => listeners.splice(listeners.indexOf(f), 1);
  },
  recordBroadcasts: () => ({ events: [], stop() {} }),
  autoAnswer: () => ({ questions: [], stop() {} }),
};
"""

NODE_RUN = r"""
const vm = require('vm');
const { clock, library } = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const [fake, body] = process.argv.slice(1);
const ctx = {
  console, setTimeout, clearTimeout, setInterval, clearInterval, performance, MessageChannel,
  done: (v) => { console.log(JSON.stringify(v)); process.exit(0); }, // the clock keeps a port open
};
ctx.window = ctx;
vm.createContext(ctx);
vm.runInContext(clock, ctx); // the page's VirtualClock, whose seedRandom seeds Math.random
vm.runInContext(fake + library + body, ctx);
"""


def _run(body: str) -> Any:
    """What `body` passes to done(), run after the fake VM and the trace library."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    out = subprocess.run(
        [node, "-e", NODE_RUN, FAKE_VM, body],
        input=json.dumps(
            {"clock": CLOCK.read_text(encoding="utf-8"), "library": codegen.library_source()}
        ),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


def test_a_scenario_of_a_random_program_does_not_depend_on_the_scenarios_before_it() -> None:
    """Scenario B played after A and played first in a fresh run of the same seed records the
    same values; without the per-scenario reseeding, B after A would read the numbers A left in
    the generator."""
    runs = _run(
        """
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
          done({ afterA: afterA.changes['var:r'], first: first.changes['var:r'],
                 otherSeed: otherSeed.changes['var:r'] });
        })();
        """
    )
    assert len(runs["first"]) > 5  # the variable changed on (nearly) every frame
    assert runs["afterA"] == runs["first"]
    assert runs["otherSeed"] != runs["first"]  # the run's seed still decides


def test_how_far_clones_went_is_recorded_after_they_are_gone() -> None:
    """Three Drop clones fall from y 100 and delete themselves below y 40: the number of clones
    ends at 0, but the lowest y a clone reached (and the other extremes) stays to be tested."""
    rec = _run(
        """
        (async () => {
          const steps = [{ at: 100, do: 'flag', arg: '' }];
          const rec = await ProposedTrace.play(fakeVm, { steps, duration: 500 });
          done({ end: rec.end, first: rec.changes['Drop.clones:min y'][0] });
        })();
        """
    )
    end = rec["end"]
    assert end["Drop.clones"] == 0
    assert (end["Drop.clones:min y"], end["Drop.clones:max y"]) == (50, 90)
    assert (end["Drop.clones:min x"], end["Drop.clones:max x"]) == (20, 60)
    assert rec["first"][0] >= 100  # from the first clone on, not at 0 ms
