"""Evaluating mutants of a golden project and classifying them: killed, survived, flaky or
invalid. A failing verdict on a mutant counts as a kill only where the golden project passed
with the same seed and clock.

The runner evaluates through a `Reruns` callable (the checker's: the project once per rerun,
each with its own seed, within the checker's limit of parallel pages), so it needs nothing
else of the checker.

`run_gated` is how both the checker and `propose` run the golden, initial and mutant
projects: every project once per seed, all at once, yet never more than the gate's number of
evaluations running together; a callback hears of each evaluation that ends (progress).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from studio.models.check import FlakyTest, MutantTrial, Survivor, TaskCheck
from studio.models.evaluation import Clock, ErrorKind, EvalResult
from studio.services.checking.mutation.engine import generate_mutants, mutant_sb3
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder

if TYPE_CHECKING:
    from studio.models.mutation import Mutant

__all__ = [
    "MutantRunner", "Reruns", "Subject", "build_mutant", "find_mutant", "flaky_tests", "run_gated",
]  # fmt: skip

# (task, project, its file name, clock) -> one result per rerun, with the seeds of the golden
# project's runs in the same order (a kill compares each run with the golden run of its seed)
Reruns = Callable[[TaskFolder, bytes | Path, str, Clock], Awaitable[list[EvalResult]]]


T = TypeVar("T")


@dataclass(frozen=True)
class Subject:
    """A project to evaluate once per seed: its bytes or path, its file name, the seeds, and
    what a progress line calls it."""

    project: bytes | Path
    name: str
    seeds: Sequence[int]
    label: str = ""


async def run_gated(
    evaluate: Callable[[bytes | Path, str, int], Awaitable[T]],
    subjects: Sequence[Subject],
    gate: asyncio.Semaphore,
    on_done: Callable[[Subject], None] | None = None,
) -> list[list[T]]:
    """Each subject evaluated once per seed (`evaluate(project, name, seed)`), all at once but
    at most the gate's number at a time; per subject, its results in the order of its seeds.
    `on_done(subject)` follows each evaluation that ends, whether or not it raised."""

    async def one(subject: Subject, seed: int) -> T:
        async with gate:
            try:
                return await evaluate(subject.project, subject.name, seed)
            finally:
                if on_done is not None:
                    on_done(subject)

    flat = await asyncio.gather(*(one(s, seed) for s in subjects for seed in s.seeds))
    out: list[list[T]] = []
    start = 0
    for subject in subjects:
        out.append(list(flat[start : start + len(subject.seeds)]))
        start += len(subject.seeds)
    return out


def flaky_tests(results: list[EvalResult], label: str) -> list[FlakyTest]:
    """Tests of one project whose verdict differs between runs (a missing test fails)."""
    names: list[str] = []
    for r in results:
        names += [d.name for d in r.details if d.name not in names]
    passes = Counter(d.name for r in results for d in r.details if d.passed)
    return [
        FlakyTest(project=label, test=n, passed_runs=passes[n], runs=len(results))
        for n in names
        if 0 < passes[n] < len(results)
    ]


class MutantRunner:
    """Generates `count` mutants of the task (with `seed`) and evaluates each through `runs`."""

    def __init__(
        self,
        runs: Reruns,
        entry: TaskFolder,
        clock: Clock,
        golden_runs: list[EvalResult],
        count: int,
        seed: int,
    ) -> None:
        self.runs = runs
        self.entry = entry
        self.clock = clock
        self.golden_runs = golden_runs
        self.count = count
        self.seed = seed
        # told how many of the `count` mutants will not be evaluated (fewer could be made, or
        # one could not be built), so that a progress count does not jump at the end
        self.not_evaluated: Callable[[int], None] = lambda _n: None

    async def run_into(self, check: TaskCheck) -> None:
        assert self.entry.golden_path is not None
        golden_bytes = self.entry.golden_path.read_bytes()
        golden = read_project_json(golden_bytes, self.entry.golden_path)
        initial = read_project_json(self.entry.initial_path.read_bytes(), self.entry.initial_path)
        mutants = generate_mutants(golden, initial, self.count, self.seed)
        if len(mutants) < self.count:
            self.not_evaluated(self.count - len(mutants))
        runs = await asyncio.gather(*(self._one(m, golden_bytes) for m in mutants))
        equivalent = {e.mutant_id: e.reason for e in self.entry.task.equivalent_mutants}
        check.mutants = list(runs)
        check.mutants_total = len(runs)
        check.mutants_invalid = sum(r.status == "invalid" for r in runs)
        check.mutants_killed = sum(r.status == "killed" for r in runs)
        for r in runs:
            if r.status not in ("survived", "flaky"):
                continue
            reason = equivalent.get(r.id)
            check.mutants_equivalent += reason is not None
            check.survivors.append(
                Survivor(
                    id=r.id,
                    operator=r.operator,
                    sprite=r.sprite,
                    block_id=r.block_id,
                    description=r.description,
                    flaky=r.status == "flaky",
                    equivalent_reason=reason,
                )
            )

    async def _one(self, mutant: Mutant, golden_bytes: bytes) -> MutantTrial:
        run = MutantTrial(
            id=mutant.id,
            operator=mutant.operator,
            sprite=mutant.sprite,
            block_id=mutant.block_id,
            description=mutant.description,
            status="invalid",
        )
        try:
            data = mutant_sb3(golden_bytes, mutant)
        except Exception as exc:  # a mutant we cannot even pack is discarded, never a kill
            run.note = f"could not be built: {exc}"
            self.not_evaluated(1)
            return run
        results = await self.runs(self.entry, data, f"{mutant.id}.sb3", self.clock)
        broken = next((r for r in results if r.error and r.error.kind is ErrorKind.PROJECT), None)
        if broken is not None:
            run.note = f"the VM cannot load it: {broken.error.message if broken.error else ''}"
            return run
        kills = [not r.success and g.ok for r, g in zip(results, self.golden_runs, strict=False)]
        run.passes = [r.success for r in results]
        run.status = "killed" if all(kills) else "survived" if not any(kills) else "flaky"
        return run


def find_mutant(entry: TaskFolder, count: int, seed: int, mutant_id: str) -> Mutant:
    """Mutant `mutant_id` as a check with `count` mutants and `seed` made it; KeyError naming
    the task folder when it is not among them."""
    assert entry.golden_path is not None
    golden = read_project_json(entry.golden_path.read_bytes(), entry.golden_path)
    initial = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
    for mutant in generate_mutants(golden, initial, count, seed):
        if mutant.id == mutant_id:
            return mutant
    raise KeyError(f"{entry.folder}: no mutant {mutant_id!r} among {count} made with seed {seed}")


def build_mutant(entry: TaskFolder, count: int, seed: int, mutant_id: str) -> bytes:
    """The .sb3 of mutant `mutant_id` as a check with `count` mutants and `seed` made it."""
    assert entry.golden_path is not None
    mutant = find_mutant(entry, count, seed, mutant_id)
    return mutant_sb3(entry.golden_path.read_bytes(), mutant)
