"""Two agents (or one agent in two modes) compared task by task: the exact McNemar test."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["Comparison", "PairedCell"]


class PairedCell(BaseModel):
    """Paired outcomes over the tasks both sides ran: `a_only` solved by A and not by B,
    `b_only` the other way round, `both` and `neither`; `p_value` of the exact McNemar test."""

    category: str
    tasks: int = 0
    both: int = 0
    neither: int = 0
    a_only: int = 0
    b_only: int = 0
    p_value: float = 1.0


class Comparison(BaseModel):
    a: str
    b: str
    rule: str = "a task counts as solved when at least half of its episodes succeeded"
    cells: list[PairedCell] = Field(default_factory=list)  # per category, then "overall"
    unpaired: list[str] = Field(default_factory=list)  # tasks only one side ran
