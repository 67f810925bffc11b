"""The verdict of the last evaluation: summary, one row per test, run error, console."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.models.evaluation import EvalError, EvalResult, TestDetail
from studio.views.widgets.tables import Fit, read_only_table

_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
COLUMNS = ("Test", "Result", "Duration", "Error")
NAME_MIN_WIDTH, NAME_MAX_WIDTH, NAME_PADDING = 240, 640, 16  # px of the Test column
_COLORS = {"PASS": "#1b7f3b", "FAIL": "#b3261e", "TIMEOUT": "#a15c00"}
_SUMMARY_STYLE = {
    "pass": "background: #e6f4ea; color: #0d652d; font-weight: 600;",
    "fail": "background: #fdecea; color: #8c1d18; font-weight: 600;",
    "error": "background: #fdecea; color: #8c1d18; font-weight: 600;",
    "idle": "background: #f1f3f4; color: #3c4043;",
    "busy": "background: #eef3fb; color: #174ea6;",
}


def verdict(detail: TestDetail) -> str:
    if detail.timeout:
        return "TIMEOUT"
    return "PASS" if detail.passed else "FAIL"


def describe_error(error: EvalError) -> str:
    """One line naming what failed, where (file and line) and why."""
    where = error.file or ""
    if where and error.line:
        where += f", line {error.line}"
    prefix = f"{error.kind.value.capitalize()} error"
    return f"{prefix} in {where}: {error.message}" if where else f"{prefix}: {error.message}"


class ResultsPanel(QWidget):
    """Shows one EvalResult; `show_running` while an evaluation is under way."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setMargin(8)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setMaximumHeight(6)
        self.busy.setTextVisible(False)
        self.table = _make_table(self)
        self.console = QPlainTextEdit(self)
        self.console.setReadOnly(True)
        self.console.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.console.setPlaceholderText("Console output of the evaluation page appears here.")
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.table, "Tests")
        self.tabs.addTab(self.console, "Console")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.summary)
        layout.addWidget(self.busy)
        layout.addWidget(self.tabs, 1)
        self.result: EvalResult | None = None
        self.clear()

    def clear(self) -> None:
        self.result = None
        self.table.setRowCount(0)
        self.console.clear()
        self._set_summary("idle", "No evaluation yet. Press F5 to evaluate the editor's project.")

    def show_running(self, label: str) -> None:
        self.table.setRowCount(0)
        self._set_summary("busy", f"Evaluating {label}…")

    def show_error(self, message: str) -> None:
        """An evaluation that could not run at all (no task, editor not ready, ...)."""
        self.result = None
        self._set_summary("error", message)

    def show_result(self, result: EvalResult, gave_up: bool = False) -> None:
        """Show a verdict; `gave_up`: a human session given up, a failure whatever it says."""
        self.result = result
        self._fill_table(result.details)
        self.console.setPlainText("\n".join(result.console))
        if result.error is not None:
            self._set_summary("error", f"{result.task_id}: {describe_error(result.error)}")
            return
        solved = result.ok and not gave_up
        verdict_text = "GAVE UP (a failure)" if gave_up else "PASS" if result.success else "FAIL"
        text = (
            f"{verdict_text} · {result.passed_tests}/{result.total_tests} tests passed · "
            f"SR {1 if solved else 0} · PSR {result.partial_success_rate:.2f} · "
            f"{result.timings.total_s:.1f} s\n{result.task_id} on {result.project}"
        )
        self._set_summary("pass" if solved else "fail", text)
        if not result.ok and result.details:
            self.tabs.setCurrentWidget(self.table)

    def summary_text(self) -> str:
        return self.summary.text()

    def _set_summary(self, kind: str, text: str) -> None:
        self.summary.setText(text)
        self.summary.setStyleSheet(_SUMMARY_STYLE[kind])
        self.busy.setVisible(kind == "busy")

    def _fill_table(self, details: list[TestDetail]) -> None:
        self._fill_rows(details)
        self._fit_columns(any(d.error for d in details))

    def _fit_columns(self, errors: bool) -> None:
        """Test names get the room they need; the Error column shows only when a test has an
        error (and then takes what is left), so names are not cut beside an empty column."""
        table, header = self.table, self.table.horizontalHeader()
        table.setColumnHidden(3, not errors)
        if not errors:
            header.setSectionResizeMode(0, Fit.Stretch)
            return
        header.setSectionResizeMode(0, Fit.Interactive)
        wanted = table.sizeHintForColumn(0) + NAME_PADDING
        table.setColumnWidth(0, max(NAME_MIN_WIDTH, min(wanted, NAME_MAX_WIDTH)))

    def _fill_rows(self, details: list[TestDetail]) -> None:
        self.table.setRowCount(len(details))
        for row, detail in enumerate(details):
            text = verdict(detail)
            duration = "" if detail.duration_ms is None else f"{detail.duration_ms:.0f} ms"
            cells = (detail.name, text, duration, detail.error or "")
            for col, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setToolTip(value)
                if col == 1:
                    item.setForeground(QBrush(QColor(_COLORS[text])))
                if col == 2:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)


def _make_table(parent: QWidget) -> QTableWidget:
    modes = {0: Fit.Interactive, 1: Fit.ResizeToContents, 2: Fit.ResizeToContents, 3: Fit.Stretch}
    return read_only_table(parent, COLUMNS, modes, {0: NAME_MIN_WIDTH}, alternating=True)
