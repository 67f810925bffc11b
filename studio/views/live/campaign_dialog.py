"""Run ▸ Run campaign…: one agent on many tasks of the open library, recorded and resumable.

`CampaignDialog(tasks, selected, out, pool, parent, spawn)` lists the library's tasks with a
check box each (the selected task checked, or every task when none is selected), and asks for
the agent (the CLI's choices, studio.app.agents), a file of actions for the scripted agent,
the mode, reruns (epochs: each task played that many times), the step limit (0: the
protocol's), the protocol, its feedback turns and the output folder. *Run* opens and plans the
campaign (studio.app.campaigns, as `studio run` does: same folder, manifest, results and protocol
records; its warnings and errors are shown in the dialog) and plays it in the window's
browser (`pool`) in the background (`spawn`, the window's background tasks), with a bar and
a line per episode from the progress events. *Cancel* while it plays stops after the episode
under way; the folder stays resumable (`studio run --resume FOLDER`). At the end the summary
is shown and *Open runs…* emits `open_runs` with the campaign's folder, for the window to
pick one of its runs and show it in the Run tab."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.app.campaigns import (
    CampaignEvent,
    CampaignFinished,
    CampaignRequest,
    CampaignResult,
    CampaignStarted,
    EpisodeDone,
    TasksRefused,
    open_campaign,
    plan_episodes,
    play_campaign,
)
from studio.app.extensions import EPISODE_AGENTS, MODES
from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.protocols import DEFAULT_PROTOCOL, MAX_FEEDBACK_TURNS, PROTOCOLS
from studio.services.core.store import TaskFolder

__all__ = ["CampaignDialog"]


class CampaignDialog(QDialog):
    """See the module docstring."""

    open_runs = Signal(Path)

    def __init__(
        self,
        tasks: list[TaskFolder],
        selected: str | None,
        out: Path,
        pool: Callable[[], Awaitable[Any]] | None = None,
        parent: QWidget | None = None,
        spawn: Callable[[Coroutine[Any, Any, Any]], Any] = asyncio.ensure_future,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Run campaign")
        self._pool, self._spawn = pool, spawn
        self.cancel = threading.Event()
        self.playing = False
        self.run_dir: Path | None = None
        self.tasks = QListWidget(self)
        for task in tasks:
            item = QListWidgetItem(f"{task.task.id} ({task.task.category.value})", self.tasks)
            item.setData(Qt.ItemDataRole.UserRole, str(task.folder))
            on = selected is None or task.task.id == selected
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            if selected is not None and on:
                self.tasks.setCurrentItem(item)  # scrolled into view
        self.agent = QComboBox(self)
        self.agent.addItems(list(EPISODE_AGENTS))
        self.agent.setCurrentText(EPISODE_AGENTS.with_trait("baseline")[0])
        self.actions_file = QLineEdit(self)
        self.actions_file.setPlaceholderText("scripted agent: a JSON list of actions, or a folder")
        self.mode = QComboBox(self)
        self.mode.addItems(list(MODES))
        self.mode.setCurrentText(Mode.COMPOSITE.value)  # `studio run`'s default
        self.epochs = _spin(self, 1, 1000, 1)
        self.steps = _spin(self, 0, 100_000, 0)
        self.steps.setSpecialValueText("the protocol's")
        self.protocol = QComboBox(self)
        for spec in PROTOCOLS.values():
            self.protocol.addItem(f"{spec.name} ({spec.title})", spec.name)
        self.protocol.setCurrentIndex(self.protocol.findData(DEFAULT_PROTOCOL))
        self.feedback = _spin(self, 0, MAX_FEEDBACK_TURNS, 0)
        self.feedback.setSpecialValueText("none")
        self.feedback.setToolTip(
            "Mid-episode evaluations the agent may ask for (the studio protocol's feedback "
            "turns, recorded; studio run --feedback-turns)"
        )
        self.out = QLineEdit(str(out), self)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.out, 1)
        where.addWidget(browse)
        picks = QHBoxLayout()
        for text, state in (("All", Qt.CheckState.Checked), ("None", Qt.CheckState.Unchecked)):
            button = QPushButton(text, self)
            button.clicked.connect(lambda _=False, s=state: self._check_all(s))
            picks.addWidget(button)
        picks.addStretch(1)
        form = QFormLayout()
        form.addRow("Tasks", self.tasks)
        form.addRow("", picks)
        form.addRow("Agent", self.agent)
        form.addRow("Actions", self.actions_file)
        form.addRow("Mode", self.mode)
        form.addRow("Reruns (epochs)", self.epochs)
        form.addRow("Steps per episode", self.steps)
        form.addRow("Protocol", self.protocol)
        form.addRow("Feedback turns", self.feedback)
        form.addRow("Output folder", where)
        self.progress = QProgressBar(self)
        self.status = QLabel("Choose the tasks and the agent, then Run.", self)
        self.status.setWordWrap(True)
        self.log = QPlainTextEdit(self)
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.buttons = QDialogButtonBox(self)
        self.run_button = self.buttons.addButton("Run", QDialogButtonBox.ButtonRole.AcceptRole)
        self.open_button = self.buttons.addButton(
            "Open runs…", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.open_button.setEnabled(False)
        self.run_button.clicked.connect(self._on_run)
        self.open_button.clicked.connect(self._on_open)
        self.cancel_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        for widget in (self.progress, self.status, self.log, self.buttons):
            layout.addWidget(widget)
        self.agent.currentTextChanged.connect(self._follow_agent)
        self._follow_agent(self.agent.currentText())
        self.resize(640, 640)

    def request(self) -> CampaignRequest:
        """The campaign the dialog asks for (played in this window's browser)."""
        checked = [
            Path(self.tasks.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(self.tasks.count())
            if self.tasks.item(i).checkState() == Qt.CheckState.Checked
        ]
        actions = self.actions_file.text().strip()
        return CampaignRequest(
            tasks=checked,
            agent=self.agent.currentText(),
            mode=self.mode.currentText(),
            epochs=self.epochs.value(),
            steps=self.steps.value() or None,
            protocol=self.protocol.currentData(),
            feedback_turns=self.feedback.value() or None,
            actions=Path(actions)
            if actions and self._needs_file(self.agent.currentText())
            else None,
            out=Path(self.out.text().strip() or "."),
        )

    async def play(self) -> CampaignResult | None:
        """Open, plan and play the campaign asked for; its result, or None when it could not
        start (the reason shown) or had nothing to play."""
        request = self.request()
        if not request.tasks:
            self._say("Check at least one task.", error=True)
            return None
        warnings: list[str] = []
        self._busy(True)
        self.log.clear()
        try:
            planned = await asyncio.to_thread(_plan, request, warnings)
            for line in warnings:
                self.log.appendPlainText(line)
            self.run_dir = planned.run_dir
            pool = await self._pool() if self._pool is not None else None
            self._say(f"Playing {len(planned.jobs)} episode(s) into {planned.run_dir}…")
            return await play_campaign(planned, request, self.on_event, self.cancel, pool)
        except StudioError as exc:
            for line in warnings:
                self.log.appendPlainText(line)
            self._say(str(exc), error=True)
            return None
        finally:
            self._busy(False)

    def on_event(self, event: CampaignEvent) -> None:
        """Show a progress event of the campaign."""
        if isinstance(event, TasksRefused):
            for problem in event.problems:
                self.log.appendPlainText(problem.line())
        elif isinstance(event, CampaignStarted):
            self.progress.setRange(0, max(1, event.total))
            self.progress.setValue(0)
        elif isinstance(event, EpisodeDone):
            self.progress.setValue(event.done)
            self.log.appendPlainText(event.outcome.line())
        elif isinstance(event, CampaignFinished):
            self._finished(event.result)

    def _finished(self, result: CampaignResult) -> None:
        batch = result.batch
        done = batch.finished
        text = (
            f"SR {100 * batch.sr:.1f}% ({sum(o.success for o in done)}/{len(done)} finished "
            f"episodes), PSR {100 * batch.psr:.1f}%. Recorded in {result.run_dir}."
        )
        if result.problems:
            text += f" {len({p.task.task.id for p in result.problems})} task(s) not played."
        if result.cancelled:
            text = (
                f"Cancelled: {result.left} episode(s) not played; `studio run --resume "
                f"{result.run_dir}` plays them. " + text
            )
        self._say(text)
        self.open_button.setEnabled(True)

    def reject(self) -> None:
        """Close; while a campaign plays, stop it after the episode under way instead."""
        if self.playing:
            self.cancel.set()
            self._say("Cancelling: the episode under way finishes, then the campaign stops.")
            return
        super().reject()

    def _on_run(self) -> None:
        self.cancel.clear()
        self._spawn(self.play())

    def _on_open(self) -> None:
        if self.run_dir is not None:
            self.open_runs.emit(self.run_dir)

    def _busy(self, playing: bool) -> None:
        self.playing = playing
        self.run_button.setEnabled(not playing)
        self.cancel_button.setText("Cancel" if playing else "Close")
        self.open_button.setEnabled(not playing and self.run_dir is not None)

    def _say(self, text: str, error: bool = False) -> None:
        self.status.setStyleSheet("color: #b00020;" if error else "")
        self.status.setText(text)

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Output folder", self.out.text())
        if chosen:
            self.out.setText(chosen)

    def _check_all(self, state: Qt.CheckState) -> None:
        for i in range(self.tasks.count()):
            self.tasks.item(i).setCheckState(state)

    def _follow_agent(self, name: str) -> None:
        self.actions_file.setEnabled(self._needs_file(name))

    @staticmethod
    def _needs_file(name: str) -> bool:
        """Whether agent `name` plays from a file of actions (trait `needs-file`: scripted)."""
        return name in EPISODE_AGENTS.with_trait("needs-file")


def _plan(request: CampaignRequest, warnings: list[str]) -> Any:
    """Open and plan the campaign (reads files: run off the GUI thread)."""
    return plan_episodes(open_campaign(request, warnings.append), request, warnings.append)


def _spin(parent: QWidget, low: int, high: int, value: int) -> QSpinBox:
    spin = QSpinBox(parent)
    spin.setRange(low, high)
    spin.setValue(value)
    return spin
