"""Check tasks and record each verdict beside its task: the one way both front ends check.

`studio check` and the window's Check command both run the adversarial check through this
module, so both leave the same trace: every task checked gets its `last_check.json` (the
verdict, the figures and a fingerprint of the files judged, services.authoring.check_record),
and the library's verdict column, read by `library_verdicts`, shows the last check whichever
front end ran it.

The clock of every evaluation follows one policy, `studio.app.clocks.clock_policy`.

Recording rules: the fingerprint is taken when the check starts, so files edited while it ran
leave the record stale; the record's time is `now()` in UTC when the check ended; a task folder
that could not be read at all (no task.json to key a record by) gets none; a record that cannot
be written is reported (`CheckRecordError`, naming the file and the problem), never taken for a
failed check. A cancelled check records nothing for the tasks it had not finished.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from studio.app.clocks import ClockPolicy
from studio.models.check import CheckReport, TaskCheck
from studio.models.errors import StudioError
from studio.services.authoring.check_record import (
    RECORD_FILE,
    CheckRecord,
    fingerprint,
    last_checks,
    save_check,
)
from studio.services.checking.checker import CheckOptions, TaskChecker, check_tasks
from studio.services.core.errors import TaskFileError
from studio.services.core.store import TaskFolder, scan_library
from studio.services.runtime.evaluator import Evaluates

__all__ = [
    "RECORD_FILE", "CheckRecordError", "CheckedTasks", "RecordedCheck", "TasksToCheck",
    "check_and_record", "check_task_and_record", "gather_tasks",
    "library_verdicts", "record_check", "utc_now",
]  # fmt: skip


def utc_now() -> datetime:
    """The time a check record carries: now, in UTC."""
    return datetime.now(UTC)


class CheckRecordError(StudioError):
    """The record of a check could not be written beside its task."""


@dataclass(frozen=True)
class RecordedCheck:
    """A finished check of one task and what was kept of it (None: no record)."""

    check: TaskCheck
    record: CheckRecord | None
    when: datetime


def record_check(
    entry: TaskFolder,
    check: TaskCheck,
    started_fingerprint: str | None = None,
    now: Callable[[], datetime] = utc_now,
) -> RecordedCheck:
    """Write `check` as the task's last check (atomically); `started_fingerprint` is the
    fingerprint taken when the check started (None: the files as they are now).

    Raises CheckRecordError naming the record file when it cannot be written."""
    when = now().astimezone(UTC)
    try:
        record = save_check(entry, check, when, started_fingerprint)
    except OSError as exc:
        path = entry.folder / RECORD_FILE
        raise CheckRecordError(f"{path}: the check could not be recorded ({exc})") from None
    return RecordedCheck(check, record, when)


async def check_task_and_record(
    evaluator: Evaluates,
    entry: TaskFolder,
    options: CheckOptions,
    policy: ClockPolicy,
    progress: Callable[[int, int], None] | None = None,
    now: Callable[[], datetime] = utc_now,
) -> RecordedCheck:
    """Check one task (the window's Check) and record it; `progress(done, expected)` follows
    the evaluations. A cancelled check raises CancelledError and records nothing."""
    started = await asyncio.to_thread(fingerprint, entry.folder)  # what this check judges
    checker = TaskChecker(evaluator, options, policy.agreement)
    checker.progress = progress
    check = await checker.check(entry)
    return await asyncio.to_thread(record_check, entry, check, started, now)


@dataclass
class TasksToCheck:
    """The task folders found under the paths given, and the folders that could not be read."""

    entries: list[TaskFolder] = field(default_factory=list)
    errors: list[TaskFileError] = field(default_factory=list)


def gather_tasks(paths: Sequence[Path]) -> TasksToCheck:
    """Every task folder under `paths` (task folders or libraries), in order; a path or a
    folder that cannot be read is kept as an error (checked as a failure). Raises StudioError
    when the paths hold no task folder at all."""
    found = TasksToCheck()
    for path in paths:
        try:
            scan = scan_library(path)
        except TaskFileError as exc:
            found.errors.append(exc)
            continue
        found.entries.extend(scan.tasks)
        found.errors.extend(scan.errors)
    if not found.entries and not found.errors:
        raise StudioError(f"no task folders (with task.json) under {', '.join(map(str, paths))}")
    return found


@dataclass
class CheckedTasks:
    """A check of many tasks: the report, the records kept (by task id) and the records that
    could not be written (task id: why)."""

    report: CheckReport
    recorded: dict[str, CheckRecord] = field(default_factory=dict)
    not_recorded: dict[str, str] = field(default_factory=dict)


async def check_and_record(
    evaluator: Evaluates,
    tasks: TasksToCheck,
    options: CheckOptions,
    policy: ClockPolicy,
    progress: Callable[[int, int, TaskCheck], None] | None = None,
    record: bool = True,
    now: Callable[[], datetime] = utc_now,
) -> CheckedTasks:
    """Check `tasks` (`studio check`) and, with `record`, record each task's verdict as soon as
    its check ends; `progress(done, total, check)` follows the tasks."""
    by_folder = {str(entry.folder): entry for entry in tasks.entries}
    started = {key: fingerprint(entry.folder) for key, entry in by_folder.items()} if record else {}
    recorded: dict[str, CheckRecord] = {}
    not_recorded: dict[str, str] = {}

    def finished(done: int, total: int, check: TaskCheck) -> None:
        entry = by_folder.get(check.folder)
        if record and entry is not None:
            try:
                kept = record_check(entry, check, started[check.folder], now).record
            except CheckRecordError as exc:
                not_recorded[check.id] = str(exc)
            else:
                if kept is not None:
                    recorded[check.id] = kept
        if progress is not None:
            progress(done, total, check)

    report = await check_tasks(
        evaluator, tasks.entries, tasks.errors, options, finished, policy.agreement
    )
    return CheckedTasks(report, recorded, not_recorded)


def library_verdicts(entries: Iterable[TaskFolder]) -> dict[str, tuple[str, datetime | None]]:
    """The library's verdict column: each task's last recorded verdict and when, by task id
    (tasks never checked, or whose record cannot be read, are absent)."""
    return {task_id: (r.verdict.value, r.when) for task_id, r in last_checks(entries).items()}
