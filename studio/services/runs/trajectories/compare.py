"""Two runs of one task side by side: steps aligned by index, final test results by name.

Steps are aligned by their recorded index (step 1 with step 1, ...); the shorter run leaves
its side empty. Final results come from each run's `run.json` verdict (`EvalResult.details`),
one row per test name in the order the first run lists them, then the second's extras.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.models.evaluation import EvalResult, TestDetail
from studio.services.runs.trajectories.view import StepView, TrajectoryView, same_action

__all__ = ["NOT_EVALUATED", "Comparison", "StepPair", "TestRow", "compare", "outcome_rows"]

NOT_EVALUATED = "not evaluated"


@dataclass
class StepPair:
    """Step `index` of each run (None where a run has no such step)."""

    index: int
    step_a: StepView | None
    step_b: StepView | None
    same_action: bool


@dataclass
class TestRow:
    """One test's final outcome in each run: "pass", "fail", "timeout" or None (not run)."""

    __test__ = False  # not a pytest test class

    name: str
    outcome_a: str | None
    outcome_b: str | None

    @property
    def differs(self) -> bool:
        return self.outcome_a != self.outcome_b


@dataclass
class Comparison:
    """The aligned steps, the per-test rows, each run's verdict line and any warnings."""

    a: TrajectoryView
    b: TrajectoryView
    rows: list[StepPair]
    tests: list[TestRow]
    verdict_a: str
    verdict_b: str
    warnings: list[str] = field(default_factory=list)

    @property
    def first_divergence(self) -> int | None:
        """Index of the first step where the runs did different things (or one stopped)."""
        return next((r.index for r in self.rows if not r.same_action), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "a": str(self.a.folder),
            "b": str(self.b.folder),
            "warnings": self.warnings,
            "verdict_a": self.verdict_a,
            "verdict_b": self.verdict_b,
            "first_divergence": self.first_divergence,
            "steps": [
                {
                    "index": r.index,
                    "a": r.step_a.record.action if r.step_a else None,
                    "b": r.step_b.record.action if r.step_b else None,
                    "same_action": r.same_action,
                }
                for r in self.rows
            ],
            "tests": [{"name": t.name, "a": t.outcome_a, "b": t.outcome_b} for t in self.tests],
        }


def compare(a: TrajectoryView, b: TrajectoryView) -> Comparison:
    """Align two trajectories by step index and their final results by test name."""
    by_a = {s.index: s for s in a.steps}
    by_b = {s.index: s for s in b.steps}
    rows = []
    for index in sorted(by_a.keys() | by_b.keys()):
        sa, sb = by_a.get(index), by_b.get(index)
        same = sa is not None and sb is not None and same_action(sa.record.action, sb.record.action)
        rows.append(StepPair(index, sa, sb, same))
    result_a = a.run.eval if a.run else None
    result_b = b.run.eval if b.run else None
    return Comparison(
        a,
        b,
        rows,
        outcome_rows(result_a, result_b),
        _verdict(result_a),
        _verdict(result_b),
        _warnings(a, b),
    )


def outcome_rows(a: EvalResult | None, b: EvalResult | None) -> list[TestRow]:
    """One row per test name of either result, outcomes side by side."""
    outcomes_a, outcomes_b = _outcomes(a), _outcomes(b)
    names = list(outcomes_a) + [n for n in outcomes_b if n not in outcomes_a]
    return [TestRow(n, outcomes_a.get(n), outcomes_b.get(n)) for n in names]


def _outcomes(result: EvalResult | None) -> dict[str, str]:
    outcomes: dict[str, str] = {}
    for number, detail in enumerate(result.details if result else [], 1):
        name = detail.name or f"test {number}"
        while name in outcomes:  # two tests of one name stay two rows
            name += "'"
        outcomes[name] = _outcome(detail)
    return outcomes


def _outcome(detail: TestDetail) -> str:
    if detail.passed:
        return "pass"
    return "timeout" if detail.timeout else "fail"


def _verdict(result: EvalResult | None) -> str:
    return result.summary_line() if result is not None else NOT_EVALUATED


def _warnings(a: TrajectoryView, b: TrajectoryView) -> list[str]:
    warnings = []
    for view in (a, b):
        if view.run is None:
            warnings.append(f"{view.folder}: no readable run.json; task and verdict unknown")
    if a.run and b.run:
        if a.run.task_id != b.run.task_id:
            warnings.append(
                f"different tasks: {a.run.task_id} ({a.folder}) and {b.run.task_id} ({b.folder})"
            )
        if a.run.mode is not b.run.mode:
            warnings.append(f"different modes: {a.run.mode.value} and {b.run.mode.value}")
    return warnings
