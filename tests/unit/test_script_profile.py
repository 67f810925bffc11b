"""The script phase in parts (issue 39): what the page's virtual clock counts reaches the
evaluation's timings, and a check's means carry every part."""

from __future__ import annotations

import pytest

from studio.models.check import PhaseTimes
from studio.models.evaluation import EvalResult, ScriptProfile, Timings
from studio.services.runtime.evaluator import apply_outcome, script_profile


def test_the_page_profile_becomes_seconds_and_counts() -> None:
    raw = {"steps": 120, "stepMs": 250.0, "draws": 3, "drawMs": 30.0, "timers": 40,
           "timerMs": 5.0, "turns": 170, "turnMs": 80.0, "idleMs": 0}  # fmt: skip
    profile = script_profile(raw)
    assert profile == ScriptProfile(
        vm_steps=120, vm_step_s=0.25, draws=3, draw_s=0.03, timers=40, timer_s=0.005,
        turns=170, turn_s=0.08, idle_s=0.0,
    )  # fmt: skip


def test_what_a_page_sends_that_is_not_a_number_counts_as_nothing() -> None:
    assert script_profile(None) is None
    assert script_profile("steps") is None
    odd = script_profile({"steps": "9", "stepMs": float("nan"), "draws": True, "drawMs": -4,
                          "timerMs": float("inf")})  # fmt: skip
    assert odd == ScriptProfile()


def test_an_outcome_carries_release_and_profile_into_the_timings() -> None:
    result = EvalResult(task_id="t", project="p.sb3")
    outcome = {
        "timings": {"project_load_ms": 10, "script_ms": 500, "program_ms": 3000, "release_ms": 20},
        "profile": {"steps": 90, "stepMs": 100},
        "result": {"success": True, "passed_tests": 1, "total_tests": 1},
    }
    apply_outcome(result, outcome)
    assert result.timings.release_s == 0.02
    assert result.timings.profile == ScriptProfile(vm_steps=90, vm_step_s=0.1)
    real = EvalResult(task_id="t", project="p.sb3")
    apply_outcome(real, {"timings": {"script_ms": 5}, "result": True})
    assert real.timings.profile is None


def test_phase_means_take_every_part_of_the_script_phase() -> None:
    profiled = Timings(
        script_s=1.0, check_s=0.4, release_s=0.1,
        profile=ScriptProfile(vm_steps=100, vm_step_s=0.5, draws=2, draw_s=0.2, timers=10),
    )  # fmt: skip
    real = Timings(script_s=3.0, check_s=0.2)  # the real clock: no profile, its parts are 0
    sums: dict[str, float] = {}
    for timings in (profiled, real):
        for name, value in PhaseTimes.values(timings).items():
            sums[name] = sums.get(name, 0.0) + value
    means = PhaseTimes.mean(sums, 2)
    assert (means.script_s, means.check_s, means.release_s) == (2.0, 0.3, 0.05)
    assert (means.vm_steps, means.vm_step_s, means.draws, means.draw_s) == (50, 0.25, 1, 0.1)
    assert means.timers == 5
    assert set(PhaseTimes.values(real)) == set(PhaseTimes.model_fields)


def test_check_profile_prints_and_json_carries_the_parts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from studio.cli.check import _print_profile, report_json
    from studio.models.check import CheckReport, CheckSummary, TaskCheck

    phases = PhaseTimes(script_s=0.5, vm_steps=120, vm_passes=900, vm_skipped=700, check_s=0.25)
    task = TaskCheck(id="t1", folder="lib/t1", phases=phases)
    report = CheckReport(tasks=[task], summary=CheckSummary(phases=phases))
    _print_profile(report)
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split()[:4] == ["script", "phase", "steps", "passes"]
    row = lines[3].split()
    assert row[:4] == ["t1", "120", "900", "700"] and row[-1] == "0.250"
    assert lines[4].startswith("(all evaluations)")
    carried = report_json(report)
    assert carried["tasks"][0]["phases"]["vm_skipped"] == 700  # type: ignore[index]
    assert carried["summary"]["phases"]["check_s"] == 0.25  # type: ignore[index]
