"""The results pane shows verdicts, per-test rows and run errors that name file and line."""

from __future__ import annotations

from typing import Any

from studio.models.evaluation import ErrorKind, EvalError, EvalResult, TestDetail
from studio.views.shell.results_panel import ResultsPanel, describe_error


def _result(**kw: Any) -> EvalResult:
    return EvalResult(task_id="cat-hello", project="editor: golden.sb3", **kw)


def test_a_passing_run_shows_every_test_and_the_scores(qtbot: Any) -> None:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    details = [
        TestDetail(name="moves", passed=True, duration_ms=40.4),
        TestDetail(name="says", passed=True, duration_ms=51),
    ]
    panel.show_result(
        _result(
            success=True,
            passed_tests=2,
            total_tests=2,
            partial_success_rate=1.0,
            details=details,
            console=["[log] said Hello!"],
        )
    )
    assert panel.summary_text().startswith("PASS · 2/2 tests passed · SR 1 · PSR 1.00")
    assert "cat-hello on editor: golden.sb3" in panel.summary_text()
    rows = [[panel.table.item(r, c).text() for c in range(4)] for r in range(2)]
    assert rows == [["moves", "PASS", "40 ms", ""], ["says", "PASS", "51 ms", ""]]
    assert panel.console.toPlainText() == "[log] said Hello!"


def test_failed_and_timed_out_tests_show_their_errors(qtbot: Any) -> None:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    details = [
        TestDetail(name="moves", passed=False, error="x is 50"),
        TestDetail(name="waits", passed=False, timeout=True, error="no reply in 2 s"),
    ]
    panel.show_result(_result(total_tests=2, details=details))
    assert panel.summary_text().startswith("FAIL · 0/2 tests passed · SR 0 · PSR 0.00")
    assert [panel.table.item(r, 1).text() for r in range(2)] == ["FAIL", "TIMEOUT"]
    assert panel.table.item(0, 3).text() == "x is 50"


def test_a_run_error_names_the_file_and_line(qtbot: Any) -> None:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    error = EvalError(
        kind=ErrorKind.SYNTAX, message="Unexpected token ')'", file="evaluate.js", line=7
    )
    panel.show_result(_result(error=error))
    assert panel.summary_text() == (
        "cat-hello: Syntax error in evaluate.js, line 7: Unexpected token ')'"
    )
    assert panel.table.rowCount() == 0


def test_error_description_without_a_file() -> None:
    error = EvalError(kind=ErrorKind.SETUP, message="Chromium is missing")
    assert describe_error(error) == "Setup error: Chromium is missing"


def test_running_then_cleared(qtbot: Any) -> None:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    panel.show_running("cat-hello on the editor's project")
    assert panel.summary_text() == "Evaluating cat-hello on the editor's project…"
    assert not panel.busy.isHidden()
    panel.clear()
    assert panel.result is None and panel.busy.isHidden()
