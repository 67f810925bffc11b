"""A fake episode manager with the real one's API, for testing the HTTP layer without a browser.

Composite episodes keep a list of block opcodes; an observation numbers them (`#1 opcode`) and
an index-based action after the program changed is refused as stale, like the real mode.
Primitive episodes show three elements in a 1280x720 viewport. `evaluate` passes when every
opcode in `goal` is on the canvas.
"""

from __future__ import annotations

import base64
import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.action_parse import parse_action
from studio.models.agent import (
    ActionError,
    Element,
    EpisodeStatus,
    Mode,
    Observation,
    ProgramChange,
    StepRecord,
)
from studio.models.evaluation import Clock, EvalResult, TestDetail
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core.store import TaskFolder
from studio.services.episodes.feedback import FeedbackTurns

# A 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
ELEMENTS = [
    Element(index=1, type="blocks", text="motion_movesteps", x=10, y=100, w=80, h=30),
    Element(index=2, type="canvas", text="", x=300, y=80, w=700, h=600),
    Element(index=3, type="stage", text="", x=1000, y=80, w=280, h=210),
]


class FakeEpisode:
    """One fake episode; see the module docstring."""

    def __init__(
        self,
        episode_id: str,
        task: TaskFolder,
        mode: Mode,
        record_to: Path | None,
        goal: list[str],
        max_steps: int,
    ) -> None:
        self.id = episode_id
        self.task = task
        self.mode = mode
        self.status = EpisodeStatus.RUNNING
        self.step_count = 0
        self.trajectory_dir = record_to
        self.blocks: list[str] = []
        self.goal = goal
        self.max_steps = max_steps
        self.version = 0
        self.seen_version: int | None = None
        self.closed = False
        self.agent_name = "unknown"
        self.evaluated_with: tuple[Clock, int] | None = None
        self.started_at = datetime.now(UTC)
        self.records: list[StepRecord] = []  # every step taken, as returned
        self.feedback_turns = FeedbackTurns()

    @property
    def running(self) -> bool:
        return self.status is EpisodeStatus.RUNNING

    async def observe(self) -> Observation:
        self.seen_version = self.version
        if self.mode is Mode.COMPOSITE:
            lines = [f"#{i} [top] {op}" for i, op in enumerate(self.blocks, 1)]
            text = "editing target: Sprite1\nblocks:\n" + ("\n".join(lines) or "(none)")
            return Observation(
                mode=self.mode, step=self.step_count, text=text, version=self.version
            )
        return Observation(
            mode=self.mode,
            step=self.step_count,
            screenshot_png_b64=base64.b64encode(PNG).decode(),
            elements=ELEMENTS,
        )

    async def step(
        self, raw_action: dict[str, Any], reasoning: str = "", usage: dict[str, Any] | None = None
    ) -> StepRecord:
        if self.status is not EpisodeStatus.RUNNING:
            raise ActionError(f"the episode has ended ({self.status.value})")
        action = parse_action(raw_action, self.mode)
        change = self._execute(action)
        self.step_count += 1
        if action.api in ("done", "failed"):
            self.status = EpisodeStatus(action.api)
        elif self.step_count >= self.max_steps:
            self.status = EpisodeStatus.STEP_LIMIT
        record = StepRecord(
            index=self.step_count,
            at=datetime.now(UTC),
            action=raw_action,
            reasoning=reasoning,
            usage=usage,
            change=change,
            status_after=self.status,
        )
        self.records.append(record)
        return record

    def _execute(self, action: Any) -> ProgramChange:
        args = action.args
        if action.api == "add_block":
            self.blocks.append(args.blockType)
            self.version += 1
            return ProgramChange(added=[args.blockType])
        if action.api == "delete_block":
            op = self.blocks.pop(self._index(args.blockIndex) - 1)
            self.version += 1
            return ProgramChange(removed=[op])
        if action.api in ("click", "double_click") and args.index is not None:
            self._element(args.index)
        if action.api == "drag_and_drop":
            self._drag(args)
        return ProgramChange()

    def _index(self, index: int) -> int:
        if self.seen_version != self.version:
            raise ActionError("stale index: the program changed; take a new observation first")
        if not 1 <= index <= len(self.blocks):
            raise ActionError(f"block index {index} does not exist; use 1..{len(self.blocks)}")
        return index

    def _element(self, index: int) -> Element:
        for element in ELEMENTS:
            if element.index == index:
                return element
        raise ActionError(f"element index {index} does not exist; use 1..{len(ELEMENTS)}")

    def _drag(self, args: Any) -> None:
        for name in ("start_index", "end_index"):
            if getattr(args, name) is not None:
                self._element(getattr(args, name))
        for x, y in ((args.start_x, args.start_y), (args.end_x, args.end_y)):
            if x is not None and not (0 <= x < 1280 and 0 <= y < 720):
                raise ActionError(f"point ({x}, {y}) is outside the 1280x720 viewport")

    async def evaluate(self, clock: Clock = Clock.REAL, seed: int = 0) -> EvalResult:
        self.evaluated_with = (clock, seed)
        result = self._score(clock, seed)
        if self.trajectory_dir is not None:
            run = RunInfo(
                episode_id=self.id,
                task_id=self.task.task.id,
                task_folder=str(self.task.folder),
                mode=self.mode,
                agent=self.agent_name,
                started_at=self.started_at,
                ended_at=datetime.now(UTC),
                status=self.status,
                steps=self.step_count,
                eval=result,
            )
            if self.feedback_turns.turns:  # as the real episode records its turns
                run.meta["feedback_turns"] = self.feedback_turns.budget
                run.meta["feedback"] = list(self.feedback_turns.turns)
            self.trajectory_dir.mkdir(parents=True, exist_ok=True)
            (self.trajectory_dir / RUN_FILE).write_text(run.model_dump_json(indent=2))
        return result

    async def request_feedback(
        self, clock: Clock = Clock.REAL, seed: int = 0
    ) -> tuple[EvalResult, dict[str, Any]]:
        """A feedback turn as the real episode takes one (its budget, its record)."""
        if not self.running:
            raise self.feedback_turns.refusal()

        async def score() -> EvalResult:
            return self._score(clock, seed)

        return await self.feedback_turns.take(score, self.step_count)

    def _score(self, clock: Clock, seed: int) -> EvalResult:
        details = [TestDetail(name=f"has {op}", passed=op in self.blocks) for op in self.goal]
        passed = sum(d.passed for d in details)
        total = len(details)
        return EvalResult(
            task_id=self.task.task.id,
            project="fake.sb3",
            clock=clock,
            seed=seed,
            success=passed == total,
            passed_tests=passed,
            total_tests=total,
            partial_success_rate=passed / total if total else 0.0,
            details=details,
        )

    async def program_sb3(self) -> bytes:
        """The program as it stands: the fake keeps no project, so the task's initial one."""
        if self.closed:
            raise ActionError(f"episode {self.id} is closed")
        return (self.task.folder / self.task.task.initial_project).read_bytes()

    async def close(self) -> None:
        self.closed = True
        if self.status is EpisodeStatus.RUNNING:
            self.status = EpisodeStatus.CLOSED


class FakeEpisodeManager:
    """Keeps fake episodes by id; `goal` is the opcodes a passing program must contain."""

    def __init__(self, goal: list[str] | None = None, max_steps: int = 50) -> None:
        self.goal = goal if goal is not None else ["event_whenflagclicked", "motion_movesteps"]
        self.max_steps = max_steps
        self.episodes: dict[str, FakeEpisode] = {}
        self.ended: list[FakeEpisode] = []  # deleted episodes, in order
        self.created: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self.started = False

    async def start(self) -> None:
        self.started = True

    async def close(self) -> None:
        for episode in list(self.episodes.values()):
            await episode.close()
        self.episodes.clear()

    async def create(
        self,
        task: TaskFolder,
        mode: Mode,
        record_to: Path | None = None,
        agent_name: str = "unknown",
        step_limit: int | None = None,
        feedback_turns: int = 0,
    ) -> FakeEpisode:
        episode_id = f"ep{next(self._ids)}"
        limit = step_limit or self.max_steps
        episode = FakeEpisode(episode_id, task, mode, record_to, self.goal, limit)
        episode.agent_name = agent_name
        episode.feedback_turns.budget = feedback_turns
        self.episodes[episode_id] = episode
        self.created.append(
            {"task": task.task.id, "mode": mode, "agent": agent_name, "limit": limit}
        )
        return episode

    def get(self, episode_id: str) -> FakeEpisode:
        return self.episodes[episode_id]

    def list(self) -> list[FakeEpisode]:
        return list(self.episodes.values())

    async def delete(self, episode_id: str) -> None:
        episode = self.get(episode_id)
        del self.episodes[episode_id]
        self.ended.append(episode)
        await episode.close()
