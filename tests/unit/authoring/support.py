"""Plain helpers for the authoring tests (fixtures live in conftest.py)."""

from __future__ import annotations

from studio.models.check import Survivor, TaskCheck, Verdict


def passing_check(task_id: str, **fields: object) -> TaskCheck:
    """A check in which the golden passes, the initial fails and every mutant is killed."""
    values: dict[str, object] = {
        "id": task_id,
        "folder": task_id,
        "golden_passed": True,
        "initial_failed": True,
        "ok": True,
        "verdict": Verdict.VALID,
        "mutants_total": 4,
        "mutants_killed": 4,
        "seconds": 12.5,
    }
    return TaskCheck.model_validate(values | fields)


def survivor(mutant_id: str) -> Survivor:
    return Survivor(id=mutant_id, operator="swap", block_id="b1", description="swapped")
