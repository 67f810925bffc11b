"""What a campaign tells its front end while it plays: typed progress events.

In order: `TasksRefused` (only when some tasks cannot be played: their problems, recorded as
the task's failures and taken out of the plan), `CampaignStarted` (the episodes to play now
and those finished before), one `EpisodeDone` per episode played (done out of total, the
outcome), then `CampaignFinished` (the result; `cancelled` when a cancel left episodes
unplayed for a resume) or, when the play raised, `CampaignFailed` (the error's text). Events
are delivered on the thread that plays the campaign (the asyncio loop's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.services.runs.batch import BatchResult, EpisodeOutcome
from studio.services.runs.preflight import TaskProblem

__all__ = [
    "CampaignEvent", "CampaignFailed", "CampaignFinished", "CampaignResult", "CampaignStarted",
    "EpisodeDone", "OnEvent", "TasksRefused",
]  # fmt: skip


@dataclass(frozen=True)
class CampaignResult:
    """How a play ended: the batch of episodes played, the tasks refused, and how many
    planned episodes were left unplayed by a cancel (a resume plays them)."""

    run_dir: Path
    batch: BatchResult
    problems: list[TaskProblem]
    left: int = 0

    @property
    def cancelled(self) -> bool:
        return self.left > 0


@dataclass(frozen=True)
class TasksRefused:
    run_dir: Path
    problems: list[TaskProblem]


@dataclass(frozen=True)
class CampaignStarted:
    run_dir: Path
    total: int  # episodes to play now
    finished_before: int  # episodes a resume found finished


@dataclass(frozen=True)
class EpisodeDone:
    done: int
    total: int
    outcome: EpisodeOutcome


@dataclass(frozen=True)
class CampaignFinished:
    result: CampaignResult


@dataclass(frozen=True)
class CampaignFailed:
    run_dir: Path
    error: str


CampaignEvent = TasksRefused | CampaignStarted | EpisodeDone | CampaignFinished | CampaignFailed
OnEvent = Callable[[CampaignEvent], None]
