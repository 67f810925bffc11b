"""Marking a surviving mutant equivalent to the golden program (and taking the mark back).

A mark (`EquivalentMutant` in task.json) keeps everything that says which mutant was judged:
its id, operator, block id and description, with the author's reason, who decided and when.
The window marks a survivor of the check it shows (`mark`, `with_mark`); the command line
names the mutant by id and finds it again as the check made it (`mark_by_id`: the same
`count` mutants with the same `seed`). Marking a mutant again replaces its earlier mark; the
next check counts a marked survivor as equivalent (studio.services.checking.mutant_trials).

An empty reason, a task without a golden project (so without mutants) and a mutant id that
the check would not make raise StudioError naming the task folder.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from studio.models.errors import StudioError
from studio.models.task import EquivalentMutant, Task
from studio.services.checking.mutant_trials import find_mutant
from studio.services.core.store import TaskFolder, save_task

__all__ = ["JudgedMutant", "mark", "mark_by_id", "unmark_by_id", "with_mark", "without_mark"]


class JudgedMutant(Protocol):
    """What a mark records of the mutant: a survivor, a mutant trial or a generated mutant."""

    @property
    def id(self) -> str: ...
    @property
    def operator(self) -> str: ...
    @property
    def block_id(self) -> str: ...
    @property
    def description(self) -> str: ...


def mark(
    mutant: JudgedMutant, reason: str, by: str, at: datetime | None = None
) -> EquivalentMutant:
    """The mark of `mutant` as equivalent, for `reason` (stripped; it may not be empty)."""
    if not reason.strip():
        raise StudioError(f"mutant {mutant.id}: give a reason why it is equivalent")
    return EquivalentMutant(
        mutant_id=mutant.id,
        operator=mutant.operator,
        block_id=mutant.block_id,
        description=mutant.description,
        reason=reason.strip(),
        by=by,
        at=at or datetime.now(UTC),
    )


def with_mark(task: Task, note: EquivalentMutant) -> Task:
    """`task` with `note` in place of any earlier mark of the same mutant."""
    kept = [e for e in task.equivalent_mutants if e.mutant_id != note.mutant_id]
    return task.model_copy(update={"equivalent_mutants": [*kept, note]})


def without_mark(task: Task, mutant_id: str) -> Task:
    """`task` without a mark of mutant `mutant_id`."""
    kept = [e for e in task.equivalent_mutants if e.mutant_id != mutant_id]
    return task.model_copy(update={"equivalent_mutants": kept})


def mark_by_id(
    entry: TaskFolder, mutant_id: str, reason: str, by: str, count: int, seed: int
) -> EquivalentMutant:
    """Mark mutant `mutant_id` of `entry`, found among the `count` mutants a check with `seed`
    makes, and save task.json; the mark made."""
    if entry.golden_path is None or not entry.golden_path.is_file():
        raise StudioError(f"{entry.folder}: the task has no golden project, so no mutants")
    try:
        mutant = find_mutant(entry, count, seed, mutant_id)
    except KeyError as exc:
        raise StudioError(
            f"{exc.args[0]}; give the --mutants and --seed of the check that listed it"
        ) from None
    note = mark(mutant, reason, by)
    entry.task.equivalent_mutants = with_mark(entry.task, note).equivalent_mutants
    save_task(entry)
    return note


def unmark_by_id(entry: TaskFolder, mutant_id: str) -> None:
    """Remove the mark of mutant `mutant_id` of `entry` (if any) and save task.json."""
    entry.task.equivalent_mutants = without_mark(entry.task, mutant_id).equivalent_mutants
    save_task(entry)
