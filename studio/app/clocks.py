"""Which clock evaluates a task: one policy for checks and single evaluations, whichever front
end runs them.

The clock policy is chosen once, by `clock_policy`: a task evaluates on the virtual clock
unless the user forces real time, the task asks for it, or a comparison of both clocks
(cached per task content in the user's cache) found that they disagree; `compare_clocks` asks
for that comparison where none is cached. The command line passes its `--realtime` and
`--compare-clocks` flags; the window passes none. The same policy runs a single evaluation
(`ClockPolicy.evaluate`: `studio eval` and the window's Evaluate, both falling back to real
time when the script used what the virtual clock cannot serve), names its clock
(`ClockPolicy.clock_for`) and gives the options of a check (`ClockPolicy.options`).

The policy is cheap to build: the checker is imported only when a check's options are made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from studio.models.evaluation import Clock, EvalResult
from studio.services.core.store import TaskFolder
from studio.services.runtime.clock_agreement import (
    AgreementCache,
    clock_for,
    evaluate_on_chosen_clock,
)
from studio.services.runtime.evaluator import Evaluator

if TYPE_CHECKING:
    from studio.services.checking.checker import CheckOptions

__all__ = ["ClockPolicy", "clock_policy"]


@dataclass(frozen=True)
class ClockPolicy:
    """Which clock the evaluations of a check (or a single evaluation) run on."""

    realtime: bool = False  # every evaluation in real time
    compare_clocks: bool = False  # run both clocks once where no comparison is cached
    agreement: AgreementCache | None = None  # known comparisons, keyed by task content

    def clock_for(self, entry: TaskFolder) -> Clock:
        """The clock of one evaluation of `entry` (no comparison is run for it)."""
        return clock_for(entry, self.realtime, self.agreement)

    async def evaluate(
        self,
        evaluator: Evaluator,
        entry: TaskFolder,
        project: bytes | Path | None = None,
        *,
        project_name: str | None = None,
        timeout_s: float | None = None,
        seed: int = 0,
        script: str | None = None,
    ) -> EvalResult:
        """One evaluation (`studio eval`, the window's Evaluate) on the policy's clock; a
        virtual run whose script used what the virtual clock cannot serve is done again in real
        time, remembered in the cache, and the result's `clock_note` says why."""
        return await evaluate_on_chosen_clock(
            evaluator,
            entry,
            project,
            realtime=self.realtime,
            cache=self.agreement,
            project_name=project_name,
            timeout_s=timeout_s,
            seed=seed,
            script=script,
        )

    def options(
        self, mutants: int = 10, reruns: int = 3, workers: int = 2, seed: int = 0
    ) -> CheckOptions:
        """A check's options under this policy (mutants 0 or more, reruns and workers 1 or more)."""
        from studio.services.checking.checker import CheckOptions  # the checker loads for checks

        return CheckOptions(
            mutants=max(0, mutants),
            reruns=max(1, reruns),
            workers=max(1, workers),
            seed=seed,
            realtime=self.realtime,
            compare_clocks=self.compare_clocks,
        )


def clock_policy(
    realtime: bool = False, compare_clocks: bool = False, agreement: AgreementCache | None = None
) -> ClockPolicy:
    """The clock policy of a check or an evaluation; `agreement` defaults to the user's cache
    of clock comparisons (one file in the studio's cache folder)."""
    return ClockPolicy(realtime, compare_clocks, agreement or AgreementCache())
