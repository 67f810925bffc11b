"""Fast-forwarding the VM's idle passes on the virtual clock (issue 39) changes nothing the
program does: with and without it, the same evaluation sees the same state at every frame, at
the same virtual times, and only the passes that would have found every thread still waiting
are skipped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import Clock
from studio.services.core.store import load_task
from studio.services.runtime import evaluator
from tests.helpers.published_set.kit import (
    changevar,
    clone,
    costume,
    flag,
    forever,
    hide,
    look,
    on_clone,
    point,
    project,
    random,
    repeat,
    setvar,
    turn,
    wait,
)
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

# Every frame for 3 s of program time: when it ran (from the script's start, in hundredths of a
# millisecond), and what the program's state was. The script starts at a virtual time that
# follows the project's real load time, so the fraction of a millisecond it starts at differs
# from run to run, and with it, by rounding, whether a frame's work time runs out at its 50th
# poll or its 49th: two runs of the same evaluation (either way) may differ by that half
# millisecond in when a frame ends, never in what the program did.
TRACE = """module.exports = async (vm) => {
  const U = EvaluationUtils;
  const frames = [];
  const p0 = performance.now();
  const stop = U.onStep(vm, () => {
    const light = U.findSprite(vm, 'Light');
    const clones = U.getClones(vm, 'Spinner').map((c) => `${c.direction}:${Math.round(c.x)}`);
    const shown = light.getCostumes()[light.currentCostume].name;
    frames.push([Math.round((performance.now() - p0) * 100), shown,
                 U.getVariableValue(vm, 'rolls'), clones.join(',')]);
  });
  U.greenFlag(vm);
  await U.sleep(3000);
  stop();
  return { success: true, details: [{ name: 'trace', passed: true, meta: { frames } }] };
};
"""


def _project() -> bytes:
    p = project()
    light = p.add_sprite(
        "Light", [look("red", 40, 40, "#d00000"), look("green", 40, 40, "#38b000")], -100, 0
    )
    p.add_variable("rolls", 0)
    p.add_variable("pause", 0.2)
    light.add_script(
        flag(), forever(costume("red"), wait(0.3), costume("green"), wait(_var("pause")))
    )
    dice = p.add_sprite("Dice", [look("dice", 20, 20, "#222222")], 100, 100)
    p.add_variable("d", 0)
    dice.add_script(
        flag(),
        hide(),
        setvar("rolls", 0),
        forever(setvar("d", random(0.2, 0.6)), wait(_var("d")), changevar("rolls", 1)),
    )
    spinner = p.add_sprite("Spinner", [look("arm", 60, 8, "#e76f51")], 0, 0)
    spinner.add_script(flag(), point(-170), repeat(40, clone(), turn(3)))
    spinner.add_script(on_clone(), wait(0.15), _move(20))
    return p.build()


def _var(name: str) -> Any:
    from studio.services.core.projectbuild import block

    return block("data_variable", VARIABLE=name)


def _move(steps: float) -> Any:
    from studio.services.core.projectbuild import block

    return block("motion_movesteps", STEPS=steps)


def test_fast_forward_keeps_every_frame(
    tmp_path: Path, evaluate: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_task(tmp_path / "t", script=TRACE)
    (folder / "golden.sb3").write_bytes(_project())
    entry = load_task(folder)
    runs = {}
    for fast in (False, True):
        monkeypatch.setattr(evaluator, "FAST_FORWARD", fast)
        result = evaluate(entry, clock=Clock.VIRTUAL, seed=7)
        assert result.error is None, result.error
        runs[fast] = result
    slow, fast = runs[False], runs[True]
    frames = slow.details[0].meta["frames"]  # type: ignore[index]
    other = fast.details[0].meta["frames"]  # type: ignore[index]
    assert len(frames) >= 80  # about 30 frames a second for 3 s
    assert [f[1:] for f in other] == [f[1:] for f in frames]  # the same state, frame by frame
    assert all(abs(a[0] - b[0]) <= 50 for a, b in zip(other, frames, strict=True))
    assert {f[1] for f in frames} == {"red", "green"} and int(frames[-1][2]) >= 1
    assert slow.timings.profile is not None and fast.timings.profile is not None
    assert slow.timings.profile.vm_skipped == 0
    assert fast.timings.profile.vm_skipped > 0
    # the same polls of the work timer, skipped or run (give or take one a frame: see above)
    assert abs(fast.timings.profile.vm_passes - slow.timings.profile.vm_passes) <= len(frames)
