"""A recorded episode on disk (a trajectory): who acted on which task, how it ended.

A trajectory folder holds `run.json` (a `RunInfo`), `steps.jsonl` (one `StepRecord` per line,
appended as the steps happen), `step_NNNN.png` (the editor just before step NNNN was executed:
the very screenshot the actor's observation showed it, when that observation had one and came
after step NNNN-1; a screenshot taken then otherwise), `obs_NNNN.json` (the observation the
actor saw before step NNNN, without its screenshot: elements in primitive mode, text and blocks
in composite mode), `final.png` and `final.sb3` (the program at the end). Agents and human
sessions share it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import EvalResult

__all__ = [
    "FINAL_PROJECT", "FINAL_SCREENSHOT", "RUN_FILE", "STEPS_FILE", "RunInfo", "observation_name",
    "screenshot_name",
]  # fmt: skip

RUN_FILE = "run.json"
STEPS_FILE = "steps.jsonl"
FINAL_PROJECT = "final.sb3"
FINAL_SCREENSHOT = "final.png"


def screenshot_name(index: int) -> str:
    """File name of the screenshot taken before step `index` (1-based)."""
    return f"step_{index:04d}.png"


def observation_name(index: int) -> str:
    """File name of the observation (minus screenshot) seen before step `index` (1-based)."""
    return f"obs_{index:04d}.json"


class RunInfo(BaseModel):
    """The header of a trajectory: task, mode, actor, times, final status and verdict."""

    episode_id: str
    task_id: str
    task_folder: str | None = None
    mode: Mode
    agent: str = "unknown"  # agent name, or "human"
    started_at: datetime
    ended_at: datetime | None = None
    status: EpisodeStatus = EpisodeStatus.RUNNING
    steps: int = 0
    step_limit: int | None = None
    eval: EvalResult | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
