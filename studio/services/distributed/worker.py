"""The studio worker a node holds: a warm browser that runs prepared evaluations and episodes.

`StudioWorker` is a plain class; `cluster.py` makes it a Ray actor pinned to its node (async
methods, `capacity` calls at once). Its browser starts once, at the probe, and serves every
later call; evaluation pages come from its own `BrowserPool` (of the current editor edition;
an evaluation sent for another edition, `evaluate_on`, gets a pool of that edition, started at
the first such call, whose missing bundle is that evaluation's set-up error), episode pages from an
`EpisodeManager` on the same browser, drag items' editor windows from `drag.page.open_window`.
Nothing here decides a verdict: the driver prepared the evaluation (`evaluator.prepare`) and
judges the result; an episode is `agents.run_episode` within the limits, with the price
table and the feedback budget the driver sent, recorded into a scratch folder whose files (and
what the agent spent) go back to the driver; a drag item is `drag.run.run_item`, its first
screen sent back.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.models.agent import Mode
from studio.models.evaluation import Clock, ErrorKind, EvalError, EvalResult
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.distributed import files
from studio.services.episodes.limits import Limits, PriceTable
from studio.services.runtime import editions
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import Prepared, evaluate_prepared

if TYPE_CHECKING:
    from studio.services.diagnostics.drag.run import ItemRun
    from studio.services.episodes.manager import EpisodeManager

__all__ = ["DragItemJob", "DragItemReturn", "EpisodeJob", "EpisodeReturn", "StudioWorker"]


@dataclass
class EpisodeJob:
    """One episode as sent to a worker: the task folder's files and how to act on it."""

    task_files: files.Files
    folder_name: str
    agent_for: Any  # (TaskFolder, position) -> Agent, pickled by Ray
    position: int
    mode: Mode
    clock: Clock
    step_limit: int | None = None
    limits: Limits | None = None  # wall time, tokens, cost (agents.run_episode)
    prices: PriceTable | None = None
    feedback_turns: int = 0  # mid-episode evaluations granted (episodes.feedback)


@dataclass
class EpisodeReturn:
    """What comes back of an episode: the verdict, the agent's name, the trajectory and what
    it spent (`{"usage": ..., "limit": ...}`, for run.json's meta; empty when nothing)."""

    result: EvalResult
    agent_name: str
    trajectory: files.Files
    spent: dict[str, Any] = field(default_factory=dict)


@dataclass
class DragItemJob:
    """One drag item as sent to a worker: the item folder's files, the agent, the attempts."""

    item_files: files.Files
    folder_name: str
    agent: Any  # a DragAgent, pickled by Ray (a copy: its usage counts this item only)
    k: int
    edition: str = "current"  # the editor edition its library records (editions.Edition)


@dataclass
class DragItemReturn:
    """What comes back of a drag item: its attempts, the first screen, the agent's usage."""

    run: ItemRun
    screen: bytes | None
    usage: Any


class StudioWorker:
    """One per node; `capacity` evaluations (or episodes) side by side in one browser."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self._pool: BrowserPool | None = None
        self._edition_pools: dict[Edition, BrowserPool] = {}
        self._managers: dict[int | None, EpisodeManager] = {}
        self._lock = asyncio.Lock()

    async def probe(self) -> list[str]:
        """What keeps this node from working (none: ready); starts the browser when it can."""
        problems = []
        for check in (paths.chromium_path, paths.bundle_dir):
            try:
                check()
            except paths.SetupError as exc:
                problems.append(str(exc))
        if problems:
            return problems
        try:
            await self._browser()
        except Exception as exc:
            return [f"the browser did not start: {str(exc).strip().splitlines()[0]}"]
        return []

    async def evaluate(self, prepared: Prepared) -> EvalResult:
        """A prepared evaluation run in a fresh page of this worker's browser."""
        prepared.t0 = time.perf_counter()  # the driver's clock means nothing here
        return await evaluate_prepared(await self._browser(), prepared)

    async def evaluate_on(self, job: tuple[str, Prepared]) -> EvalResult:
        """A prepared evaluation run in an evaluation page of edition `job[0]`."""
        name, prepared = job
        edition = Edition.parse(name)
        if edition is Edition.CURRENT:
            return await self.evaluate(prepared)
        prepared.t0 = time.perf_counter()
        try:
            editions.bundle_dir(edition)  # a missing bundle is named before any browser starts
            pool = await self._edition_pool(edition)
        except paths.SetupError as exc:
            prepared.result.error = EvalError(kind=ErrorKind.SETUP, message=str(exc))
            return prepared.result
        return await evaluate_prepared(pool, prepared)

    async def episode(self, job: EpisodeJob) -> EpisodeReturn:
        """Run one episode on the task sent along; return the verdict and its trajectory."""
        from studio.services.episodes.agents.base import run_episode

        with tempfile.TemporaryDirectory(prefix="studio-episode-") as tmp:
            task_dir = Path(tmp) / "task" / job.folder_name
            files.unpack(job.task_files, task_dir)
            task = load_task(task_dir)
            agent = job.agent_for(task, job.position)
            record = Path(tmp) / "run"
            manager = await self._manager(job.step_limit)
            spent: dict[str, Any] = {}
            result, _ = await run_episode(
                manager,
                task,
                job.mode,
                agent,
                record,
                job.clock,
                job.limits,
                job.prices,
                spent,
                job.feedback_turns,
            )
            return EpisodeReturn(result, agent.name, files.pack(record), spent)

    async def drag_item(self, job: DragItemJob) -> DragItemReturn:
        """Play one drag item's attempts in a new editor window of this worker's browser."""
        from studio.services.diagnostics.drag.item import load_item
        from studio.services.diagnostics.drag.page import open_window
        from studio.services.diagnostics.drag.run import SCREENS_DIR, run_item
        from studio.services.runtime.editions import Edition

        pool = await self._browser()
        assert pool.server is not None  # the pool made its own
        with tempfile.TemporaryDirectory(prefix="studio-drag-") as tmp:
            folder = Path(tmp) / "item" / job.folder_name
            files.unpack(job.item_files, folder)
            entry = load_item(folder)
            run_dir = Path(tmp) / "run"
            (run_dir / SCREENS_DIR).mkdir(parents=True)
            edition = Edition.parse(job.edition)
            window = await open_window(pool.context, pool.server, edition)
            try:
                item = await run_item(window, entry, job.agent, job.k, run_dir, edition)
            finally:
                with contextlib.suppress(Exception):
                    await window.close()
            screen = run_dir / SCREENS_DIR / f"{entry.item.id}.png"
            data = screen.read_bytes() if screen.is_file() else None
            return DragItemReturn(item, data, getattr(job.agent, "usage", None))

    async def close(self) -> None:
        """Close the episode managers and the browser (before the actor is killed)."""
        for manager in self._managers.values():
            await manager.close()
        self._managers.clear()
        for pool in self._edition_pools.values():
            await pool.close()
        self._edition_pools.clear()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def _browser(self) -> BrowserPool:
        async with self._lock:
            if self._pool is None:
                pool = BrowserPool(spares=self.capacity)
                await pool.start()
                self._pool = pool
            return self._pool

    async def _edition_pool(self, edition: Edition) -> BrowserPool:
        """This worker's pool of `edition`'s evaluation pages, on the same editor server."""
        current = await self._browser()
        async with self._lock:
            if edition not in self._edition_pools:
                pool = BrowserPool(current.server, spares=self.capacity, edition=edition)
                await pool.start()
                self._edition_pools[edition] = pool
            return self._edition_pools[edition]

    async def _manager(self, step_limit: int | None) -> EpisodeManager:
        from studio.services.episodes.manager import EpisodeManager

        pool = await self._browser()
        async with self._lock:
            if step_limit not in self._managers:
                manager = EpisodeManager(server=pool.server, pool=pool)
                manager.step_limit = step_limit or manager.step_limit
                await manager.start()
                self._managers[step_limit] = manager
            return self._managers[step_limit]
