"""The *Forge debug tasks* dialog: candidates as they are validated, kept or dropped by hand.

It opens on the forge's options, those of `studio forge` (`options.ForgeOptionsForm`: reruns R,
bugs kept per golden N, candidates tried per golden K, θ_pass, θ_fail, the seed, tests derived
from behaviour where the golden's own script misses a bug, and the mechanisms wanted); *Forge*
emits `start_requested` with them, or, when they cannot forge (no mechanism ticked, θ_fail not
below θ_pass), stays disabled and the status line says why. While the forge runs, a progress
bar counts the goldens done and a line says what the forge is doing (Cancel stops it; what was
kept stays whole). Every judged candidate is a row of the list: its verdict (kept by the forge,
or the reason it was rejected), its mechanism, and its reruns as ✓ (the bugged program passed)
or ✗ (it failed), one mark per seeded rerun. The row chosen shows the diff golden → bug (the
Diff view: pseudocode, or blocks with *Pictures*) and, for a forged task, its instruction,
which the author may edit. *Keep* emits `keep_requested` (task id, instruction) and *Drop*
`drop_requested` (task id); the controller moves the task into the library or removes it and
tells the dialog with `mark`. A rejected candidate cannot be kept. Closing the dialog emits
`closed` (Cancel emits `cancel_requested` while the forge runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.services.forge.pipeline import ForgeOptions, Verdict
from studio.views.authoring.diff_view import DiffView
from studio.views.forge.options import ForgeOptionsForm

__all__ = ["DROPPED", "KEPT", "PENDING", "ForgeDialog", "Row", "reruns_text"]

PENDING, KEPT, DROPPED = "forged: keep or drop", "kept in the library", "dropped"


def reruns_text(reruns: tuple[bool, ...]) -> str:
    """One mark per seeded rerun of the bugged program: ✓ passed, ✗ failed."""
    return "".join("✓" if ok else "✗" for ok in reruns)


@dataclass
class Row:
    """One candidate as the dialog shows it."""

    verdict: Verdict
    golden: dict[str, Any]
    bugged: dict[str, Any]
    instruction: str
    state: str  # PENDING, KEPT, DROPPED, or the rejection reason


class ForgeDialog(QDialog):
    """Progress and Cancel, the judged candidates, the diff golden → bug, Keep and Drop."""

    keep_requested = Signal(str, str)  # task id, instruction
    drop_requested = Signal(str)  # task id
    cancel_requested = Signal()
    start_requested = Signal(object)  # ForgeOptions
    closed = Signal()  # the author closed the dialog (Close, the title bar, Esc)

    def __init__(self, parent: QWidget | None = None, options: ForgeOptions | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Forge debug tasks")
        self.resize(1180, 760)
        self.rows: list[Row] = []
        self.running = False
        self.options = options or ForgeOptions()
        self.status = QLabel("Choose the options and press Forge.", self)
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setFormat("%v of %m goldens")
        self.candidates = QListWidget(self)
        self.candidates.currentRowChanged.connect(self._on_row_changed)
        self.diff = DiffView(self)
        self.instruction = QPlainTextEdit(self)
        self.instruction.setPlaceholderText("The forged task's instruction (editable before Keep)")
        self.instruction.setMaximumHeight(110)
        self.instruction.textChanged.connect(self._on_instruction_edited)
        self.keep = QPushButton("Keep", self)
        self.keep.setToolTip("Put this forged task into the library (review state draft)")
        self.keep.clicked.connect(self._on_keep)
        self.drop = QPushButton("Drop", self)
        self.drop.setToolTip("Forget this forged task")
        self.drop.clicked.connect(self._on_drop)
        self.cancel = QPushButton("Close", self)
        self.cancel.setToolTip("Close the dialog")
        self.cancel.clicked.connect(self._on_cancel)
        right = QWidget(self)
        side = QVBoxLayout(right)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.diff, 1)
        side.addWidget(QLabel("Instruction of the forged task:", right))
        side.addWidget(self.instruction)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.candidates)
        split.addWidget(right)
        split.setSizes([420, 760])
        options_row = self._options_row()
        buttons = QHBoxLayout()
        buttons.addWidget(self.keep)
        buttons.addWidget(self.drop)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(options_row)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self._update_buttons()

    def _options_row(self) -> QHBoxLayout:
        self.form = ForgeOptionsForm(self.options, self)
        form = self.form
        self.reruns, self.per_golden, self.tries = form.reruns, form.per_golden, form.tries
        self.theta_pass, self.theta_fail, self.seed = form.theta_pass, form.theta_fail, form.seed
        self.derive = form.derive
        form.changed.connect(self._on_options_changed)
        row = QHBoxLayout()
        row.addWidget(form, 1)
        self.start = QPushButton("Forge", self)
        self.start.setDefault(True)
        self.start.clicked.connect(self._on_start)
        row.addWidget(self.start)
        return row

    def chosen_options(self) -> ForgeOptions:
        """The options as the author set them (the others as given)."""
        return self.form.chosen(self.options)

    def _on_options_changed(self) -> None:
        if self.running:
            return
        problem = self.form.problem()
        self.start.setEnabled(problem is None)
        self.status.setText(problem or "Choose the options and press Forge.")

    def begin(self) -> None:
        """The forge started: the options are fixed, Cancel stops it."""
        self.running = True
        self.form.set_enabled(False)
        self.start.setEnabled(False)
        self.status.setText("Starting the forge…")
        self.cancel.setText("Cancel")
        self.cancel.setToolTip("Stop the forge; what it wrote so far stays whole")

    def _on_start(self) -> None:
        if not self.running and self.start.isEnabled() and self.form.problem() is None:
            self.start_requested.emit(self.chosen_options())

    def set_progress(self, done: int, total: int, what: str) -> None:
        """`done` goldens of `total` are forged; `what` the forge is doing now."""
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.status.setText(what)

    def add_candidate(self, row: Row) -> None:
        """A judged candidate: a new row of the list (the first one is shown at once)."""
        self.rows.append(row)
        self.candidates.addItem(QListWidgetItem(self._row_text(row)))
        if self.candidates.currentRow() < 0:
            self.candidates.setCurrentRow(0)

    def mark(self, task_id: str, state: str) -> None:
        """The forged task `task_id` is now `state` (KEPT or DROPPED)."""
        for index, row in enumerate(self.rows):
            if row.verdict.task_id == task_id:
                row.state = state
                item = self.candidates.item(index)
                if item is not None:
                    item.setText(self._row_text(row))
        self._update_buttons()

    def finish(self, summary: str) -> None:
        """The forge ended (done, stopped or failed): `summary` says how."""
        self.running = False
        self.status.setText(summary)
        self.cancel.setText("Close")
        self.cancel.setToolTip("Close; forged tasks neither kept nor dropped are dropped")

    def row_texts(self) -> list[str]:
        return [self.candidates.item(i).text() for i in range(self.candidates.count())]

    def current(self) -> Row | None:
        index = self.candidates.currentRow()
        return self.rows[index] if 0 <= index < len(self.rows) else None

    @staticmethod
    def _row_text(row: Row) -> str:
        v = row.verdict
        mark = {PENDING: "●", KEPT: "✔", DROPPED: "–"}.get(row.state, "✗")
        return (
            f"{mark} {v.mechanism.replace('_', ' ')} ({v.operator}) in {v.golden}\n"
            f"    reruns {reruns_text(v.reruns)} ({v.tests_from} tests) · {row.state}"
        )

    def _on_row_changed(self, _index: int) -> None:
        row = self.current()
        if row is None:
            self.diff.clear()
            self.instruction.clear()
        else:
            self.diff.show_diff(row.golden, row.bugged, "golden", "bug")
            self._update_buttons()
            if row.state in (PENDING, KEPT, DROPPED):
                self.instruction.setPlainText(row.instruction)
            else:
                self.instruction.setPlainText(
                    f"Not a task: {row.state}. The candidate {row.verdict.description}."
                )
        self._update_buttons()

    def _on_instruction_edited(self) -> None:
        row = self.current()
        if row is not None and row.state == PENDING:
            row.instruction = self.instruction.toPlainText()

    def _update_buttons(self) -> None:
        row = self.current()
        pending = row is not None and row.state == PENDING
        self.keep.setEnabled(pending)
        self.drop.setEnabled(pending)
        self.instruction.setReadOnly(not pending)

    def _on_keep(self) -> None:
        row = self.current()
        if row is not None and row.state == PENDING:
            self.keep_requested.emit(row.verdict.task_id, self.instruction.toPlainText())

    def _on_drop(self) -> None:
        row = self.current()
        if row is not None and row.state == PENDING:
            self.drop_requested.emit(row.verdict.task_id)

    def _on_cancel(self) -> None:
        if self.running:
            self.cancel_requested.emit()
        else:
            self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        self.closed.emit()

    def done(self, result: int) -> None:
        super().done(result)
        self.closed.emit()
