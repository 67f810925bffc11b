"""The cluster's evaluator against this process's browser, with a worker lost mid-check: the
check's JSON equals a local check's (same verdicts, same evaluation count), no cluster needed.

A slot here is what a Ray worker is to the driver: it receives the prepared evaluation as a
copy (as Ray serializes it) and runs it with `evaluate_prepared` in the shared browser; the
lost one runs its evaluation, then loses the result with its node.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest

from studio.cli.check import report_json
from studio.services.checking.checker import CheckOptions, check_tasks
from studio.services.core.store import load_task
from studio.services.distributed.dispatch import Dispatcher, WorkerLost
from studio.services.distributed.evaluations import ClusterEvaluator
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.clock_agreement import AgreementCache
from studio.services.runtime.evaluator import Evaluator, evaluate_prepared
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser
TASKS = Path(__file__).resolve().parents[3] / "tasks"


class PoolSlot:
    def __init__(self, name: str, pool: BrowserPool, lose_on: tuple[int, ...] = ()) -> None:
        self.name = name
        self.capacity = 1
        self.pool = pool
        self.lose_on = lose_on
        self.calls = itertools.count(1)
        self.ran = 0

    async def call(self, method: str, payload: Any) -> Any:
        assert method == "evaluate"
        result = await evaluate_prepared(self.pool, copy.deepcopy(payload))
        self.ran += 1
        if next(self.calls) in self.lose_on:
            raise WorkerLost("the node went away before the result was fetched")
        return result


def comparable(report: Any) -> dict[str, Any]:
    data = report_json(report, with_results=True)
    for task in data["tasks"]:
        task.pop("seconds")
        task.pop("phases", None)  # where time went: machine and page reuse, not verdicts
        for key in ("golden", "initial"):
            task[key].pop("timings")
            task[key]["console"] = []
    summary = data["summary"]
    for key in ("seconds", "evaluations_per_minute", "phases"):
        summary.pop(key)
    return data


def test_a_check_through_lost_workers_equals_the_local_check(
    loop_thread: LoopThread, browser_pool: BrowserPool, tmp_path: Path
) -> None:
    entries = [load_task(TASKS / "debug_score_reset")]
    options = CheckOptions(mutants=1, reruns=1, workers=2)

    def check(evaluator: Any) -> Any:
        cache = AgreementCache(tmp_path / "agreement.json")
        return loop_thread.run(check_tasks(evaluator, entries, (), options, None, cache))

    local = check(Evaluator(browser_pool))
    lost = PoolSlot("lost", browser_pool, lose_on=(2,))
    kept = PoolSlot("kept", browser_pool)
    dispatcher = Dispatcher([lost, kept])
    remote = check(ClusterEvaluator(dispatcher))
    assert comparable(remote) == comparable(local)
    assert remote.summary.evaluations == local.summary.evaluations == 3
    assert dispatcher.stats.lost == ["lost"] and dispatcher.stats.retried == 1
    assert lost.ran == 2 and kept.ran == 2  # one evaluation ran twice, counted once
