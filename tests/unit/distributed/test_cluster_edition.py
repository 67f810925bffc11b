"""`check --ray` on the edition of its task set: the driver sends an evaluation with its edition
and the worker runs it on a pool of that edition (a missing bundle is that evaluation's set-up
error, named before any browser starts). No cluster, no browser."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import ErrorKind, EvalResult
from studio.services.core.store import load_task
from studio.services.distributed.dispatch import Dispatcher
from studio.services.distributed.evaluations import ClusterEvaluator
from studio.services.distributed.worker import StudioWorker
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import Prepared, prepare
from tests.helpers.tasks import make_task


class Recording:
    """A worker slot that answers every call with the prepared evaluation's own result."""

    name = "node-a"
    capacity = 1

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    async def call(self, method: str, payload: Any) -> EvalResult:
        self.calls.append((method, payload))
        prepared = payload[1] if method == "evaluate_on" else payload
        assert isinstance(prepared, Prepared)
        return prepared.result


def test_the_driver_sends_the_edition_and_the_worker_runs_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = load_task(make_task(tmp_path / "t"))
    slot = Recording()

    async def both() -> None:
        await ClusterEvaluator(Dispatcher([slot])).evaluate(entry)
        await ClusterEvaluator(Dispatcher([slot]), Edition.CLASSIC).evaluate(entry)

    asyncio.run(both())
    assert [(m, p[0] if m == "evaluate_on" else "") for m, p in slot.calls] == [
        ("evaluate", ""),
        ("evaluate_on", "classic"),
    ]

    monkeypatch.setenv(editions.info(Edition.CLASSIC).env, str(tmp_path / "no-bundle"))
    worker = StudioWorker(1)
    prepared = prepare(entry, None)
    assert isinstance(prepared, Prepared)
    result = asyncio.run(worker.evaluate_on(("classic", prepared)))
    assert result.error is not None and result.error.kind is ErrorKind.SETUP
    assert "classic editor edition" in result.error.message
    assert worker._pool is None  # refused before a browser started
