"""A fake episode manager for ScratchWorld sessions (`SwSessions`), without a browser.

Its episodes take the session's handler as the real manager does: `step` parses and executes
the action with it on a `FakePage`, `evaluate` records the task it was asked to judge and
passes. A page can be made to hang (`FakePage.hang`): every evaluate then waits for ever, as a
renderer stuck in a custom_js loop does, and the episode's close waits on it like the real
close's final export.
"""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.agent import EpisodeStatus, Mode, StepRecord
from studio.models.evaluation import Clock, EvalResult
from studio.models.trajectory import RunInfo
from studio.services.core.store import TaskFolder


class FakePage:
    """Answers page_scripts calls with `answer`; records what it was asked to evaluate."""

    def __init__(self) -> None:
        self.calls: list[Any] = []
        self.hang = False
        self.closed = False
        self.answer: Any = None
        self.viewport_size = {"width": 1280, "height": 720}

    async def evaluate(self, expression: str, arg: Any = None) -> Any:
        self.calls.append(arg)
        if self.hang:
            await asyncio.Event().wait()
        return self.answer

    async def bring_to_front(self) -> None:
        return None

    async def close(self, run_before_unload: bool = False) -> None:
        self.closed = True


class FakeRecorder:
    def __init__(self, run: RunInfo) -> None:
        self.run = run
        self.folder = None


class FakeSwEpisode:
    def __init__(self, episode_id: str, task: TaskFolder, handler: Any) -> None:
        self.id = episode_id
        self.task = task
        self.handler = handler
        self.page = FakePage()
        self.step_count = 0
        self.status = EpisodeStatus.RUNNING
        self.trajectory_dir: Path | None = None
        self.judged: list[str] = []
        self.last_observation: Any = None
        self.recorder = FakeRecorder(
            RunInfo(
                episode_id=episode_id,
                task_id=task.task.id,
                mode=Mode.PRIMITIVE,
                started_at=datetime.now(UTC),
            )
        )

    def relabel(self, mode: Mode | None = None, task: TaskFolder | None = None) -> None:
        if task is not None:
            self.task = task

    def forget_program(self) -> None:
        return None

    async def step(self, raw: dict[str, Any], reasoning: str = "") -> StepRecord:
        action = self.handler.parse(raw)
        await self.handler.execute(self.page, action)
        self.step_count += 1
        return StepRecord(
            index=self.step_count, at=datetime.now(UTC), action=raw, status_after=self.status
        )

    async def evaluate(
        self, clock: Clock = Clock.REAL, seed: int = 0, task: TaskFolder | None = None
    ) -> EvalResult:
        judged = task or self.task
        self.judged.append(judged.task.id)
        return EvalResult(
            task_id=judged.task.id,
            project="final.sb3",
            success=True,
            passed_tests=1,
            total_tests=1,
            partial_success_rate=1.0,
        )

    async def close(self) -> None:
        if self.page.hang:  # the real close exports the program first
            await asyncio.Event().wait()
        await self.page.close()


class FakeSwManager:
    """Creates `FakeSwEpisode`s with the handler it is given."""

    def __init__(self) -> None:
        self.episodes: dict[str, FakeSwEpisode] = {}
        self._ids = itertools.count(1)

    async def create(self, task: TaskFolder, mode: Mode, **kwargs: Any) -> FakeSwEpisode:
        episode = FakeSwEpisode(f"sw{next(self._ids)}", task, kwargs["handler"])
        self.episodes[episode.id] = episode
        return episode

    def get(self, episode_id: str) -> FakeSwEpisode:
        return self.episodes[episode_id]

    def list(self) -> list[FakeSwEpisode]:
        return list(self.episodes.values())

    async def delete(self, episode_id: str) -> None:
        episode = self.episodes.pop(episode_id)
        await episode.close()

    async def close(self) -> None:
        self.episodes.clear()
