"""The window's Run menu: live agent runs, the API served into the editor, trajectories
opened, replayed, compared and exported, human baseline sessions."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.app.agents import episode_agents
from studio.app.human_sessions import sessions_dir
from studio.app.live_protocol import live_protocol
from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult
from studio.models.protocols import ProtocolRecord
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes import agents
from studio.services.episodes.agents.base import Agent
from studio.services.episodes.modes import VIEWPORT
from studio.services.runs.trajectories.archive import recorded_task_folder
from studio.services.runs.trajectories.compare import compare
from studio.services.runs.trajectories.export import export_archive
from studio.services.runs.trajectories.view import TERMINAL_APIS
from studio.views.live.campaign_dialog import CampaignDialog
from studio.views.live.controller import LiveController, runs_dir
from studio.views.live.height import LiveHeight
from studio.views.live.serve_api_dialog import ServeApiDialog
from studio.views.live.width import LiveWidth
from studio.views.sessions.human_session import HumanSessionController
from studio.views.sessions.mode import SessionMode
from studio.views.shell.studio_shell import StudioShell
from studio.views.viewer.compare_dialog import CompareDialog
from studio.views.viewer.recorded import OpenedRun, open_run
from studio.views.viewer.run_list import RunListDialog
from studio.views.viewer.run_panel import RunPanel
from studio.views.viewer.start_run_dialog import RunChoice, StartRunDialog
from studio.views.widgets.dialogs import finished
from studio.views.window.pane_memory import (
    RUN_EDITOR_SHARE,
    SCRIPT_EDITOR_SHARE,
    PaneMemory,
    StaleRunGuard,
)

# The episode's screen: the toolbar and the document bar give way to its height, the library
# pane to its width (studio.views.live.height, studio.views.live.width).
LIVE_EDITOR_HEIGHT = VIEWPORT["height"]
LIVE_EDITOR_WIDTH = VIEWPORT["width"]


class RunWiring:
    """Connects the Run menu to a live controller and the Run tab (`panel`, one of `tabs`,
    below the editor in `splitter`); `lend_editor` keeps the open task's unsaved work before
    an episode takes the editor."""

    def __init__(
        self,
        shell: StudioShell,
        panel: RunPanel,
        tabs: QTabWidget,
        splitter: QSplitter,
        lend_editor: Callable[[str], Coroutine[Any, Any, None]],
        session_hides: Sequence[QWidget] = (),
        live_collapse: Sequence[QWidget] = (),
    ) -> None:
        self.shell = shell
        self.panel = panel
        self._tabs, self._splitter = tabs, splitter
        self.live = LiveController(
            panel, shell.server, shell.pool, lend_editor, shell.pages, shell.parent
        )
        c, spawn = shell.commands, shell.spawn
        c.start_run.triggered.connect(lambda: spawn(self.ask_and_run()))
        c.run_campaign.triggered.connect(lambda: spawn(self.campaign()))
        c.pause_run.triggered.connect(self.panel.toggle_pause)
        c.step_run.triggered.connect(self.panel.step)
        c.stop_run.triggered.connect(self.panel.stop)
        c.serve_api.triggered.connect(lambda: spawn(self.serve_api()))
        c.open_trajectory.triggered.connect(self._ask_open)
        c.compare_runs.triggered.connect(self._ask_compare)
        c.replay_run.triggered.connect(lambda: spawn(self.replay()))
        c.export_run.triggered.connect(self._ask_export)
        self.opened: OpenedRun | None = None
        # A human session hides `session_hides` and the tabs, and disables every command.
        hides = [*session_hides, tabs]
        self.session_mode = SessionMode(c.all(), hides, shell.editor, lend_editor, shell.parent)
        self.human = HumanSessionController(shell, self.session_mode)
        holder = shell.editor.parentWidget()
        column = holder.layout() if holder is not None else None
        assert isinstance(column, QVBoxLayout)
        column.insertWidget(0, self.human.bar)
        c.human_session.triggered.connect(lambda: spawn(self.human_session()))
        self.human.session_finished.connect(lambda folder: spawn(self.show_session(folder)))
        self.live.run_finished.connect(self._on_finished)
        self.live.message.connect(lambda m: shell.status(m, 10000))
        script = next(
            (tabs.widget(i) for i in range(tabs.count()) if tabs.tabText(i) == "Script"), None
        )
        own = {script: ("script", SCRIPT_EDITOR_SHARE)} if script is not None else {}
        self.panes = PaneMemory(splitter, tabs, panel, own)
        main = splitter.parentWidget()  # the window's left | right splitter
        left = main.widget(0) if isinstance(main, QSplitter) else None
        self.live_width = (
            LiveWidth(shell.parent, main, left, splitter)
            if isinstance(main, QSplitter) and left is not None and left is not splitter
            else None
        )
        window = shell.parent
        assert isinstance(window, QMainWindow)
        top = splitter.widget(0)
        assert top is not None
        self.live_height = LiveHeight(window, splitter, top, shell.editor, tabs, live_collapse)
        self.stale = StaleRunGuard(
            tabs, panel, self._selected_id, self._forget, lambda: self.live.busy
        )

    def _forget(self, text: str) -> None:
        """The run shown belongs to another task: show none (replay and export stop too)."""
        self.opened = None
        self.panel.clear(text)

    def _selected_id(self) -> str | None:
        entry = self.shell.library.selected()
        return entry.task.id if entry is not None else None

    def show_tab(self, editor_share: float = 0.62) -> None:
        """Show the Run tab; the first time, `editor_share` of the height goes to the editor
        above it (a recorded run needs the editor less than the step pictures), later the
        sizes it was left with (studio.views.window.pane_memory)."""
        self.panes.show_run(editor_share)

    async def ask_and_run(self) -> EvalResult | None:
        entry = self.shell.library.selected()
        if entry is None:
            self.shell.status("Select a task in the library first.", 5000)
            return None
        dialog = StartRunDialog(entry.task.id, self.shell.parent)
        if await finished(dialog) != QDialog.DialogCode.Accepted:
            return None
        return await self.run(entry, dialog.choice())

    async def run(self, entry: TaskFolder, choice: RunChoice) -> EvalResult | None:
        """Run the chosen agent on `entry` live in the editor (the Run tab follows it)."""
        if self.live.busy:
            self.shell.status("A live episode is already running; stop it first.")
            return None
        try:  # the protocol's settings, with its feedback turns (studio.app.live_protocol)
            record = live_protocol(
                choice.protocol, choice.mode, choice.agent, choice.feedback_turns
            )
        except StudioError as exc:
            QMessageBox.warning(self.shell.parent, "The run was not started", str(exc))
            return None
        maker = episode_agents(choice.agent, choice.mode, choice.seed, settings=record.settings)
        return await self.run_agent(entry, maker(entry, 0), choice.mode, choice.paused, record)

    async def run_agent(
        self,
        entry: TaskFolder,
        agent: Agent,
        mode: Mode,
        paused: bool = False,
        protocol: ProtocolRecord | None = None,
    ) -> EvalResult | None:
        self.live.start_paused = paused
        editor = self.shell.editor
        height = LIVE_EDITOR_HEIGHT + (editor.banner.height() if editor.banner.isVisible() else 0)
        self.panes.show_live(height)
        self.live_height.make_room(height)
        if self.live_width is not None:
            self.live_width.widen(LIVE_EDITOR_WIDTH)
        try:
            result = await self.live.run_agent(entry, agent, mode, protocol=protocol)
        finally:
            if self.live_width is not None:
                self.live_width.restore()
            self.live_height.restore()
        self.stale.opened()
        folder = self.live.last_folder
        if folder is not None:  # the run just shown can be replayed and exported
            with contextlib.suppress(StudioError):
                self.opened = await asyncio.to_thread(open_run, folder)
        return result

    async def serve_api(self) -> tuple[str, str] | None:
        """Serve the agent API here, the ScratchWorld routes too when the dialog says so
        (studio.views.live.serve_api_dialog); served already: show its address again."""
        if self.live.api is None:
            dialog = ServeApiDialog(self.shell.parent)
            if await finished(dialog) != QDialog.DialogCode.Accepted:
                return None
            try:
                await self.live.serve_api(
                    self.shell.library.root(), scratchworld=dialog.scratchworld()
                )
            except StudioError as exc:
                QMessageBox.warning(self.shell.parent, "The agent API was not served", str(exc))
                return None
        served = self.live.api
        assert served is not None
        url, token = served.url, served.token
        routes = served.sessions_url
        sw = f"\n\nScratchWorld routes (no token): {routes}" if routes else ""
        QMessageBox.information(
            self.shell.parent,
            "Agent API served in this window",
            f"External agents can now start episodes that play in this editor:\n\n"
            f"URL: {url}\nToken: {token}\n\n"
            f'curl -H "Authorization: Bearer {token}" -d \'{{"task": "TASK_ID"}}\' '
            f"{url}/episodes\n\nOne episode at a time; the Run tab shows it step by step.{sw}",
        )
        return url, token

    def _on_finished(self, result: EvalResult | None) -> None:
        if result is not None:
            self.shell.results.show_result(result)

    async def close(self) -> None:
        self.panes.save()
        await self.live.close()

    async def campaign(self) -> CampaignDialog:
        """Run ▸ Run campaign…: the dialog over the library's tasks (the selected one
        checked); its runs are picked from the campaign's folder and shown in the Run tab."""
        scan = await self.shell.library.scan()
        current = self.shell.library.selected()
        dialog = CampaignDialog(
            scan.tasks if scan is not None else [],
            current.task.id if current is not None else None,
            runs_dir(),
            self.shell.pool,
            self.shell.parent,
            self.shell.spawn,
        )
        dialog.open_runs.connect(lambda folder: self.shell.spawn(self.pick_and_open(folder)))
        dialog.show()
        return dialog

    # ---- recorded runs -------------------------------------------------------------------------
    def _ask_open(self) -> None:
        self.shell.spawn(self.pick_and_open())

    async def pick_and_open(self, root: Path | None = None) -> OpenedRun | None:
        """Pick a recorded run from the list of runs (those under `root`, by default every
        run the studio recorded; or browse), then show it."""
        dialog = RunListDialog(root or runs_dir(), 1, self.shell.parent)
        if await finished(dialog) != QDialog.DialogCode.Accepted or not dialog.chosen:
            return None
        return await self.open(dialog.chosen[0])

    async def open(self, path: Path) -> OpenedRun | None:
        """Show a recorded run (folder or .zip) in the Run tab; None with a message if not."""
        try:
            opened = await asyncio.to_thread(open_run, path)
        except StudioError as exc:
            self.shell.results.show_error(str(exc))
            self.shell.status(str(exc))
            return None
        self.opened = opened
        self.panel.show_steps(opened.title, opened.steps)
        self.panel.detail.program.show_project(opened.view.final_sb3)
        self.show_tab(editor_share=RUN_EDITOR_SHARE)
        self.stale.opened()
        return opened

    async def replay(self) -> EvalResult | None:
        """Re-execute the shown recorded run's actions live in the editor."""
        opened = self.opened
        if opened is None or opened.view.run is None:
            self.shell.status("Open a recorded run first (Run ▸ Open trajectory).")
            return None
        run = opened.view.run
        try:
            entry = load_task(Path(run.task_folder or ""))
        except StudioError as exc:
            self.shell.results.show_error(f"cannot replay: the task of this run is gone ({exc})")
            return None
        actions = [
            (s.record.action, s.record.reasoning)
            for s in opened.steps
            if s.record.action.get("api") not in TERMINAL_APIS
        ]
        agent = agents.ScriptedAgent(actions, name=f"replay of {run.agent}")
        return await self.run_agent(entry, agent, run.mode)

    def _ask_compare(self) -> None:
        self.shell.spawn(self.pick_and_compare())

    async def pick_and_compare(self) -> CompareDialog | None:
        """Pick two recorded runs from the list of runs (A, then B), then compare them."""
        dialog = RunListDialog(runs_dir(), 2, self.shell.parent)
        if await finished(dialog) != QDialog.DialogCode.Accepted or len(dialog.chosen) != 2:
            return None
        return await self.compare(*dialog.chosen)

    async def compare(self, a: Path, b: Path) -> CompareDialog | None:
        try:
            run_a = await asyncio.to_thread(open_run, a)
            run_b = await asyncio.to_thread(open_run, b)
        except StudioError as exc:
            self.shell.results.show_error(str(exc))
            return None
        dialog = CompareDialog(compare(run_a.view, run_b.view), run_a, run_b, self.shell.parent)
        dialog.show()
        return dialog

    def _ask_export(self) -> None:
        if self.opened is None:
            self.shell.status("Open a recorded run first (Run ▸ Open trajectory).")
            return
        name = f"{self.opened.view.folder.name}.zip"
        parent = self.shell.parent
        out, _ = QFileDialog.getSaveFileName(parent, "Export run", name, "Run archive (*.zip)")
        if out:
            self.shell.spawn(self.export(Path(out)))

    async def export(self, out: Path) -> Path | None:
        if self.opened is None:
            return None
        try:
            folder = self.opened.view.folder
            stores = [runs_dir(), sessions_dir()]  # runs the studio recorded: their task too
            task = recorded_task_folder(folder, stores)
            written = await asyncio.to_thread(export_archive, folder, out, task)
        except StudioError as exc:
            self.shell.results.show_error(str(exc))
            return None
        self.shell.status(f"Exported the run to {written}", 10000)
        return written

    # ---- human baselines -----------------------------------------------------------------------
    async def human_session(self) -> Path | None:
        scan = await self.shell.library.scan()
        tasks = scan.tasks if scan is not None else []
        current = self.shell.library.selected()
        return await self.human.ask_and_run(tasks, current.task.id if current else None)

    async def show_session(self, folder: Path) -> None:
        """After a session: its last task's recording in the Run tab."""
        recorded = [p for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []
        if recorded:
            await self.open(max(recorded, key=lambda p: p.stat().st_mtime))
        self.shell.status(f"Session recorded in {folder}", 15000)
