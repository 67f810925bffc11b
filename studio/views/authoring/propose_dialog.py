"""The "Propose tests" dialog of the Script tab.

While the proposal runs it shows a progress bar and what is running (Cancel stops it). Then it
lists the kept tests, each with a checkbox (all checked), its plain words, how many mutants it
kills and whether the initial program fails it, and under the list the chart of the golden
trace excerpt the selected test comes from, plus the survivors. "Merge checked tests" emits
`merge_requested` with the checked proposals; a task for which nothing could be proposed shows
why.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.services.propose.model import Proposal
from studio.services.propose.pipeline import ProposalReport
from studio.services.propose.proposals import describe_observable
from studio.views.authoring.trace_chart import TraceChart


def _row_text(p: Proposal) -> str:
    catches = ", fails the initial program" if p.fails_initial else ""
    kills = f"kills {len(p.kills)} mutant{'s' if len(p.kills) != 1 else ''}"
    return f"{p.words}   [{kills}{catches}]"


class ProposeDialog(QDialog):
    """Progress, then the proposed tests with checkboxes, a trace chart and kills."""

    merge_requested = Signal(list)  # [Proposal]
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Propose tests")
        self.resize(900, 560)
        self.report: ProposalReport | None = None
        self.status = QLabel("Starting…", self)
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.tests = QListWidget(self)
        self.tests.currentRowChanged.connect(self._on_row_changed)
        self.chart = TraceChart(self)
        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(self)
        self.merge = QPushButton("Merge checked tests", self)
        self.merge.setEnabled(False)
        self.merge.clicked.connect(self._on_merge_clicked)
        buttons.addButton(self.merge, QDialogButtonBox.ButtonRole.AcceptRole)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.close_button.clicked.connect(self._on_close_clicked)
        layout = QVBoxLayout(self)
        for widget in (self.status, self.progress):
            layout.addWidget(widget)
        layout.addWidget(self.tests, 2)
        layout.addWidget(self.chart, 3)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)

    def set_progress(self, done: int, total: int, what: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.status.setText(f"{what}… ({done} of {total} runs)")

    def show_report(self, report: ProposalReport) -> None:
        self.report = report
        self.progress.hide()
        s = report.selection
        self.status.setText(
            f"{len(report.kept)} tests kept of {len(report.candidates)} proposed; they pass the "
            f"golden program on every rerun and kill {s.mutants_killed} of {s.mutants_total} "
            f"mutants{'; the initial program fails them' if s.initial_failed else ''}."
        )
        self.tests.clear()
        for p in report.kept:
            item = QListWidgetItem(_row_text(p), self.tests)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setToolTip("\n".join(["killed:", *p.kills]) if p.kills else "kills no mutant")
        lines = [f"Survivor: {report.mutant_text(m)}" for m in s.survivors]
        lines += [f"Killed no mutant: {w}" for w in s.killed_nothing]
        self.summary.setText("\n".join(lines) or "Every mutant is killed.")
        self.merge.setEnabled(bool(report.kept))
        self.close_button.setText("Close")
        if report.kept:
            self.tests.setCurrentRow(0)

    def show_error(self, message: str) -> None:
        self.progress.hide()
        self.status.setText(f"No tests proposed: {message}")
        self.close_button.setText("Close")

    def checked(self) -> list[Proposal]:
        if self.report is None:
            return []
        return [
            p
            for i, p in enumerate(self.report.kept)
            if self.tests.item(i).checkState() == Qt.CheckState.Checked
        ]

    def _on_row_changed(self, row: int) -> None:
        if self.report is None or not 0 <= row < len(self.report.kept):
            return
        p = self.report.kept[row]
        scenario = next(s for s in self.report.scenarios if s.id == p.scenario)
        what = describe_observable(p.key) if p.kind not in ("says", "broadcasts") else p.kind
        if p.kind == "says":
            what = f"what the {p.key} says"
        elif p.kind == "broadcasts":
            what = "the messages sent"
        self.chart.show_points(p.excerpt, scenario.duration, f"{what}, {scenario.words}")

    def _on_merge_clicked(self) -> None:
        self.merge_requested.emit(self.checked())
        self.accept()

    def _on_close_clicked(self) -> None:
        if self.report is None:
            self.cancel_requested.emit()
        self.reject()
