"""A human baseline study's tables as `studio report --json` and the bundle carry them.

The same figures `studio report` prints under the agents' grid (studio.services.studies.results
computes them from the study's board): one `HumanFigures` line per category, per participant
and per task. SR is the share of ended cells solved (finished with every test passed; giving
up, the time limit and an interrupted task count as not solved) with its Wilson interval; PSR
the mean PSR of the final programs (per category with a Student t interval over the tasks'
mean PSR); time in seconds and actions are means per task. In the task table SR is the task's
difficulty for people: the share of the participants who ended it that solved it. Fractions
are in [0, 1]; a figure with no ended cell behind it is None.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["HumanFigures", "StudyTables"]


class HumanFigures(BaseModel):
    """One line of a study table: a category, a participant (by code) or a task."""

    name: str
    ended: int = 0  # cells finished, given up or interrupted (with a verdict)
    solved: int = 0
    sr: float | None = None
    sr_ci95: tuple[float, float] | None = None
    psr: float | None = None
    psr_ci95: tuple[float, float] | None = None
    mean_seconds: float | None = None
    mean_actions: float | None = None


class StudyTables(BaseModel):
    """One study's human tables; `folder` is the study's folder (where study.json is)."""

    study: str
    folder: str = ""
    categories: list[HumanFigures] = Field(default_factory=list)
    participants: list[HumanFigures] = Field(default_factory=list)
    tasks: list[HumanFigures] = Field(default_factory=list)
