"""Ctrl+C on a cluster run: the Ray call in flight is cancelled, and `studio check` leaves the
cluster, says the check was cancelled and exits 130 (the dispatcher's part is in
tests/unit/distributed/test_dispatch.py)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest

import studio.services.distributed as distributed
from studio import cli
from studio.services.distributed.cluster import RaySlot
from tests.helpers.tasks import make_task


class NeverAnswers:
    """An actor method whose call never comes back."""

    def __init__(self) -> None:
        self.refs: list[asyncio.Future[Any]] = []
        self.called: asyncio.Event | None = None  # made on the test's loop

    def remote(self, payload: Any) -> asyncio.Future[Any]:
        ref: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.refs.append(ref)
        if self.called is not None:
            self.called.set()
        return ref


class Actor:
    def __init__(self) -> None:
        self.evaluate = NeverAnswers()


def test_a_cancelled_call_cancels_its_ray_task(monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    cancelled: list[Any] = []
    monkeypatch.setattr(ray, "cancel", cancelled.append)
    actor = Actor()
    slot = RaySlot("node-a", actor, 1)

    async def go() -> None:
        actor.evaluate.called = asyncio.Event()
        call = asyncio.ensure_future(slot.call("evaluate", "job"))
        await asyncio.wait_for(actor.evaluate.called.wait(), timeout=5)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call

    asyncio.run(go())
    assert cancelled == actor.evaluate.refs


def test_ctrl_c_during_a_cluster_check_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    entered: list[str] = []

    class Interrupted:
        """Joining the cluster works; Ctrl+C comes while an evaluation runs."""

        def __init__(self, address: str, workers: int, edition: Any) -> None:
            entered.append(address)

        async def __aenter__(self) -> Any:
            return self

        async def evaluate(self, *args: Any, **kw: Any) -> Any:
            signal.raise_signal(signal.SIGINT)  # the user's Ctrl+C, delivered to this process
            await asyncio.Event().wait()  # an evaluation that runs until it is cancelled

        async def __aexit__(self, *exc: object) -> None:
            entered.append("left the cluster")

    monkeypatch.setattr(distributed, "cluster_evaluator", Interrupted)
    folder = make_task(tmp_path / "t")
    # SIGINT is Ctrl+C here even when the suite runs as a background job (SIGINT ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = cli.main(["check", str(folder), "--ray", "local"])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == 130 and entered == ["local", "left the cluster"]
    assert "check cancelled" in capsys.readouterr().err
