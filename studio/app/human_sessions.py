"""The human baseline session protocol, free of Qt: a participant solves a queue of tasks in an
editor page while every click, drag, scroll and key is recorded in the agent action schema.

`HumanSession.run(card, queue)` is the protocol; a front end runs it by implementing
`SessionPort` (the window: studio.views.sessions.human_session) and lending an editor page:

1. Refused (`SessionPort.say`, None returned) while the editor page is lent to something else
   or a session already runs.
2. The session folder is `<sessions root>/<participant>-<UTC time>` (`session_folder`); the
   front end is locked (`SessionPort.lock`: nothing but the editor and the session's own
   controls reachable) for the whole queue and unlocked after it, whatever happens.
3. Each task, in order: the lent page loads the task exactly as an agent's episode starts
   (initial project, known layout, 1280x720 screen); a recorder (services.episodes.human) writes
   the protocol card into the task's folder and starts the clock; the front end shows the task
   (`show_task`) and the time spent, the limit and the actions so far (`show_time`, at the
   start and whenever the whole seconds or the actions change).
4. The participant's input is polled until they press Finish (`end(DONE)`), Give up
   (`end(FAILED)`) or the card's time limit passes: that ends the task as FAILED and writes
   `stopped_by: "time limit"` into run.json's meta.
5. Breaches of the protocol the front end saw during the task (`take_breaches`) go into
   run.json's meta as `protocol_breaches`.
6. The final project is evaluated (project name `final.sb3`) and recorded with the closing
   action, the final screenshot and the verdict; the front end shows the result, marked as
   given up for a FAILED end (Give up or the time limit count as failures whatever the program
   passes).
7. The page goes back to its lender after each task, even when one fails.

Time is read from an injected monotonic clock (seconds), so tests run the protocol without
sleeping; the folder's time stamp from an injected wall clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from studio.models.agent import EpisodeStatus, StepRecord
from studio.models.evaluation import EvalResult
from studio.services.core import paths
from studio.services.core.store import TaskFolder
from studio.services.episodes.editor_pages import EditorPages
from studio.services.episodes.human.live import Evaluate, HumanSessionDriver
from studio.services.episodes.human.protocol import ProtocolCard
from studio.services.episodes.human.session import HumanSessionRecorder
from studio.services.runtime.evaluator import Evaluates
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.server import EditorServer

__all__ = [
    "POLL_S", "EditorLender", "HumanSession", "LoadTask", "SessionDriver", "SessionPort",
    "editor_loader", "session_folder", "sessions_dir",
]  # fmt: skip

POLL_S = 0.1  # how often the participant's input is drained

LoadTask = Callable[[EditorPage, TaskFolder], Awaitable[None]]


def sessions_dir() -> Path:
    """Where sessions are kept: `<data dir>/sessions`."""
    return paths.data_dir() / "sessions"


def session_folder(root: Path, participant: str, when: datetime) -> Path:
    """`<root>/<participant>-<YYYYmmdd-HHMMSS>` (UTC); characters other than letters, digits,
    '-' and '_' in the participant's code become '_'."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in participant) or "participant"
    return root / f"{safe}-{when.astimezone(UTC).strftime('%Y%m%d-%H%M%S')}"


class SessionPort(Protocol):
    """What a front end shows and does for a session (the window: its session mode and bar)."""

    async def lock(self, what: str) -> None:
        """Close every way to the solution; `what` names the session."""
        ...

    def unlock(self) -> None:
        """Give the front end back as it was before `lock`."""
        ...

    def show_task(self, entry: TaskFolder, number: int, total: int) -> None:
        """Show the task being solved (number of total) and its instruction."""
        ...

    def show_time(self, spent_s: int, limit_s: int | None, actions: int) -> None:
        """Show the whole seconds spent on the task, its limit and the actions recorded."""
        ...

    def hide_task(self) -> None:
        """The queue is over: the task and its time are no longer shown."""
        ...

    def take_breaches(self) -> list[dict[str, str]]:
        """The protocol breaches seen since the last call (each: when, what was tried)."""
        ...

    def show_result(self, result: EvalResult, gave_up: bool) -> None:
        """Show the final evaluation of a task."""
        ...

    def say(self, text: str) -> None:
        """A short message (why a session cannot start)."""
        ...


class EditorLender(Protocol):
    """Lends the editor page a session runs in (services.episodes.live.WindowPageSource)."""

    @property
    def busy(self) -> bool: ...

    async def acquire(self, lend: bool = True) -> tuple[EditorPage, bool]: ...

    async def refresh(self, page: EditorPage) -> None: ...

    def release(self, page: EditorPage) -> None: ...


class SessionDriver(Protocol):
    """Captures and records one participant on one task (services.episodes.human.live)."""

    page: EditorPage
    recorder: HumanSessionRecorder
    steps: list[StepRecord]

    async def start(self) -> None: ...

    async def poll(self) -> list[StepRecord]: ...

    async def finish(self, status: EpisodeStatus, evaluate: Evaluate) -> EvalResult | None: ...


DriverFactory = Callable[[EditorPage, HumanSessionRecorder], SessionDriver]


def editor_loader(server: EditorServer) -> LoadTask:
    """Load a task into a lent page as an agent's episode starts (initial project, layout)."""

    async def load(page: EditorPage, entry: TaskFolder) -> None:
        await EditorPages(server, None, 0).load_task(page, entry)

    return load


class HumanSession:
    """Runs sessions one at a time (see the module docstring for the protocol)."""

    def __init__(
        self,
        port: SessionPort,
        pages: EditorLender,
        load_task: LoadTask,
        evaluator: Callable[[], Awaitable[Evaluates]],
        root: Callable[[], Path] = sessions_dir,
        *,
        driver: DriverFactory = HumanSessionDriver,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        poll_s: float = POLL_S,
    ) -> None:
        self.port, self.pages, self.load_task, self.evaluator = port, pages, load_task, evaluator
        self.root, self.make_driver, self.clock, self.wall = root, driver, clock, wall
        self.poll_s = poll_s
        self.driver: SessionDriver | None = None  # the task being solved, if any
        self.folder: Path | None = None  # the session's folder, once started
        self.running = False
        self._ending: asyncio.Future[EpisodeStatus] | None = None
        self._shown: tuple[int, int] | None = None

    @property
    def active(self) -> bool:
        """True while a task is being solved."""
        return self.driver is not None

    def end(self, status: EpisodeStatus) -> None:
        """Finish (DONE) or give up (FAILED) on the task being solved; else nothing."""
        if self._ending is not None and not self._ending.done():
            self._ending.set_result(status)

    async def run(self, protocol: ProtocolCard, queue: list[TaskFolder]) -> Path | None:
        """Record `queue` one task after the other; the session folder (None: refused)."""
        if self.pages.busy or self.running:
            self.port.say("The editor is busy with a live run; stop it first.")
            return None
        self.running = True
        folder = session_folder(self.root(), protocol.participant, self.wall())
        self.folder = folder
        try:
            await self.port.lock(f"the human baseline session of {protocol.participant}")
            try:
                for number, entry in enumerate(queue, 1):
                    where = folder / entry.task.id
                    await self._one_task(protocol, entry, where, number, len(queue))
            finally:
                self.port.hide_task()
                self.port.unlock()
        finally:
            self.running = False
        return folder

    async def _one_task(
        self, protocol: ProtocolCard, entry: TaskFolder, where: Path, number: int, total: int
    ) -> EvalResult | None:
        page, _owned = await self.pages.acquire()
        try:
            await self.load_task(page, entry)
            recorder = HumanSessionRecorder(where, entry, protocol, protocol.participant)
            driver = self.driver = self.make_driver(page, recorder)
            await driver.start()
            self.port.show_task(entry, number, total)
            status = await self._solve(driver, protocol.time_limit_s)
            evaluator = await self.evaluator()

            async def evaluate(sb3: bytes) -> EvalResult | None:
                return await evaluator.evaluate(entry, sb3, project_name="final.sb3")

            breaches = self.port.take_breaches()
            if breaches:
                recorder.run.meta["protocol_breaches"] = breaches
            result = await driver.finish(status, evaluate)
            if result is not None:
                self.port.show_result(result, gave_up=status is EpisodeStatus.FAILED)
            return result
        finally:
            self.driver = None
            self.pages.release(page)

    async def _solve(self, driver: SessionDriver, limit_s: int | None) -> EpisodeStatus:
        """Poll the participant's input until Finish, Give up or the time limit."""
        ending = self._ending = asyncio.get_running_loop().create_future()
        started, self._shown = self.clock(), None
        self._show_time(0, limit_s, len(driver.steps))
        while not ending.done():
            await self.pages.refresh(driver.page)  # the screen size, if a resize reset it
            await driver.poll()
            spent = self.clock() - started
            self._show_time(int(spent), limit_s, len(driver.steps))
            if limit_s is not None and spent >= limit_s:
                driver.recorder.run.meta["stopped_by"] = "time limit"
                self.end(EpisodeStatus.FAILED)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(ending), self.poll_s)
        return ending.result()

    def _show_time(self, spent_s: int, limit_s: int | None, actions: int) -> None:
        shown = (spent_s, actions)
        if shown != self._shown:
            self._shown = shown
            self.port.show_time(spent_s, limit_s, actions)
