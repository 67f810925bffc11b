"""Checks that a task's script passes its golden project and fails its initial project.

A debug task must fail on its initial project (the bug must be caught); for the other kinds
the initial project's verdict is reported but does not decide validity.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from studio.models.check import CheckReport, CheckSummary, TaskCheck
from studio.models.evaluation import ErrorKind, EvalResult
from studio.models.task import Category
from studio.services.errors import TaskFileError
from studio.services.evaluator import Evaluator
from studio.services.store import TaskFolder

log = logging.getLogger("studio.check")

# Errors that say the task itself is broken, not that the program under test is wrong.
TASK_FAULTS = {ErrorKind.PROJECT, ErrorKind.SYNTAX, ErrorKind.SETUP, ErrorKind.RESULT}

ProgressFn = Callable[[int, int, TaskCheck], None]


async def check_task(evaluator: Evaluator, entry: TaskFolder) -> TaskCheck:
    """Evaluate golden and initial projects of one task (concurrently) and judge the task."""
    task = entry.task
    check = TaskCheck(id=task.id, category=task.category.value, folder=str(entry.folder))
    golden_path = entry.golden_path
    jobs = [evaluator.evaluate(entry, entry.initial_path)]
    if golden_path is not None:
        jobs.append(evaluator.evaluate(entry, golden_path))
    results = await asyncio.gather(*jobs)
    initial = results[0]
    golden = results[1] if golden_path is not None else None
    check.initial, check.golden = initial, golden
    if golden is None:
        check.errors.append("the task has no golden project")
    else:
        check.golden_passed = golden.ok
        if not golden.ok:
            check.errors.append("golden project does not pass: " + _why(golden))
    check.initial_failed = not initial.success
    if initial.error is not None and initial.error.kind in TASK_FAULTS:
        check.errors.append("initial project: " + _why(initial))
    elif task.category is Category.DEBUG and not check.initial_failed:
        check.errors.append("debug task: the initial project passes, so the bug is not caught")
    check.ok = not check.errors
    return check


def load_failure(error: TaskFileError) -> TaskCheck:
    """A task folder that could not be read is a failed check, not a crash."""
    return TaskCheck(
        id=error.path.parent.name if error.path.name == "task.json" else error.path.name,
        folder=str(error.path.parent if error.path.is_file() else error.path),
        errors=[str(error)],
    )


async def check_tasks(
    evaluator: Evaluator,
    entries: Sequence[TaskFolder],
    load_errors: Sequence[TaskFileError] = (),
    workers: int = 2,
    progress: ProgressFn | None = None,
) -> CheckReport:
    """Check many tasks with at most `workers` tasks in flight."""
    t0 = time.perf_counter()
    gate = asyncio.Semaphore(max(1, workers))
    checks = [load_failure(e) for e in load_errors]
    total = len(entries) + len(checks)
    done = len(checks)
    for c in checks:
        if progress:
            progress(checks.index(c) + 1, total, c)

    async def one(entry: TaskFolder) -> TaskCheck:
        nonlocal done
        async with gate:
            result = await check_task(evaluator, entry)
        done += 1
        if progress:
            progress(done, total, result)
        return result

    checks.extend(await asyncio.gather(*(one(e) for e in entries)))
    seconds = time.perf_counter() - t0
    evaluations = sum((c.golden is not None) + (c.initial is not None) for c in checks)
    summary = CheckSummary(
        tasks=len(checks),
        ok=sum(c.ok for c in checks),
        failed=sum(not c.ok for c in checks),
        evaluations=evaluations,
        seconds=round(seconds, 2),
        evaluations_per_minute=round(evaluations / seconds * 60, 1) if seconds else 0.0,
    )
    return CheckReport(tasks=checks, summary=summary)


def _why(result: EvalResult) -> str:
    if result.error is not None:
        where = result.error.file or result.project
        line = f":{result.error.line}" if result.error.line else ""
        return f"{result.error.kind.value} error in {where}{line}: {result.error.message}"
    failing = [d.name for d in result.details if not d.passed]
    return f"{result.passed_tests}/{result.total_tests} tests passed; failing: {', '.join(failing)}"
