"""The checks panel: verdict, golden/initial lines, mutants with survivors first, requests."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.models.check import FlakyTest, MutantTrial, Survivor, TaskCheck, Verdict
from studio.models.evaluation import ErrorKind, EvalError, EvalResult
from studio.views.checks.panel import ROW_BACKGROUNDS, STATUS_COLORS, VERDICT_STYLES, ChecksPanel

TASK = "debug_score_reset"


def _mutant(mid: str, status: str, description: str = "", **kw: Any) -> MutantTrial:
    return MutantTrial(
        id=mid,
        operator=kw.pop("operator", "literal"),
        sprite=kw.pop("sprite", "Coin"),
        block_id=f"b-{mid}",
        description=description or f"mutant {mid}",
        status=status,
        **kw,
    )


def _check(**kw: Any) -> TaskCheck:
    mutants = [
        _mutant("m01", "killed", "set score to [0] -> set score to [1]"),
        _mutant("m02", "survived", "remove 'show'", operator="delete_block"),
        _mutant("m03", "survived", "swap 'go to' and 'show'"),
        _mutant("m04", "flaky"),
        _mutant("m05", "invalid", note="the VM cannot load it: bad input"),
    ]
    survivors = [
        Survivor(id="m02", operator="delete_block", block_id="b-m02", description="remove 'show'"),
        Survivor(
            id="m03",
            operator="literal",
            block_id="b-m03",
            description="swap",
            equivalent_reason="order is not observable",
        ),
        Survivor(id="m04", operator="literal", block_id="b-m04", description="x", flaky=True),
    ]
    values: dict[str, Any] = {
        "id": TASK,
        "category": "debug",
        "folder": f"tasks/{TASK}",
        "golden_passed": True,
        "initial_failed": True,
        "verdict": Verdict.WEAK,
        "clock": "virtual",
        "reruns": 3,
        "mutants_total": 5,
        "mutants_killed": 1,
        "mutants_invalid": 1,
        "mutants_equivalent": 1,
        "survivors": survivors,
        "mutants": mutants,
        "golden": EvalResult(task_id=TASK, project="golden.sb3", passed_tests=3, total_tests=3),
        "initial": EvalResult(task_id=TASK, project="initial.sb3", passed_tests=2, total_tests=3),
        "seconds": 41.23,
    }
    values.update(kw)
    return TaskCheck(**values)


@pytest.fixture
def panel(qtbot: Any) -> ChecksPanel:
    widget = ChecksPanel()
    qtbot.addWidget(widget)
    return widget


def _column(panel: ChecksPanel, col: int) -> list[str]:
    return [panel.table.item(r, col).text() for r in range(panel.table.rowCount())]


def test_a_weak_check_lists_survivors_first(panel: ChecksPanel) -> None:
    panel.show_check(_check())
    assert panel.verdict.text() == "WEAK"
    background, color = VERDICT_STYLES[Verdict.WEAK]
    assert background in panel.verdict.styleSheet() and color in panel.verdict.styleSheet()
    assert _column(panel, 0) == ["m02", "m04", "m03", "m01", "m05"]
    assert _column(panel, 4) == ["survived", "flaky", "survived (equivalent)", "killed", "invalid"]
    assert _column(panel, 5)[2] == "order is not observable"
    assert panel.table.item(0, 3).text() == "remove 'show'"
    assert panel.table.item(0, 1).text() == "delete_block"
    survivor_bg = panel.table.item(0, 3).background().color().name()
    assert survivor_bg == ROW_BACKGROUNDS["survived"]
    assert panel.table.item(0, 4).foreground().color().name() == STATUS_COLORS["survived"]
    assert panel.table.item(0, 4).font().bold()
    assert panel.table.item(3, 4).foreground().color().name() == STATUS_COLORS["killed"]
    assert panel.table.item(2, 3).background().style() == Qt.BrushStyle.NoBrush  # explained
    assert panel.table.item(4, 0).toolTip() == "the VM cannot load it: bad input"


def test_summary_and_project_lines_count_tests(panel: ChecksPanel) -> None:
    panel.show_check(_check())
    assert panel.summary.text() == (
        f"{TASK}: 1 of 4 mutants killed (25%) · 2 survived (1 marked equivalent) · 1 flaky · "
        "1 invalid\nvirtual clock · 3 runs each · 41.2 s"
    )
    projects = panel.projects.text()
    assert "✔ Golden project passes in every run: 3 of 3 tests pass" in projects
    assert "✔ Initial project fails in every run: 2 of 3 tests pass" in projects
    assert panel.problems.isHidden()


def test_errors_and_flaky_tests_are_listed(panel: ChecksPanel) -> None:
    error = EvalError(kind=ErrorKind.SYNTAX, message="Unexpected <token>", line=3)
    check = _check(
        verdict=Verdict.INVALID,
        golden_passed=False,
        initial_failed=False,
        golden=EvalResult(task_id=TASK, project="golden.sb3", error=error),
        errors=["golden project does not pass: syntax error in evaluate.js:3"],
        flaky=[FlakyTest(project="initial", test="score is 3", passed_runs=1, runs=3)],
        mutants=[],
        survivors=[],
        mutants_total=0,
    )
    panel.show_check(check)
    assert panel.verdict.text() == "INVALID"
    assert "#8c1d18" in panel.verdict.styleSheet()
    assert "✘ Golden project does not pass: syntax error: Unexpected &lt;token&gt;" in (
        panel.projects.text()
    )
    assert "#b3261e'>✘ Initial project passes" in panel.projects.text()  # red for a debug task
    problems = panel.problems.text()
    assert "golden project does not pass: syntax error in evaluate.js:3" in problems
    assert "flaky test on initial: “score is 3” passed 1 of 3 runs" in problems
    assert not panel.problems.isHidden()
    assert panel.summary.text().startswith(f"{TASK}: no mutants evaluated")
    assert panel.table.rowCount() == 0


def test_selecting_a_row_announces_the_mutant(panel: ChecksPanel, qtbot: Any) -> None:
    panel.show_check(_check())
    with qtbot.waitSignal(panel.mutant_selected) as selected:
        panel.table.selectRow(3)
    assert selected.args == ["m01"]
    assert panel.selected_mutant() is not None
    assert not panel.load_button.isEnabled() and not panel.equivalent_button.isEnabled()
    assert panel.selection_hint.text() == "m01 is killed."
    with qtbot.waitSignal(panel.mutant_selected) as selected:
        assert panel.select_mutant("m04")
    assert selected.args == ["m04"]
    assert panel.load_button.isEnabled() and panel.equivalent_button.isEnabled()


def test_load_and_mark_equivalent_for_a_survivor(
    panel: ChecksPanel, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel.show_check(_check())
    panel.select_mutant("m02")
    with qtbot.waitSignal(panel.load_mutant_requested) as load:
        panel.load_button.click()
    assert load.args == ["m02"]
    asked: list[tuple[str, str]] = []

    def ask(mutant: MutantTrial, current: str) -> str | None:
        asked.append((mutant.id, current))
        return "  show is called again by the click script  "

    monkeypatch.setattr(panel, "_ask_reason", ask)
    with qtbot.waitSignal(panel.mark_equivalent_requested) as marked:
        panel.equivalent_button.click()
    assert marked.args == ["m02", "show is called again by the click script"]
    panel.select_mutant("m03")  # already explained: the dialog starts from the old reason
    with qtbot.waitSignal(panel.mark_equivalent_requested):
        panel.equivalent_button.click()
    assert asked[-1] == ("m03", "order is not observable")


def test_a_cancelled_or_empty_reason_marks_nothing(
    panel: ChecksPanel, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel.show_check(_check())
    panel.select_mutant("m02")
    for answer in (None, "   "):
        monkeypatch.setattr(panel, "_ask_reason", lambda _m, _c, a=answer: a)
        with qtbot.assertNotEmitted(panel.mark_equivalent_requested):
            panel.equivalent_button.click()


def test_run_cancel_and_progress(panel: ChecksPanel, qtbot: Any) -> None:
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert panel.progress.isHidden()
    with qtbot.waitSignal(panel.run_requested):
        panel.run_button.click()
    panel.set_running(True)
    assert not panel.run_button.isEnabled() and panel.cancel_button.isEnabled()
    assert not panel.progress.isHidden()
    assert panel.progress.maximum() == 0  # busy until the first count arrives
    panel.set_progress(7, 20, "7 of 20 evaluations")
    assert (panel.progress.value(), panel.progress.maximum()) == (7, 20)
    assert panel.progress.text() == "7/20"
    assert panel.progress_label.text() == "7 of 20 evaluations"
    with qtbot.waitSignal(panel.cancel_requested):
        panel.cancel_button.click()
    panel.set_running(False)
    assert panel.run_button.isEnabled() and panel.progress.isHidden()


def test_clear_forgets_the_check(panel: ChecksPanel) -> None:
    panel.show_check(_check())
    panel.select_mutant("m02")
    panel.clear()
    assert panel.check is None and panel.table.rowCount() == 0
    assert panel.verdict.text() == "—"
    assert not panel.load_button.isEnabled()
    assert panel.selected_mutant() is None
