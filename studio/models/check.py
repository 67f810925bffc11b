"""The outcome of checking tasks: does the script pass the golden project and fail the initial?"""

from __future__ import annotations

from pydantic import BaseModel, Field

from studio.models.evaluation import EvalResult


class TaskCheck(BaseModel):
    """Verdict on one task folder."""

    id: str
    category: str | None = None
    folder: str
    golden_passed: bool | None = None
    initial_failed: bool | None = None
    ok: bool = False
    errors: list[str] = Field(default_factory=list)
    golden: EvalResult | None = None
    initial: EvalResult | None = None


class CheckSummary(BaseModel):
    tasks: int = 0
    ok: int = 0
    failed: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    evaluations_per_minute: float = 0.0


class CheckReport(BaseModel):
    tasks: list[TaskCheck] = Field(default_factory=list)
    summary: CheckSummary = Field(default_factory=CheckSummary)

    @property
    def ok(self) -> bool:
        return bool(self.tasks) and all(t.ok for t in self.tasks)
