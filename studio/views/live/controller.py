"""Live runs in the window's own editor: built-in agents, and episodes external agents drive
through the HTTP API served from the window. Each step appears in the Run tab as it finishes.

One `EpisodeManager` lends the embedded page to one episode at a time (through the window's
WindowPageSource, the page driven through Qt: studio.views.live.page); evaluations use the
window's headless browser. Episodes are recorded under
`<data dir>/runs/<task>-<mode>-<id>/`, like `studio run` does, so they open again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from studio.app.live_protocol import apply_protocol
from studio.models.agent import EpisodeStatus, Mode, Observation, StepRecord
from studio.models.evaluation import EvalResult
from studio.models.protocols import ProtocolRecord
from studio.services.core import paths
from studio.services.core.store import TaskFolder
from studio.services.episodes.agents.base import Agent
from studio.services.episodes.episode import Episode
from studio.services.episodes.live.controls import RunControls
from studio.services.episodes.live.runner import LiveRun, watch
from studio.services.episodes.live.window_pages import WindowPageSource
from studio.services.episodes.manager import EpisodeManager
from studio.views.live.ocr_preload import preload_ocr
from studio.views.viewer.run_panel import RunPanel
from studio.views.viewer.steps import ViewerStep, flag_live

if TYPE_CHECKING:
    from studio.app.serving.agent_api import Serving

log = logging.getLogger(__name__)


def runs_dir() -> Path:
    return paths.data_dir() / "runs"


class LiveController(QObject):
    """Starts and watches live episodes on the window's editor."""

    message = Signal(str)
    run_finished = Signal(object)  # EvalResult | None
    step_added = Signal(int)  # step index, after the Run tab shows it

    def __init__(
        self,
        panel: RunPanel,
        server: Any,
        ensure_pool: Callable[[], Awaitable[Any]],
        lend_editor: Callable[[str], Coroutine[Any, Any, None]],
        pages: WindowPageSource,
        parent: QObject | None = None,
    ) -> None:
        """`pages` lends the window's editor page (also to labelers, between episodes)."""
        super().__init__(parent)
        self.panel = panel
        self.server = server
        self._ensure_pool = ensure_pool
        self._lend_editor = lend_editor
        self.start_paused = False
        self.pages = pages
        self.pages.on_release.append(self._on_page_released)
        self._manager: EpisodeManager | None = None
        self.episode: Episode | None = None
        self.controls: RunControls | None = None
        self.api: Serving | None = None
        self._pending_title = ""
        self.last_folder: Path | None = None  # trajectory of the last episode shown
        self._builtin: set[str] = set()  # episodes run by our own loop (not over the API)
        self._closing: set[asyncio.Task[None]] = set()
        panel.stopped.connect(self._on_panel_stop)

    @property
    def busy(self) -> bool:
        return self.pages.busy

    async def manager(self) -> EpisodeManager:
        if self._manager is None:
            preload_ocr()  # on this (the GUI) thread, never in a worker: see ocr_preload
            pool = await self._ensure_pool()
            manager = EpisodeManager(
                self.server, out_dir=runs_dir(), pool=pool, page_source=self.pages
            )
            self.pages.prepare = self._prepare_editor
            manager.on_created.append(self._on_created)
            await manager.start()
            self._manager = manager
        return self._manager

    # ---- built-in agents -------------------------------------------------------------------
    async def run_agent(
        self,
        task: TaskFolder,
        agent: Agent,
        mode: Mode,
        record_to: Path | None = None,
        protocol: ProtocolRecord | None = None,
    ) -> EvalResult | None:
        """Run `agent` on `task` in the editor, live; return the final evaluation. `protocol`
        gives the episode its step limit and feedback turns and is recorded with it."""
        manager = await self.manager()
        self._pending_title = f"{agent.name} on {task.task.id}"
        episode = await manager.create(task, mode, record_to=record_to, agent_name=agent.name)
        if protocol is not None:
            apply_protocol(episode, protocol)
        self._builtin.add(episode.id)
        controls = self.controls
        assert controls is not None
        run = LiveRun(episode, agent, controls)
        result: EvalResult | None = None
        try:
            result = await run.run()
        finally:
            with contextlib.suppress(Exception):
                await manager.delete(episode.id)
            await self.pages.settled()
        self._end(episode, result, "stopped in the viewer" if run.stopped else "")
        return result

    # ---- external agents through the HTTP API ------------------------------------------------
    async def serve_api(
        self, library: Path, token: str | None = None, scratchworld: Path | None = None
    ) -> tuple[str, str]:
        """Serve the agent API from this window (and with `scratchworld`, a checkout folder,
        the ScratchWorld routes too: studio.app.serving, the checks and assembly `studio
        serve` uses); episodes and sessions it starts play in the editor. Served already:
        the running server's URL and token."""
        from studio.app.serving.agent_api import start_serving
        from studio.app.serving.options import WINDOW_SETTINGS, ServeOptions

        if self.api is None:
            manager = await self.manager()
            options = ServeOptions(
                token=token, library=library, record_to=runs_dir(), scratchworld=scratchworld
            )
            self.api = await start_serving(options, manager, WINDOW_SETTINGS)
        return self.api.url, self.api.token

    async def forget_browser(self) -> None:
        """The window's evaluation browser is being replaced (the library's editor edition
        changed): the episode manager on it and the API served from it stop; the next run or
        `serve_api` starts them on the new one."""
        if self.api is not None:
            self.message.emit("The agent API stopped: the library runs on another editor edition")
            with contextlib.suppress(Exception):
                await self.api.close()
            self.api = None
        manager, self._manager = self._manager, None
        if manager is not None:
            with contextlib.suppress(Exception):
                await manager.close()

    async def close(self) -> None:
        if self.controls is not None:
            self.controls.stop()
        if self.api is not None:
            with contextlib.suppress(Exception):
                await self.api.close()
            self.api = None
        if self._manager is not None:
            with contextlib.suppress(Exception):
                await self._manager.close()
            self._manager = None
        await self.pages.close()

    # ---- commands from the Run tab -------------------------------------------------------------
    def _on_panel_stop(self) -> None:
        """The Run tab stopped the episode: one driven over the API is closed as well (its
        client's next call gets a clear error); our own loop ends by itself."""
        episode = self.episode
        if episode is not None and episode.id not in self._builtin:
            task = asyncio.ensure_future(self._close_external(episode))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _close_external(self, episode: Episode) -> None:
        if self._manager is None:
            return
        with contextlib.suppress(KeyError):
            await self._manager.delete(episode.id)

    # ---- episode life ----------------------------------------------------------------------
    async def _prepare_editor(self) -> None:
        await self._lend_editor("a live episode")

    def _on_created(self, episode: Episode) -> None:
        controls = RunControls(paused=self.start_paused)
        watch(episode, controls)
        self.episode, self.controls = episode, controls
        episode.listeners.append(lambda r, png, obs: self._on_step(episode, r, png, obs))
        title = (
            self._pending_title or f"{episode.agent_name} (over the API) on {episode.task.task.id}"
        )
        self._pending_title = ""
        folder = episode.trajectory_dir
        where = f" · recording to {folder}" if folder else ""
        self.panel.start_live(f"<b>Live:</b> {title} · {episode.mode.value} mode{where}", controls)

    def _on_step(
        self, episode: Episode, record: StepRecord, png: bytes | None, obs: Observation | None
    ) -> None:
        folder = episode.trajectory_dir
        step = ViewerStep(
            record=record,
            png=png,
            load_observation=_constant(obs),
            screenshot_path=(folder / record.screenshot) if folder and record.screenshot else None,
        )
        flag_live(self.panel.model.steps, step)
        self.panel.add_step(step)
        self.step_added.emit(record.index)
        if record.status_after is not EpisodeStatus.RUNNING:
            self.panel.note(
                f"The episode ended ({record.status_after.value}) at step {record.index}"
            )

    def _on_page_released(self) -> None:
        episode = self.episode
        if episode is None:
            return
        if episode.id not in self._builtin:  # an API client's episode ends when it is closed
            why = "closed by its client" if episode.status is EpisodeStatus.CLOSED else ""
            self._end(episode, episode.result, why)

    def _end(self, episode: Episode, result: EvalResult | None, why: str) -> None:
        if self.episode is not episode:
            return
        steps = len(self.panel.model.steps)
        folder = self.last_folder = episode.trajectory_dir
        verdict = result.summary_line() if result is not None else "not evaluated"
        parts = [f"<b>Ended</b> ({episode.status.value}{', ' + why if why else ''})", verdict]
        parts.append(f"{steps} steps kept" + (f" in {folder}" if folder else ""))
        self.panel.end_live(" · ".join(parts))
        self.episode, self.controls = None, None
        self.run_finished.emit(result)


def _constant(obs: Observation | None) -> Callable[[], Observation | None]:
    return lambda: obs
