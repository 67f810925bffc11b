"""Forged debug tasks: the bug record beside a forged task, and what a forge did per golden.

A bug record (`bug.json` beside `task.json`) holds the model-facing bug report and the ground
truth that only the studio reads: the mechanism (one of ScratchEval's eight, snake case), the
mutation operator, the site (sprite and block ids), the inverse patch (the minimal fix, atomic
edits as `studio.models.patch` defines them) and the tests that failed on the bugged program.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "BUG_FILE", "MECHANISMS", "BugRecord", "BugReport", "FailingTest", "ForgeOutcome", "Site",
]  # fmt: skip

BUG_FILE = "bug.json"
MECHANISMS = (
    "missing_initialization",
    "desynchronization",
    "untriggered_event",
    "non_terminating_loop",
    "incorrect_conditional_logic",
    "sprite_state_mismatch",
    "clone_management",
    "event_handler_conflict",
)


class BugReport(BaseModel):
    """What the agent is told: the symptom, the behaviour expected, and how to trigger it."""

    model_config = ConfigDict(extra="forbid")

    symptom: str
    expected: str
    trigger: str
    triggers: list[str] = Field(default_factory=list)  # green_flag, key:space, broadcast:X, ...


class Site(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sprite: str
    block_ids: list[str]


class FailingTest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    message: str = ""
    golden_pass_rate: float
    bugged_pass_rate: float


class BugRecord(BaseModel):
    """`bug.json`: the bug report for the agent, the ground truth for scoring."""

    model_config = ConfigDict(extra="forbid")

    golden_task: str
    mechanism: str = Field(pattern="^(" + "|".join(MECHANISMS) + ")$")
    operator: str
    description: str
    site: Site
    inverse_patch: list[dict[str, Any]]
    failing_tests: list[FailingTest]
    tests_from: str = Field(pattern="^(own|derived)$")  # the golden's script or derived tests
    reruns: int
    golden_pass_rate: float
    bugged_pass_rate: float
    report: BugReport


class ForgeOutcome(BaseModel):
    """One golden's forge: candidates tried, kept, rejected by reason, and the kept records."""

    golden: str
    error: str | None = None
    tried: int = 0
    kept: int = 0
    kept_before: int = 0  # found in the library from an earlier run, not forged again
    rejected: dict[str, int] = Field(default_factory=dict)
    records: dict[str, BugRecord] = Field(default_factory=dict)  # forged task id -> record
    seconds: float = 0.0
    evaluations: int = 0
    candidates_run: int = 0  # candidates evaluated (the others were never needed)
    phases: dict[str, float] = Field(default_factory=dict)  # golden, candidates, derive: seconds

    def spent(self, phase: str, seconds: float) -> None:
        self.phases[phase] = self.phases.get(phase, 0.0) + seconds

    def reject(self, reason: str) -> None:
        self.rejected[reason] = self.rejected.get(reason, 0) + 1
