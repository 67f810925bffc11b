"""Trigger F1 and mechanism accuracy against hand-computed values."""

from __future__ import annotations

import pytest

from studio.models.forge import BugRecord, BugReport, Site
from studio.services.forge.understanding import normal_trigger, score_understanding, trigger_f1


def _record(triggers: list[str]) -> BugRecord:
    return BugRecord(
        golden_task="g",
        mechanism="missing_initialization",
        operator="MIR",
        description="d",
        site=Site(sprite="Cat", block_ids=["b"]),
        inverse_patch=[],
        failing_tests=[],
        tests_from="own",
        reruns=5,
        golden_pass_rate=1.0,
        bugged_pass_rate=0.0,
        report=BugReport(symptom="s", expected="e", trigger="t", triggers=triggers),
    )


def test_trigger_f1_by_hand() -> None:
    assert trigger_f1(["green_flag"], ["green_flag"]) == 1.0
    assert trigger_f1(["green_flag", "key:space"], ["green_flag"]) == pytest.approx(2 / 3)
    assert trigger_f1(["green_flag"], ["key:space", "click:Cat"]) == 0.0
    assert trigger_f1([], []) == 1.0 and trigger_f1(["green_flag"], []) == 0.0
    assert normal_trigger(" Key : Space ") == "key:space"
    assert normal_trigger("broadcast: Game Over") == "broadcast:Game Over"


def test_score_understanding_of_a_record() -> None:
    rec = _record(["green_flag", "key:space"])
    s = score_understanding(rec, ["KEY:space"], "Missing Initialization")
    assert s.mechanism_correct and s.trigger_f1 == pytest.approx(2 / 3)
    assert not score_understanding(rec, [], "desynchronization").mechanism_correct
