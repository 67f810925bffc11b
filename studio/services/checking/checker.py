"""Adversarial checks of tasks.

A task is valid when its script passes the golden project on every rerun, fails the initial
project of a debug task, and kills the mutants of the golden project (or the author has marked
the survivors equivalent). Reruns use different seeds and expose flaky verdicts.

Evaluations run on the virtual clock unless the task asks for real time. Nothing runs in real
time on the way to a verdict: a task falls back to real time only when its script uses what the
virtual clock cannot serve (the page names it, e.g. a Worker), or when a comparison of both
clocks on its golden and initial projects, run because the user asked for it
(`compare_clocks`), found that they disagree; both findings are cached per task content.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from studio.models.check import (
    CheckReport,
    CheckSummary,
    PhaseTimes,
    TaskCheck,
    Verdict,
    WeakScript,
)
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, ErrorKind, EvalResult
from studio.models.task import Category, ClockPreference
from studio.services.checking.mutant_trials import MutantRunner, Subject, flaky_tests, run_gated
from studio.services.core.errors import TaskFileError
from studio.services.core.paths import SetupError
from studio.services.core.store import TaskFolder
from studio.services.runtime.clock_agreement import (
    Agreement,
    AgreementCache,
    compare_verdicts,
    hazards_note,
)
from studio.services.runtime.evaluator import Evaluates

__all__ = [
    "TASK_FAULTS", "WEAKEST_SHOWN", "CheckOptions", "Evaluation", "ProgressFn", "TaskChecker",
    "check_tasks", "describe_failure", "judge", "load_failure", "weakest_scripts",
]  # fmt: skip

log = logging.getLogger("studio.check")

# Errors that say the task itself is broken, not that the program under test is wrong.
TASK_FAULTS = {ErrorKind.PROJECT, ErrorKind.SYNTAX, ErrorKind.SETUP, ErrorKind.RESULT}

ProgressFn = Callable[[int, int, TaskCheck], None]
Evaluation = Callable[[bytes | Path, str, int], Awaitable[EvalResult]]
WEAKEST_SHOWN = 10


@dataclass
class CheckOptions:
    """How hard to check: mutants per task, reruns per project, parallel pages, base seed."""

    mutants: int = 10
    reruns: int = 3
    workers: int = 2
    seed: int = 0
    realtime: bool = False
    compare_clocks: bool = False  # also run golden and initial in real time and compare


class TaskChecker:
    """Checks tasks with a shared evaluator; at most `workers` evaluations run at once."""

    def __init__(
        self, evaluator: Evaluates, options: CheckOptions, agreement: AgreementCache | None = None
    ) -> None:
        self.evaluator = evaluator
        self.options = options
        self.agreement = agreement
        self.evaluations = 0
        self.finished = 0
        self.expected = 0  # evaluations the current check() is expected to make
        self.progress: Callable[[int, int], None] | None = None  # (finished, expected)
        self.phase_sums: dict[str, float] = {}  # PhaseTimes' fields summed over evaluations
        self.task_phases: dict[str, tuple[dict[str, float], list[int]]] = {}  # per task, a count
        self._gate = asyncio.Semaphore(max(1, options.workers))

    def _evaluation(self, entry: TaskFolder, clock: Clock) -> Evaluation:
        """One evaluation of `entry` on `clock` (project, name, seed), counted with its
        phases; `run_gated` runs it within the gate."""

        async def evaluate(project: bytes | Path, name: str, seed: int) -> EvalResult:
            self.evaluations += 1
            result = await self.evaluator.evaluate(
                entry, project, project_name=name, clock=clock, seed=seed
            )
            sums, count = self.task_phases.setdefault(entry.task.id, ({}, [0]))
            for name, value in PhaseTimes.values(result.timings).items():
                self.phase_sums[name] = self.phase_sums.get(name, 0.0) + value
                sums[name] = sums.get(name, 0.0) + value
            count[0] += 1
            return result

        return evaluate

    def _ended(self, _subject: Subject) -> None:
        self.finished += 1
        if self.progress is not None:
            self.expected = max(self.expected, self.finished)
            self.progress(self.finished, self.expected)

    async def _gated(
        self, entry: TaskFolder, clock: Clock, subjects: list[Subject]
    ) -> list[list[EvalResult]]:
        return await run_gated(self._evaluation(entry, clock), subjects, self._gate, self._ended)

    def _seeds(self) -> list[int]:
        return [self.options.seed + i for i in range(max(1, self.options.reruns))]

    async def runs(
        self, entry: TaskFolder, project: bytes | Path, name: str, clock: Clock
    ) -> list[EvalResult]:
        """The project evaluated once per rerun, each with its own seed."""
        return (await self._gated(entry, clock, [Subject(project, name, self._seeds())]))[0]

    async def check(self, entry: TaskFolder) -> TaskCheck:
        t0 = time.perf_counter()
        task = entry.task
        check = TaskCheck(id=task.id, category=task.category.value, folder=str(entry.folder))
        check.reruns = max(1, self.options.reruns)
        self.finished = 0
        self.expected = check.reruns * (2 + max(0, self.options.mutants))
        if entry.golden_path is None:
            check.errors.append("the task has no golden project")
            return _finish(check, t0)
        clock = await self._choose_clock(entry, check)
        golden_runs, initial_runs = await self._golden_and_initial(entry, clock)
        hazards = sorted({h for r in golden_runs + initial_runs for h in r.clock_hazards})
        if clock is Clock.VIRTUAL and hazards and self._may_fall_back(entry):
            clock = Clock.REAL
            check.clock_note = "fell back to real time: " + hazards_note(hazards)
            log.warning("%s: %s", task.id, check.clock_note)
            if self.agreement:
                self.agreement.store(entry, Agreement(False, hazards_note(hazards)))
            self.expected += 2 * check.reruns
            golden_runs, initial_runs = await self._golden_and_initial(entry, clock)
        check.clock = clock.value
        _judge_golden_and_initial(check, task.category, golden_runs, initial_runs)
        if check.golden_passed and self.options.mutants > 0:
            options = self.options
            runner = MutantRunner(
                self.runs, entry, clock, golden_runs, options.mutants, options.seed
            )
            runner.not_evaluated = lambda n: self._expect_fewer(n * check.reruns)
            await runner.run_into(check)
        else:  # no mutant is run
            self._expect_fewer(self.expected - self.finished)
        if self.progress is not None:
            self.progress(self.finished, self.finished)
        return _finish(check, t0)

    def _expect_fewer(self, evaluations: int) -> None:
        """`evaluations` of those expected will not be made: the progress total shrinks now,
        rather than the count jumping to done at the end."""
        self.expected = max(self.finished, self.expected - max(0, evaluations))
        if self.progress is not None and evaluations > 0:
            self.progress(self.finished, self.expected)

    async def _golden_and_initial(
        self, entry: TaskFolder, clock: Clock
    ) -> tuple[list[EvalResult], list[EvalResult]]:
        assert entry.golden_path is not None
        golden = entry.task.golden_project or "golden.sb3"
        seeds = self._seeds()
        subjects = [
            Subject(entry.golden_path, golden, seeds),
            Subject(entry.initial_path, entry.task.initial_project, seeds),
        ]
        golden_runs, initial_runs = await self._gated(entry, clock, subjects)
        return golden_runs, initial_runs

    def _may_fall_back(self, entry: TaskFolder) -> bool:
        return entry.task.evaluation.clock is ClockPreference.AUTO

    async def _choose_clock(self, entry: TaskFolder, check: TaskCheck) -> Clock:
        preference = entry.task.evaluation.clock
        if self.options.realtime or preference is ClockPreference.REAL:
            check.clock_note = "real time requested"
            return Clock.REAL
        if preference is ClockPreference.VIRTUAL:
            return Clock.VIRTUAL
        cached = self.agreement.lookup(entry) if self.agreement else None
        if self.options.compare_clocks and cached is None:
            cached = await self._compare_clocks(entry)
            if self.agreement:
                self.agreement.store(entry, cached)
        if cached is None:
            return Clock.VIRTUAL
        if cached.agree:
            check.clock_note = "compared: virtual and real time agree on golden and initial"
            return Clock.VIRTUAL
        check.clock_note = f"fell back to real time: {cached.note}"
        log.warning("%s: %s", entry.task.id, check.clock_note)
        return Clock.REAL

    async def _compare_clocks(self, entry: TaskFolder) -> Agreement:
        seed = [self.options.seed]
        self.expected += 4
        assert entry.golden_path is not None
        subjects = [
            Subject(entry.golden_path, "golden", seed),
            Subject(entry.initial_path, "initial", seed),
        ]
        real, virtual = await asyncio.gather(
            self._gated(entry, Clock.REAL, subjects), self._gated(entry, Clock.VIRTUAL, subjects)
        )
        return compare_verdicts(
            {"golden": (real[0][0], virtual[0][0]), "initial": (real[1][0], virtual[1][0])}
        )


def _judge_golden_and_initial(
    check: TaskCheck, category: Category, golden: list[EvalResult], initial: list[EvalResult]
) -> None:
    check.golden, check.initial = golden[0], initial[0]
    check.golden_passed = all(r.ok for r in golden)
    if not check.golden_passed:
        worst = next(r for r in golden if not r.ok)
        runs = (
            f" in {sum(not r.ok for r in golden)} of {len(golden)} runs" if len(golden) > 1 else ""
        )
        check.errors.append(f"golden project does not pass{runs}: " + describe_failure(worst))
    check.initial_failed = all(not r.success for r in initial)
    fault = next((r for r in initial if r.error and r.error.kind in TASK_FAULTS), None)
    if fault is not None:
        check.errors.append("initial project: " + describe_failure(fault))
    elif category is Category.DEBUG and not check.initial_failed:
        passing = sum(r.success for r in initial)
        check.errors.append(
            f"debug task: the initial project passes in {passing} of {len(initial)} runs, "
            "so the bug is not caught"
        )
    check.flaky.extend(flaky_tests(golden, "golden") + flaky_tests(initial, "initial"))


def judge(check: TaskCheck) -> TaskCheck:
    """Set the verdict from the findings (again after a survivor was marked equivalent)."""
    if check.errors:
        check.verdict = Verdict.INVALID
    elif check.flaky:
        check.verdict = Verdict.FLAKY
    elif any(s.equivalent_reason is None for s in check.survivors):
        check.verdict = Verdict.WEAK
    else:
        check.verdict = Verdict.VALID
    check.ok = check.verdict is Verdict.VALID
    check.mutants_equivalent = sum(s.equivalent_reason is not None for s in check.survivors)
    return check


def _finish(check: TaskCheck, t0: float) -> TaskCheck:
    judge(check)
    check.seconds = round(time.perf_counter() - t0, 2)
    return check


def load_failure(error: TaskFileError) -> TaskCheck:
    """A task folder that could not be read is a failed check, not a crash."""
    folder = error.path.parent if error.path.name == "task.json" else error.path
    return TaskCheck(id=folder.name, folder=str(folder), errors=[str(error)])


async def check_tasks(
    evaluator: Evaluates,
    entries: Sequence[TaskFolder],
    load_errors: Sequence[TaskFileError] = (),
    options: CheckOptions | None = None,
    progress: ProgressFn | None = None,
    agreement: AgreementCache | None = None,
) -> CheckReport:
    """Check many tasks; tasks run concurrently, evaluations are bounded by `workers`."""
    options = options or CheckOptions()
    t0 = time.perf_counter()
    checker = TaskChecker(evaluator, options, agreement)
    checks = [load_failure(e) for e in load_errors]
    total = len(entries) + len(checks)
    done = 0
    for c in checks:
        done += 1
        if progress:
            progress(done, total, c)

    async def one(entry: TaskFolder) -> TaskCheck:
        nonlocal done
        try:
            result = await checker.check(entry)
        except SetupError:  # the studio's set-up, not this task: it stops the check
            raise
        except StudioError as exc:  # a file of this task is unusable: the others go on
            result = TaskCheck(
                id=entry.task.id,
                category=entry.task.category.value,
                folder=str(entry.folder),
                errors=[str(exc)],
            )
        done += 1
        if progress:
            progress(done, total, result)
        return result

    checks.extend(await asyncio.gather(*(one(e) for e in entries)))
    for c in checks:  # each task's own phase figures (studio check --profile prints them)
        sums, count = checker.task_phases.get(c.id, ({}, [0]))
        if count[0]:
            c.phases = PhaseTimes.mean(sums, count[0])
    summary = _summary(checks, checker.evaluations, t0)
    if checker.evaluations:
        summary.phases = PhaseTimes.mean(checker.phase_sums, checker.evaluations)
    return CheckReport(tasks=checks, summary=summary)


def _summary(checks: list[TaskCheck], evaluations: int, t0: float) -> CheckSummary:
    seconds = time.perf_counter() - t0
    total = sum(c.mutants_total - c.mutants_invalid for c in checks)
    killed = sum(c.mutants_killed for c in checks)
    return CheckSummary(
        tasks=len(checks),
        ok=sum(c.ok for c in checks),
        failed=sum(not c.ok for c in checks),
        evaluations=evaluations,
        seconds=round(seconds, 2),
        evaluations_per_minute=round(evaluations / seconds * 60, 1) if seconds else 0.0,
        mutants_total=total,
        mutants_killed=killed,
        kill_rate=round(killed / total, 4) if total else None,
        weakest=weakest_scripts(checks),
    )


def weakest_scripts(checks: Sequence[TaskCheck], limit: int = WEAKEST_SHOWN) -> list[WeakScript]:
    """The tasks whose scripts killed the smallest share of their mutants (below all)."""
    weak = [c for c in checks if c.kill_rate is not None and c.kill_rate < 1]
    weak.sort(key=lambda c: (c.kill_rate, c.id))
    return [
        WeakScript(
            id=c.id,
            kill_rate=c.kill_rate or 0.0,
            mutants_killed=c.mutants_killed,
            mutants_ran=c.mutants_total - c.mutants_invalid,
            survivors=len(c.survivors),
        )
        for c in weak[:limit]
    ]


def describe_failure(result: EvalResult) -> str:
    """One line on why a result is not a pass: the error, or the failing tests."""
    if result.error is not None:
        where = result.error.file or result.project
        line = f":{result.error.line}" if result.error.line else ""
        return f"{result.error.kind.value} error in {where}{line}: {result.error.message}"
    failing = [d.name for d in result.details if not d.passed]
    return f"{result.passed_tests}/{result.total_tests} tests passed; failing: {', '.join(failing)}"
