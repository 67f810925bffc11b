"""Human baseline sessions in the window: the protocol card dialog, the session bar, and the
window's side of the protocol (studio.app.human_sessions, which runs it without Qt): a
participant solves a queue of tasks in the embedded editor while every click, drag, scroll and
key is recorded in the agent action schema.

The protocol card (who, what they could see and use, the stopping rule, the time limit) is
asked for first and stored with every session. Each task starts exactly as an agent's episode
does (initial project, known layout, 1280x720 screen). While the session runs, the window is in
its session mode (studio.views.sessions.mode): the bar above the editor shows the instruction,
the time, and Finish / Give up, and nothing else of the window is reachable; a protocol breach
is written into the task's run.json. The final project is evaluated and the session lands in
`<data dir>/sessions/<participant>-<time>/<task id>/`, where `studio report` lists it as agent
"human". Give up (or the time limit) ends a task as failed: the Results tab and the report
count it as a failure whatever the program passes.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from studio.app.human_sessions import HumanSession, SessionDriver, editor_loader
from studio.models.agent import EpisodeStatus
from studio.models.evaluation import EvalResult
from studio.services.core.store import TaskFolder
from studio.services.episodes.human.protocol import ProtocolCard
from studio.views.sessions.mode import SessionMode
from studio.views.shell.studio_shell import StudioShell
from studio.views.widgets.dialogs import finished


class SessionDialog(QDialog):
    """The protocol card and the task queue of a session."""

    def __init__(self, tasks: list[TaskFolder], selected: str | None, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Human baseline session")
        self.participant = QLineEdit(self)
        self.participant.setPlaceholderText("a pseudonym or code, e.g. P07")
        card = ProtocolCard()
        self.see = QLineEdit(card.allowed_to_see, self)
        self.use = QLineEdit(card.allowed_to_use, self)
        self.stopping = QLineEdit(card.stopping_rule, self)
        self.limit = QSpinBox(self)
        self.limit.setRange(0, 240)
        self.limit.setValue(15)
        self.limit.setSuffix(" min per task (0: none)")
        self.notes = QPlainTextEdit(self)
        self.notes.setMaximumHeight(60)
        self.tasks = QListWidget(self)
        self._entries = tasks
        for entry in tasks:
            item = QListWidgetItem(f"{entry.task.id} ({entry.task.category.value})")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            checked = entry.task.id == selected
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
            self.tasks.addItem(item)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        self.error = QLabel(self)
        self.error.setStyleSheet("color: #cf222e")
        form = QFormLayout(self)
        form.addRow("Participant", self.participant)
        form.addRow("Allowed to see", self.see)
        form.addRow("Allowed to use", self.use)
        form.addRow("Stopping rule", self.stopping)
        form.addRow("Time limit", self.limit)
        form.addRow("Notes", self.notes)
        form.addRow("Task queue (in order)", self.tasks)
        form.addRow(self.error)
        form.addRow(buttons)

    def _accept(self) -> None:
        if not self.participant.text().strip():
            self.error.setText("Name the participant (a code is enough).")
        elif not self.queue():
            self.error.setText("Tick at least one task.")
        else:
            self.accept()

    def protocol(self) -> ProtocolCard:
        minutes = self.limit.value()
        return ProtocolCard(
            participant=self.participant.text().strip(),
            allowed_to_see=self.see.text().strip(),
            allowed_to_use=self.use.text().strip(),
            stopping_rule=self.stopping.text().strip(),
            time_limit_s=minutes * 60 if minutes else None,
            notes=self.notes.toPlainText().strip(),
        )

    def queue(self) -> list[TaskFolder]:
        return [
            entry
            for i, entry in enumerate(self._entries)
            if self.tasks.item(i).checkState() == Qt.CheckState.Checked
        ]


class SessionBar(QFrame):
    """Above the editor during a session: the instruction, the clock, Finish and Give up."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStyleSheet("SessionBar { background: #fff8c5; border-bottom: 1px solid #d4a72c; }")
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.clock = QLabel(self)
        self.finish = QPushButton("Finish", self)
        self.finish.setToolTip("I believe the program does what the instruction asks")
        self.give_up = QPushButton("Give up", self)
        layout = QHBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.clock)
        layout.addWidget(self.finish)
        layout.addWidget(self.give_up)
        self.hide()


class HumanSessionController(QObject):
    """The window's side of a session (studio.app.human_sessions.SessionPort): the session
    mode, the bar and the Results tab; the protocol runs in `session`, in the window's editor
    (lent by the shell's `pages`, so never while a live run or a labeler has it)."""

    session_finished = Signal(object)  # the session folder

    def __init__(self, shell: StudioShell, mode: SessionMode | None = None) -> None:
        super().__init__(shell.parent)
        self.shell = shell
        self.mode = mode
        self.bar = SessionBar(shell.parent)
        self.session = HumanSession(self, shell.pages, editor_loader(shell.server), shell.evaluator)
        self.bar.finish.clicked.connect(lambda: self.end(EpisodeStatus.DONE))
        self.bar.give_up.clicked.connect(lambda: self.end(EpisodeStatus.FAILED))

    @property
    def active(self) -> bool:
        return self.session.active

    @property
    def driver(self) -> SessionDriver | None:
        """The recording of the task being solved (None between tasks)."""
        return self.session.driver

    @property
    def folder(self) -> Path | None:
        return self.session.folder

    async def ask_and_run(self, tasks: list[TaskFolder], selected: str | None) -> Path | None:
        dialog = SessionDialog(tasks, selected, self.shell.parent)
        if await finished(dialog) != QDialog.DialogCode.Accepted:
            return None
        return await self.run(dialog.protocol(), dialog.queue())

    def end(self, status: EpisodeStatus) -> None:
        """Finish (DONE) or give up (FAILED) on the task being solved."""
        self.session.end(status)

    async def run(self, protocol: ProtocolCard, queue: list[TaskFolder]) -> Path | None:
        """Record `queue` one task after the other; return the session folder."""
        folder = await self.session.run(protocol, queue)
        if folder is not None:
            self.session_finished.emit(folder)
        return folder

    # -- the port ------------------------------------------------------------------------------

    async def lock(self, what: str) -> None:
        if self.mode is not None:
            await self.mode.enter(what)

    def unlock(self) -> None:
        if self.mode is not None:
            self.mode.leave()

    def show_task(self, entry: TaskFolder, number: int, total: int) -> None:
        self.bar.text.setText(
            f"<b>Task {number} of {total}</b> ({entry.task.id}) — {entry.task.instruction}"
        )
        self.bar.show()

    def show_time(self, spent_s: int, limit_s: int | None, actions: int) -> None:
        text = f"{spent_s // 60}:{spent_s % 60:02d}"
        if limit_s:
            text += f" / {limit_s // 60}:{limit_s % 60:02d}"
        self.bar.clock.setText(f"{text} · {actions} actions")

    def hide_task(self) -> None:
        self.bar.hide()

    def take_breaches(self) -> list[dict[str, str]]:
        return self.mode.take_breaches() if self.mode is not None else []

    def show_result(self, result: EvalResult, gave_up: bool) -> None:
        self.shell.results.show_result(result, gave_up=gave_up)

    def say(self, text: str) -> None:
        self.shell.status(text)
