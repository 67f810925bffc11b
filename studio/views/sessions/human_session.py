"""Human baseline sessions: a participant solves a queue of tasks in the embedded editor while
every click, drag, scroll and key is recorded in the agent action schema.

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

import asyncio
import contextlib
import time
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
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

from studio.app.episodes import EditorPages, HumanSessionDriver, HumanSessionRecorder, ProtocolCard
from studio.app.files import paths
from studio.app.library import TaskFolder
from studio.models.agent import EpisodeStatus
from studio.models.evaluation import EvalResult
from studio.views.sessions.mode import SessionMode
from studio.views.shell.studio_shell import StudioShell
from studio.views.widgets.dialogs import finished

POLL_MS = 100


def sessions_dir() -> Path:
    return paths.data_dir() / "sessions"


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
    """Runs a session's task queue in the window's editor (lent by the shell's `pages`, so
    never while a live run or a labeler has it)."""

    session_finished = Signal(object)  # the session folder

    def __init__(self, shell: StudioShell, mode: SessionMode | None = None) -> None:
        super().__init__(shell.parent)
        self.shell = shell
        self.mode = mode
        self.bar = SessionBar(shell.parent)
        self.driver: HumanSessionDriver | None = None
        self.folder: Path | None = None
        self._ending: asyncio.Future[EpisodeStatus] | None = None
        self._started = 0.0
        self._limit_s: int | None = None
        self._ticker = QTimer(self)
        self._ticker.timeout.connect(self._tick)
        self.bar.finish.clicked.connect(lambda: self.end(EpisodeStatus.DONE))
        self.bar.give_up.clicked.connect(lambda: self.end(EpisodeStatus.FAILED))

    @property
    def active(self) -> bool:
        return self.driver is not None

    async def ask_and_run(self, tasks: list[TaskFolder], selected: str | None) -> Path | None:
        dialog = SessionDialog(tasks, selected, self.shell.parent)
        if await finished(dialog) != QDialog.DialogCode.Accepted:
            return None
        return await self.run(dialog.protocol(), dialog.queue())

    def end(self, status: EpisodeStatus) -> None:
        """Finish (DONE) or give up (FAILED) on the task being solved."""
        if self._ending is not None and not self._ending.done():
            self._ending.set_result(status)

    async def run(self, protocol: ProtocolCard, queue: list[TaskFolder]) -> Path | None:
        """Record `queue` one task after the other; return the session folder."""
        if self.shell.pages.busy or self.active:
            self.shell.status("The editor is busy with a live run; stop it first.")
            return None
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        folder = sessions_dir() / f"{_safe(protocol.participant)}-{stamp}"
        self.folder = folder
        if self.mode is not None:
            await self.mode.enter(f"the human baseline session of {protocol.participant}")
        try:
            for number, entry in enumerate(queue, 1):
                await self._one_task(protocol, entry, folder / entry.task.id, number, len(queue))
        finally:
            self.bar.hide()
            if self.mode is not None:
                self.mode.leave()
        self.session_finished.emit(folder)
        return folder

    async def _one_task(
        self, protocol: ProtocolCard, entry: TaskFolder, where: Path, number: int, total: int
    ) -> EvalResult | None:
        pages = self.shell.pages
        page, _owned = await pages.acquire()
        try:
            await EditorPages(self.shell.server, None, 0).load_task(page, entry)
            recorder = HumanSessionRecorder(where, entry, protocol, protocol.participant)
            self.driver = HumanSessionDriver(page, recorder)
            await self.driver.start()
            self._show(entry, number, total, protocol)
            status = await self._solve()
            evaluator = await self.shell.evaluator()

            async def evaluate(sb3: bytes) -> EvalResult | None:
                return await evaluator.evaluate(entry, sb3, project_name="final.sb3")

            if self.mode is not None and self.mode.breaches:
                recorder.run.meta["protocol_breaches"] = self.mode.take_breaches()
            result = await self.driver.finish(status, evaluate)
            if result is not None:
                self.shell.results.show_result(result, gave_up=status is EpisodeStatus.FAILED)
            return result
        finally:
            self._ticker.stop()
            self.driver = None
            pages.release(page)

    async def _solve(self) -> EpisodeStatus:
        """Poll the participant's input until Finish, Give up or the time limit."""
        assert self.driver is not None
        self._ending = asyncio.get_running_loop().create_future()
        pages = self.shell.pages
        while not self._ending.done():
            await pages.refresh(self.driver.page)  # the screen size, if a resize reset it
            await self.driver.poll()
            if self.driver.recorder.over_time_limit():
                self.driver.recorder.run.meta["stopped_by"] = "time limit"
                self.end(EpisodeStatus.FAILED)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._ending), POLL_MS / 1000)
        return self._ending.result()

    def _show(self, entry: TaskFolder, number: int, total: int, protocol: ProtocolCard) -> None:
        self.bar.text.setText(
            f"<b>Task {number} of {total}</b> ({entry.task.id}) — {entry.task.instruction}"
        )
        self._started = time.monotonic()
        self._limit_s = protocol.time_limit_s
        self._tick()
        self._ticker.start(1000)
        self.bar.show()

    def _tick(self) -> None:
        spent = int(time.monotonic() - self._started)
        text = f"{spent // 60}:{spent % 60:02d}"
        if self._limit_s:
            text += f" / {self._limit_s // 60}:{self._limit_s % 60:02d}"
        steps = len(self.driver.steps) if self.driver else 0
        self.bar.clock.setText(f"{text} · {steps} actions")


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "participant"
