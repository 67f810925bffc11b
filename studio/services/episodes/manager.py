"""The episode manager: one browser, one editor server, the episodes it creates and keeps.

An `EpisodeManager` owns one headless Chromium (through a `BrowserPool`, whose fresh pages
also serve evaluations) and the `EditorServer` (unless given either). `create` gives an episode
(studio.services.episodes.episode.Episode) a page of its own showing the full editor with the
task's initial project loaded and the mode's layout set up, and records it when asked; `get`,
`list` and `delete` keep the episodes by id; `close` ends them all and what the manager owns.
`EpisodeManager` stays importable from studio.services.episodes.episode.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from studio.models.agent import Mode
from studio.models.trajectory import RunInfo
from studio.services.core.store import TaskFolder
from studio.services.episodes.editor_pages import EditorPages, EnvError
from studio.services.episodes.editor_work import EditorWork
from studio.services.episodes.episode import DEFAULT_STEP_LIMIT, Episode
from studio.services.episodes.handlers import make_handler
from studio.services.episodes.modes import ModeHandler
from studio.services.episodes.page_loss import bounded
from studio.services.episodes.recorder import TrajectoryRecorder
from studio.services.episodes.seams import PageSource
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.server import EditorServer

__all__ = ["EpisodeManager"]


def _now() -> datetime:
    return datetime.now(UTC)


class EpisodeManager:
    """Creates and keeps episodes; owns the browser (and the server unless one is given)."""

    def __init__(
        self,
        server: EditorServer | None = None,
        step_limit: int = DEFAULT_STEP_LIMIT,
        out_dir: Path | None = None,
        eval_spares: int = 0,
        spare_pages: int = 1,
        pool: BrowserPool | None = None,
        page_source: PageSource | None = None,
        edition: Edition = Edition.CURRENT,
        element_list: bool = True,
        work_at_once: int | None = None,
    ) -> None:
        """`pool` shares an already started browser for evaluations (not closed here; it
        then decides the edition); `page_source` gives episodes their pages instead of fresh
        headless ones; `edition` is the editor edition of the pages and evaluations;
        `element_list=False` gives primitive episodes no element list (screenshots only);
        `work_at_once` bounds the observations and actions of all its episodes running in the
        browser at once (episodes.editor_work; default 16)."""
        self.element_list = element_list
        self.edition = pool.edition if pool is not None else edition
        self._own_server = server is None
        self._own_pool = pool is None
        self.page_source = page_source
        self.server = server
        self.step_limit = step_limit
        self.out_dir = Path(out_dir) if out_dir else None
        self.eval_spares = eval_spares
        self.spare_pages = spare_pages
        self._pool: BrowserPool | None = pool
        self._pages: EditorPages | None = None
        self._episodes: dict[str, Episode] = {}
        self.on_created: list[Callable[[Episode], None]] = []  # e.g. a live view attaching
        self.editor_work = EditorWork(work_at_once)  # every episode's page work takes turns

    @property
    def pool(self) -> BrowserPool:
        """The browser: episode pages and fresh evaluation pages come from it."""
        if self._pool is None:
            raise EnvError("the episode manager is not started")
        return self._pool

    async def start(self) -> None:
        """Start the server (unless given), the browser, and the spare editor pages."""
        if self._pages is not None:
            return
        if self.server is None:
            self.server = EditorServer().start()
        if self._pool is None:  # its spares load once the first episode's page is set up
            slots = self.eval_spares + 2
            self._pool = BrowserPool(self.server, spares=0, slots=slots, edition=self.edition)
        await self._pool.start()
        spares = 0 if self.page_source is not None else self.spare_pages
        self._pages = EditorPages(self.server, self._pool.context, spares, self.edition)
        self._pages.top_up()

    async def ensure_alive(self) -> bool:
        """Relaunch a browser that died (`BrowserPool.ensure_alive`), with fresh spare editor
        pages in it; True when it did. A batch calls it before each episode."""
        if self._pages is None or not await self.pool.ensure_alive():
            return False
        await self._pages.close()
        self._pages = None
        await self.start()
        return True

    async def close(self) -> None:
        for episode in list(self._episodes.values()):
            with contextlib.suppress(Exception):
                await episode.close()
        self._episodes.clear()
        if self._pages is not None:
            await self._pages.close()
            self._pages = None
        if self._pool is not None and self._own_pool:
            await self._pool.close()
            self._pool = None
        if self._own_server and self.server is not None:
            self.server.stop()
            self.server = None

    async def __aenter__(self) -> EpisodeManager:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def create(
        self,
        task: TaskFolder,
        mode: Mode,
        record_to: Path | None = None,
        agent_name: str = "unknown",
        step_limit: int | None = None,
        handler: ModeHandler | None = None,
        load_initial: bool = True,
        feedback_turns: int = 0,
    ) -> Episode:
        """A new episode: fresh page, editor ready, initial project loaded, known layout.

        `handler` replaces the mode's own (a ScratchWorld session takes both modes' actions);
        without `load_initial` the page keeps the editor's default project. `feedback_turns`:
        the mid-episode evaluations it grants (episodes.feedback)."""
        mode = Mode(mode)
        handler = handler or make_handler(mode, self.element_list, task)
        await self.start()
        episode_id = uuid.uuid4().hex[:12]
        folder = Path(record_to) if record_to else None
        if folder is None and self.out_dir is not None:
            folder = self.out_dir / f"{task.task.id}-{mode.value}-{episode_id}"
        pages = self._pages  # close() may drop it while this waits (a stopped run)
        assert pages is not None
        owns_page = True
        if self.page_source is not None:
            page, owns_page = await self.page_source.acquire()
        else:
            page = await pages.acquire()
        try:
            if load_initial:
                await pages.load_task(page, task)
            await bounded(page, "set up the mode", handler.setup(page))
            if owns_page:  # a page of the window's own (page_source) sees every frame
                await pages.rest_between_actions(page)
        except BaseException:
            if owns_page:
                with contextlib.suppress(Exception):
                    await page.close()
            else:
                self.release_page(page)
            raise
        finally:  # the next pages load now, not beside this one (editor_pages)
            pages.top_up()
            if self._own_pool and self._pool is not None:
                self._pool.keep_spares(self.eval_spares)
        limit = step_limit or self.step_limit
        recorder = None
        if folder is not None:
            run = RunInfo(
                episode_id=episode_id,
                task_id=task.task.id,
                task_folder=str(task.folder),
                mode=mode,
                agent=agent_name,
                started_at=_now(),
                step_limit=limit,
            )
            recorder = TrajectoryRecorder(folder, run)
        episode = Episode(
            episode_id, self, task, mode, page, handler, limit, recorder, agent_name, owns_page
        )
        episode.feedback_turns.budget = feedback_turns
        if owns_page:  # the window's own page is worked by the window, not queued here
            episode.work = self.editor_work
        self._episodes[episode_id] = episode
        for hook in list(self.on_created):
            hook(episode)
        return episode

    def release_page(self, page: EditorPage) -> None:
        """An episode on a page it did not own has ended: hand the page back to its source."""
        if self.page_source is not None:
            self.page_source.release(page)

    def get(self, episode_id: str) -> Episode:
        """The episode with that id; KeyError if there is none."""
        try:
            return self._episodes[episode_id]
        except KeyError:
            raise KeyError(f"no episode {episode_id!r}") from None

    def list(self) -> list[Episode]:
        return list(self._episodes.values())

    async def delete(self, episode_id: str) -> None:
        """Close the episode and forget it; KeyError if there is none."""
        episode = self.get(episode_id)
        self._episodes.pop(episode_id, None)
        await episode.close()
