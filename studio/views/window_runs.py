"""The window's Run menu: live agent runs, the API served into the editor, trajectories
opened, replayed, compared and exported, human baseline sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDialog, QMessageBox

from studio.models.agent import Mode
from studio.models.evaluation import EvalResult
from studio.services import agents
from studio.services.agents.base import Agent
from studio.services.store import TaskFolder
from studio.views.dialogs import finished
from studio.views.live_controller import LiveController
from studio.views.viewer.start_run_dialog import RunChoice, StartRunDialog

if TYPE_CHECKING:
    from studio.views.main_window import MainWindow


def make_agent(choice: RunChoice, task: TaskFolder) -> Agent:
    if choice.agent == "oracle":
        return agents.OracleAgent(task)
    if choice.agent == "random":
        return agents.RandomAgent(seed=choice.seed)
    return agents.IdleAgent()


class RunWiring:
    """Connects the Run menu of one main window to its live controller and the Run tab."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window
        self.panel = window.run_panel
        self.live = LiveController(
            self.panel, window.server, self._pool, window.authoring.lend_editor, window
        )
        c, spawn = window.commands, window.background.spawn
        c.start_run.triggered.connect(lambda: spawn(self.ask_and_run()))
        c.pause_run.triggered.connect(self.panel.toggle_pause)
        c.step_run.triggered.connect(self.panel.step)
        c.stop_run.triggered.connect(self.panel.stop)
        c.serve_api.triggered.connect(lambda: spawn(self.serve_api()))
        self.live.run_finished.connect(self._on_finished)
        self.live.message.connect(lambda m: window.statusBar().showMessage(m, 10000))

    async def _pool(self) -> Any:
        await self.w._ensure_pool()
        return self.w._pool

    def show_tab(self) -> None:
        self.w.tabs.setCurrentWidget(self.panel)

    async def ask_and_run(self) -> EvalResult | None:
        entry = self.w.library.current_entry()
        if entry is None:
            self.w.statusBar().showMessage("Select a task in the library first.", 5000)
            return None
        dialog = StartRunDialog(entry.task.id, self.w)
        if await finished(dialog) != QDialog.DialogCode.Accepted:
            return None
        return await self.run(entry, dialog.choice())

    async def run(self, entry: TaskFolder, choice: RunChoice) -> EvalResult | None:
        """Run the chosen agent on `entry` live in the editor (the Run tab follows it)."""
        if self.live.busy:
            self.w.statusBar().showMessage("A live episode is already running; stop it first.")
            return None
        self.live.start_paused = choice.paused
        self.show_tab()
        return await self.live.run_agent(entry, make_agent(choice, entry), choice.mode)

    async def run_agent(
        self, entry: TaskFolder, agent: Agent, mode: Mode, paused: bool = False
    ) -> EvalResult | None:
        self.live.start_paused = paused
        self.show_tab()
        return await self.live.run_agent(entry, agent, mode)

    async def serve_api(self) -> tuple[str, str]:
        url, token = await self.live.serve_api(self.w.library_root)
        QMessageBox.information(
            self.w,
            "Agent API served in this window",
            f"External agents can now start episodes that play in this editor:\n\n"
            f"URL: {url}\nToken: {token}\n\n"
            f'curl -H "Authorization: Bearer {token}" -d \'{{"task": "TASK_ID"}}\' '
            f"{url}/episodes\n\nOne episode at a time; the Run tab shows it step by step.",
        )
        return url, token

    def _on_finished(self, result: EvalResult | None) -> None:
        if result is not None:
            self.w.results.show_result(result)

    async def close(self) -> None:
        await self.live.close()
