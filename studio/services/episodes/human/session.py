"""A human baseline session written as an ordinary trajectory (agent "human", primitive mode).

The GUI feeds the participant's input through `coalesce.EventCoalescer` and hands each finished
`HumanAction` to `HumanSessionRecorder.record` with the screenshot taken before it; `finish`
appends the participant's closing action ("done", or "failed" for giving up), stores the final
project and screenshot and the verdict. Reports then list the session as agent "human" with its
time per task (run.json started_at/ended_at), like any agent run.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from studio.models.action_parse import parse_action
from studio.models.agent import (
    ActionError,
    EpisodeStatus,
    Mode,
    Observation,
    ProgramChange,
    StepRecord,
)
from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult
from studio.models.trajectory import STEPS_FILE, RunInfo, observation_name
from studio.services.core import atomic
from studio.services.core.store import TaskFolder
from studio.services.episodes.human.coalesce import HumanAction
from studio.services.episodes.human.protocol import ProtocolCard, save_protocol
from studio.services.episodes.recorder import TrajectoryRecorder

__all__ = ["HUMAN_AGENT", "HumanSessionRecorder"]

HUMAN_AGENT = "human"
_EPOCH_MS = 1e12  # event times above this are Date.now() values (ms since 1970), not page-relative


class HumanSessionRecorder:
    """Records one participant solving one task into `folder` (a new one per session).

    The session's time (run.json started_at to ended_at, what reports show as time per task)
    runs from the creation of the recorder to `finish`: create it when the participant starts.
    """

    def __init__(
        self, folder: Path, task: TaskFolder, protocol: ProtocolCard, participant: str
    ) -> None:
        self.folder = Path(folder)
        self.task = task
        self.protocol = protocol
        self.participant = participant
        if (self.folder / STEPS_FILE).exists():
            raise StudioError(f"{self.folder}: already holds a recorded session; use a new folder")
        run = RunInfo(
            episode_id=f"human-{uuid.uuid4().hex[:12]}",
            task_id=task.task.id,
            task_folder=str(task.folder),
            mode=Mode.PRIMITIVE,
            agent=HUMAN_AGENT,
            started_at=datetime.now(UTC),
            meta={
                "protocol": protocol.model_dump(mode="json"),
                "participant": participant,
                "category": task.task.category.value,
            },
        )
        self._recorder = TrajectoryRecorder(self.folder, run)
        save_protocol(self.folder, protocol)
        self.steps = 0

    @property
    def run(self) -> RunInfo:
        return self._recorder.run

    def elapsed_s(self, now: datetime | None = None) -> float:
        """Seconds since the session started."""
        return ((now or datetime.now(UTC)) - self.run.started_at).total_seconds()

    def over_time_limit(self, now: datetime | None = None) -> bool:
        """True once the protocol's time limit (if any) has passed."""
        limit = self.protocol.time_limit_s
        return limit is not None and self.elapsed_s(now) >= limit

    def record(
        self,
        action: HumanAction,
        screenshot_png: bytes | None,
        change: ProgramChange | None,
        observation: Observation | None = None,
    ) -> StepRecord:
        """Append one step: the action, the screenshot and observation from before it."""
        if self.run.ended_at is not None:
            raise StudioError(f"{self.folder}: the session has ended; no more steps")
        try:
            parse_action(action.action, Mode.PRIMITIVE)
        except ActionError as exc:
            raise StudioError(f"{self.folder}: step {self.steps + 1}: {exc}") from None
        index = self.steps + 1
        record = StepRecord(
            index=index,
            at=_wall_time(action.started_ms),
            action=action.action,
            duration_ms=action.duration_ms,
            change=change or ProgramChange(),
            observation_summary=f"{len(observation.elements)} elements" if observation else "",
        )
        if screenshot_png is not None:
            record.screenshot = self._recorder.write_screenshot(index, screenshot_png)
        if observation is not None:
            text = observation.model_dump_json(exclude={"screenshot_png_b64"})
            atomic.write_text(self.folder / observation_name(index), text)
        self._recorder.append(record)
        self.steps = index
        self.run.steps = index
        self._recorder.write_run()
        return record

    def finish(
        self,
        status: EpisodeStatus,
        sb3: bytes | None = None,
        png: bytes | None = None,
        result: EvalResult | None = None,
    ) -> RunInfo:
        """End the session: DONE (finished), FAILED (gave up) or CLOSED (abandoned)."""
        if status is EpisodeStatus.RUNNING:
            raise ValueError("finish needs an end status, not RUNNING")
        if self.run.ended_at is not None:
            raise StudioError(f"{self.folder}: the session has already ended")
        now = datetime.now(UTC)
        if status in (EpisodeStatus.DONE, EpisodeStatus.FAILED):
            closing = StepRecord(
                index=self.steps + 1,
                at=now,
                action={"api": status.value, "args": {}},
                status_after=status,
            )
            self._recorder.append(closing)
            self.steps = closing.index
        self._recorder.write_final(sb3=sb3, png=png)
        run = self.run
        run.ended_at, run.status, run.steps, run.eval = now, status, self.steps, result
        self._recorder.write_run()
        return run


def _wall_time(event_ms: float) -> datetime:
    """The wall time of an event: its own clock if it is Date.now(), else the time of recording."""
    if event_ms > _EPOCH_MS:
        return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=event_ms)
    return datetime.now(UTC)
