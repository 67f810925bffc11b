"""Accelerated (virtual-clock) evaluation: faithful to real time, deterministic under a seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.evaluation import Clock, ErrorKind
from studio.services.core.store import load_task
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

TIMED_SCRIPT = """module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  return U.runTests(vm, [
    { name: 'waits 3 s of program time', run: async () => {
      U.greenFlag(vm);
      const t0 = Date.now();
      await U.sleep(3000);
      const elapsed = Date.now() - t0;
      U.check(elapsed >= 3000 && elapsed < 30000, `elapsed ${elapsed}`);
      return { elapsed };
    }},
    { name: 'moved', run: async () => {
      U.greenFlag(vm); await U.waitForIdle(vm);
      U.check(U.approx(U.getPosition(vm, 'Cat').x, 100), 'x');
    }},
  ], { cleanup });
};
"""

RANDOM_SCRIPT = """module.exports = async (vm) => {
  const values = [Math.random(), Math.random(), Math.random()];
  return { success: true, details: [{ name: 'random', passed: true, meta: { values } }] };
};
"""

NEVER_SCRIPT = "module.exports = () => new Promise(() => {});"


def _verdicts(result):  # type: ignore[no-untyped-def]
    return [(d.name, d.passed) for d in result.details]


def test_virtual_and_real_verdicts_agree(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = load_task(make_task(tmp_path / "t", script=TIMED_SCRIPT))
    virtual_runs = []
    for project in (entry.golden_path, entry.initial_path):
        real = evaluate(entry, project, clock=Clock.REAL)
        virtual = evaluate(entry, project, clock=Clock.VIRTUAL)
        assert real.error is None and virtual.error is None
        assert _verdicts(real) == _verdicts(virtual)
        virtual_runs.append(virtual)
    fast = virtual_runs[0]  # the golden project's run on the virtual clock
    assert fast.clock is Clock.VIRTUAL
    assert fast.timings.program_s is not None and fast.timings.program_s >= 3.0
    assert fast.timings.script_s < fast.timings.program_s  # faster than real time


def test_same_seed_same_randomness(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = load_task(make_task(tmp_path / "t", script=RANDOM_SCRIPT))

    def values(seed: int, clock: Clock) -> list[float]:
        result = evaluate(entry, clock=clock, seed=seed)
        return result.details[0].meta["values"]  # type: ignore[index]

    seeded = values(5, Clock.VIRTUAL)
    assert seeded == values(5, Clock.VIRTUAL) == values(5, Clock.REAL)
    assert seeded != values(6, Clock.VIRTUAL)


def test_never_resolving_script_times_out_in_virtual_time(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = load_task(make_task(tmp_path / "t", script=NEVER_SCRIPT, timeout_s=600))
    result = evaluate(entry, clock=Clock.VIRTUAL)
    assert result.error is not None and result.error.kind is ErrorKind.TIMEOUT
    # the script's ten minutes passed on the virtual clock, not on the wall: the run ended
    # (by the page's own limit) well before ten real minutes (no speed figure asserted here)
    assert result.timings.program_s is not None and result.timings.program_s >= 600
    assert result.timings.total_s < 600


# A script that loads another project during its run, given as JSON text: its costumes name
# assets the page's storage does not hold, so the VM loads its default costume instead, with
# real work (the image decodes and the promise and message turns between them) that is not all
# counted as such. On the virtual clock time jumped to the script's limit while that load was
# under way, in about half the runs (found by a bench of issue 39's fifth pass); such a load now
# counts as real work until it settles (eval-runner.js `countLoads`).
LOADS_JSON_SCRIPT = """module.exports = async (vm) => {
  const t0 = Date.now();
  await vm.loadProject(JSON.stringify(%s));
  const loaded = vm.runtime.targets.map((t) => t.getName());
  return { success: loaded.includes('Box'),
           details: [{ name: 'the project loaded', passed: loaded.includes('Box'),
                       meta: { loaded, ms: Date.now() - t0 } }] };
};"""


def test_a_project_a_script_loads_as_json_is_waited_for_on_the_virtual_clock(
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    import io
    import zipfile

    from studio.services.core.projectbuild import Costume, ProjectBuilder

    builder = ProjectBuilder()
    builder.add_sprite("Box", [Costume.rect("box", 30, 30, "#00ff00")])
    with zipfile.ZipFile(io.BytesIO(builder.build())) as zf:
        project = zf.read("project.json").decode()
    entry = load_task(make_task(tmp_path / "t", script=LOADS_JSON_SCRIPT % project, timeout_s=8))
    outcomes = [evaluate(entry, clock=Clock.VIRTUAL) for _ in range(6)]  # about half failed
    assert [(r.success, r.error) for r in outcomes] == [(True, None)] * 6, outcomes
    for result in outcomes:  # program time passed as a load takes, not the limit's 8 s
        assert result.details[0].meta["ms"] < 8000, result.details[0]
