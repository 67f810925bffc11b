"""The adversarial check of one task: verdict, golden and initial runs, mutants, flaky tests."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.models.check import MutantTrial, TaskCheck, Verdict
from studio.models.evaluation import EvalResult
from studio.views.widgets.tables import Fit, read_only_table

COLUMNS = ("Mutant", "Operator", "Sprite", "Description", "Status", "Equivalent because")
STATUS_COLORS = {
    "killed": "#1b7f3b",
    "survived": "#b3261e",
    "flaky": "#a15c00",
    "invalid": "#80868b",
    "equivalent": "#5f6368",
}
ROW_BACKGROUNDS = {"survived": "#fdecea", "flaky": "#fef7e0"}
VERDICT_STYLES = {
    Verdict.VALID: ("#e6f4ea", "#0d652d"),
    Verdict.WEAK: ("#fef7e0", "#8a4b00"),
    Verdict.FLAKY: ("#f3e8fd", "#681da8"),
    Verdict.INVALID: ("#fdecea", "#8c1d18"),
}
_GOOD, _BAD, _MUTED = "#0d652d", "#b3261e", "#5f6368"
_ID_ROLE = Qt.ItemDataRole.UserRole
SURVIVING = ("survived", "flaky")
# Unexplained survivors first: they are what the author has to act on.
_ORDER = {"survived": 0, "flaky": 1, "equivalent": 2, "killed": 3, "invalid": 4}


def row_status(run: MutantTrial, reasons: dict[str, str | None]) -> str:
    """`equivalent` for a survivor the author explained, else the run's own status."""
    if run.status in SURVIVING and reasons.get(run.id):
        return "equivalent"
    return run.status


class ChecksPanel(QWidget):
    """Runs (by asking) and shows the adversarial check of the current task."""

    run_requested = Signal()
    cancel_requested = Signal()
    mutant_selected = Signal(str)
    load_mutant_requested = Signal(str)
    mark_equivalent_requested = Signal(str, str)  # mutant id, reason

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.check: TaskCheck | None = None
        self.run_button = QPushButton("Run check", self)
        self.run_button.setToolTip("Evaluate golden, initial and mutants of the golden project")
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.progress = QProgressBar(self)
        self.progress.setMaximumHeight(18)
        self.progress_label = QLabel(self)
        self.progress_label.setStyleSheet(f"color: {_MUTED};")
        self.verdict = QLabel(self)
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.verdict.setMinimumWidth(84)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.projects = _rich_label(self)
        self.problems = _rich_label(self)
        self.table = _make_table(self)
        self.table.itemSelectionChanged.connect(self._on_selection_changed)
        self.load_button = QPushButton("Load into editor", self)
        self.load_button.clicked.connect(self._on_load_clicked)
        self.equivalent_button = QPushButton("Mark equivalent…", self)
        self.equivalent_button.clicked.connect(self._on_equivalent_clicked)
        self.selection_hint = QLabel(self)
        self.selection_hint.setStyleSheet(f"color: {_MUTED};")
        self._lay_out()
        self.set_running(False)
        self.clear()

    def _lay_out(self) -> None:
        controls = QHBoxLayout()
        controls.addWidget(self.run_button)
        controls.addWidget(self.cancel_button)
        controls.addWidget(self.progress, 1)
        controls.addWidget(self.progress_label)
        headline = QHBoxLayout()
        headline.addWidget(self.verdict, 0, Qt.AlignmentFlag.AlignTop)
        headline.addWidget(self.summary, 1)
        actions = QHBoxLayout()
        actions.addWidget(self.load_button)
        actions.addWidget(self.equivalent_button)
        actions.addWidget(self.selection_hint, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(controls)
        layout.addLayout(headline)
        layout.addWidget(self.projects)
        layout.addWidget(self.problems)
        layout.addWidget(self.table, 1)
        layout.addLayout(actions)

    def clear(self) -> None:
        self.check = None
        self.table.setRowCount(0)
        self._set_verdict(None)
        self.summary.setText(
            "No check yet: Run check evaluates the golden project, the initial "
            "project and mutants of the golden project."
        )
        self.projects.clear()
        self.problems.clear()
        self.problems.hide()
        self._on_selection_changed()

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        self.progress_label.setVisible(running)
        if running:
            self.set_progress(0, 0, "starting…")

    def set_progress(self, done: int, total: int, label: str) -> None:
        """`done` of `total` evaluations finished; total 0 shows a busy bar."""
        self.progress.setRange(0, max(total, 0))
        self.progress.setValue(min(done, total) if total > 0 else 0)
        self.progress.setFormat(f"{done}/{total}" if total > 0 else "")
        self.progress_label.setText(label)

    def show_check(self, check: TaskCheck) -> None:
        self.check = check
        self._set_verdict(check.verdict)
        self.summary.setText(_summary(check))
        self.projects.setText(_projects_html(check))
        problems = _problems_html(check)
        self.problems.setText(problems)
        self.problems.setVisible(bool(problems))
        self._fill_table(check)
        self._on_selection_changed()

    def selected_mutant(self) -> MutantTrial | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.check is None:
            return None
        mutant_id = self._row_id(rows[0].row())
        return next((m for m in self.check.mutants if m.id == mutant_id), None)

    def select_mutant(self, mutant_id: str) -> bool:
        for row in range(self.table.rowCount()):
            if self._row_id(row) == mutant_id:
                self.table.selectRow(row)
                return True
        return False

    def _row_id(self, row: int) -> str | None:
        item = self.table.item(row, 0)
        return item.data(_ID_ROLE) if item is not None else None

    def _ask_reason(self, mutant: MutantTrial, current: str) -> str | None:
        """The author's reason why `mutant` behaves like the golden project (None: cancelled).

        Tests replace this method; the panel never opens a dialog on its own otherwise.
        """
        text, ok = QInputDialog.getMultiLineText(
            self,
            "Mark mutant equivalent",
            f"{mutant.id}: {mutant.description}\n\n"
            "Why does no test fail on it? Say why it behaves exactly like the golden project:",
            current,
        )
        return text if ok else None

    def _set_verdict(self, verdict: Verdict | None) -> None:
        background, color = VERDICT_STYLES[verdict] if verdict else ("#f1f3f4", _MUTED)
        self.verdict.setText(verdict.value.upper() if verdict else "—")
        self.verdict.setStyleSheet(
            f"background: {background}; color: {color}; font-weight: 700; "
            f"border: 1px solid {color}; border-radius: 4px; padding: 3px 8px;"
        )

    def _reasons(self) -> dict[str, str | None]:
        return {s.id: s.equivalent_reason for s in self.check.survivors} if self.check else {}

    def _fill_table(self, check: TaskCheck) -> None:
        reasons = self._reasons()
        runs = sorted(check.mutants, key=lambda m: _ORDER.get(row_status(m, reasons), 5))
        self.table.clearSelection()
        self.table.setRowCount(len(runs))
        for row, run in enumerate(runs):
            status = row_status(run, reasons)
            shown = "survived (equivalent)" if status == "equivalent" else status
            cells = (run.id, run.operator, run.sprite, run.description, shown)
            for col, value in enumerate((*cells, reasons.get(run.id) or "")):
                self.table.setItem(row, col, _cell(value, run, status, col == 4))

    def _on_selection_changed(self) -> None:
        mutant = self.selected_mutant()
        surviving = mutant is not None and mutant.status in SURVIVING
        self.load_button.setEnabled(surviving)
        self.equivalent_button.setEnabled(surviving)
        if mutant is None:
            self.selection_hint.setText("Select a surviving mutant to load or explain it.")
            return
        self.selection_hint.setText("" if surviving else f"{mutant.id} is {mutant.status}.")
        self.mutant_selected.emit(mutant.id)

    def _on_load_clicked(self) -> None:
        mutant = self.selected_mutant()
        if mutant is not None and mutant.status in SURVIVING:
            self.load_mutant_requested.emit(mutant.id)

    def _on_equivalent_clicked(self) -> None:
        mutant = self.selected_mutant()
        if mutant is None or mutant.status not in SURVIVING:
            return
        reason = self._ask_reason(mutant, self._reasons().get(mutant.id) or "")
        if reason is not None and reason.strip():
            self.mark_equivalent_requested.emit(mutant.id, reason.strip())


def _cell(value: str, run: MutantTrial, status: str, is_status: bool) -> QTableWidgetItem:
    item = QTableWidgetItem(value)
    item.setData(_ID_ROLE, run.id)
    item.setToolTip(run.note or value)
    background = ROW_BACKGROUNDS.get(status)
    if background:
        item.setBackground(QBrush(QColor(background)))
    if status in ("invalid", "equivalent"):
        item.setForeground(QBrush(QColor(STATUS_COLORS[status])))
    if is_status:
        item.setForeground(QBrush(QColor(STATUS_COLORS.get(status, _MUTED))))
        font = item.font()
        font.setBold(status in SURVIVING)
        item.setFont(font)
    return item


def _summary(check: TaskCheck) -> str:
    if not check.mutants_total:
        mutants = "no mutants evaluated"
    else:
        statuses = [m.status for m in check.mutants]
        explained = check.mutants_equivalent
        rate = f" ({check.kill_rate:.0%})" if check.kill_rate is not None else ""
        mutants = (
            f"{check.mutants_killed} of {check.mutants_total - check.mutants_invalid} mutants "
            f"killed{rate} · {statuses.count('survived')} survived ({explained} marked "
            "equivalent) · "
            f"{statuses.count('flaky')} flaky · {check.mutants_invalid} invalid"
        )
    clock = f"{check.clock} clock" + (f" ({check.clock_note})" if check.clock_note else "")
    runs = f"{check.reruns} run{'s' if check.reruns != 1 else ''} each"
    return f"{check.id}: {mutants}\n{clock} · {runs} · {check.seconds:.1f} s"


def _tests(result: EvalResult | None) -> str:
    if result is None:
        return ""
    if result.error is not None:
        return f": {result.error.kind.value} error: {escape(result.error.message)}"
    return f": {result.passed_tests} of {result.total_tests} tests pass"


def _line(color: str, mark: str, text: str) -> str:
    return f"<div style='color:{color}'>{mark} {text}</div>"


def _projects_html(check: TaskCheck) -> str:
    lines = []
    if check.golden_passed is None:
        lines.append(_line(_MUTED, "–", "Golden project: not evaluated"))
    elif check.golden_passed:
        lines.append(_line(_GOOD, "✔", "Golden project passes in every run" + _tests(check.golden)))
    else:
        lines.append(_line(_BAD, "✘", "Golden project does not pass" + _tests(check.golden)))
    if check.initial_failed is None:
        lines.append(_line(_MUTED, "–", "Initial project: not evaluated"))
    elif check.initial_failed:
        lines.append(
            _line(_GOOD, "✔", "Initial project fails in every run" + _tests(check.initial))
        )
    else:
        color = _BAD if check.category == "debug" else _MUTED
        lines.append(_line(color, "✘", "Initial project passes" + _tests(check.initial)))
    return "".join(lines)


def _problems_html(check: TaskCheck) -> str:
    lines = [_line(_BAD, "●", escape(error)) for error in check.errors]
    for flaky in check.flaky:
        text = (
            f"flaky test on {escape(flaky.project)}: “{escape(flaky.test)}” passed "
            f"{flaky.passed_runs} of {flaky.runs} runs"
        )
        lines.append(_line(STATUS_COLORS["flaky"], "◐", text))
    return "".join(lines)


def _rich_label(parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _make_table(parent: QWidget) -> QTableWidget:
    modes = {c: Fit.ResizeToContents for c in (0, 1, 2, 4)}
    modes.update({3: Fit.Stretch, 5: Fit.Interactive})
    return read_only_table(parent, COLUMNS, modes, {5: 200}, single_selection=True)
