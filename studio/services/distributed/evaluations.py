"""The cluster's evaluator: `evaluator.Evaluates`, with the page work done by a worker.

The evaluation is prepared here, exactly as `Evaluator` prepares it (project bytes, script,
helper library, limit, clock, seed), so the worker needs no task file, and a project that
cannot be read fails here with the same error. The worker runs it in a fresh page of its warm
browser (`worker.StudioWorker.evaluate`); a lost worker's evaluation runs again on another.
On an edition other than current, the job carries the edition and the worker runs it in its
evaluation pages of that edition (`worker.StudioWorker.evaluate_on`).
"""

from __future__ import annotations

import itertools
from pathlib import Path

from studio.models.evaluation import Clock, EvalResult
from studio.models.task import ScriptLimit
from studio.services.core.store import TaskFolder
from studio.services.distributed.dispatch import Dispatcher
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import prepare

__all__ = ["ClusterEvaluator"]


class ClusterEvaluator:
    """Evaluate projects on the cluster's workers, through a dispatcher."""

    def __init__(self, dispatcher: Dispatcher, edition: Edition = Edition.CURRENT) -> None:
        self.dispatcher = dispatcher
        self.edition = edition
        self._jobs = itertools.count(1)

    async def evaluate(
        self,
        entry: TaskFolder,
        project: bytes | Path | None = None,
        project_name: str | None = None,
        timeout_s: float | None = None,
        clock: Clock = Clock.REAL,
        seed: int = 0,
    ) -> EvalResult:
        limit = ScriptLimit(timeout_s, "the limit given for this run") if timeout_s else None
        prepared = prepare(entry, project, project_name, limit, clock, seed)
        if isinstance(prepared, EvalResult):
            return prepared
        key = f"{entry.task.id}/{prepared.result.project}/{clock.value}/{seed}#{next(self._jobs)}"
        if self.edition is Edition.CURRENT:
            result: EvalResult = await self.dispatcher.run(key, "evaluate", prepared)
        else:
            job = (self.edition.value, prepared)
            result = await self.dispatcher.run(f"{self.edition.value}:{key}", "evaluate_on", job)
        return result
