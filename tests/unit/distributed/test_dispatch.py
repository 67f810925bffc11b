"""The dispatcher without a cluster: capacity, bounded attempts after lost workers, results
taken once per key, job failures passed through."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.models.errors import StudioError
from studio.services.distributed.dispatch import Dispatcher, WorkerLost


class FakeSlot:
    """A worker that answers `payload * 10`, or is lost on the calls listed in `lose_on`."""

    def __init__(self, name: str, capacity: int = 1, lose_on: tuple[int, ...] = ()) -> None:
        self.name = name
        self.capacity = capacity
        self.lose_on = lose_on
        self.calls: list[Any] = []
        self.running = 0
        self.most_running = 0
        self.gate = asyncio.Event()
        self.gate.set()
        self.changed: asyncio.Condition | None = None  # made on the test's loop

    def _condition(self) -> asyncio.Condition:
        if self.changed is None:
            self.changed = asyncio.Condition()
        return self.changed

    async def _count(self, step: int) -> None:
        async with self._condition():
            self.running += step
            self.most_running = max(self.most_running, self.running)
            self._condition().notify_all()

    async def until(self, holds: Any) -> None:
        """Wait until `holds()` is true of the calls running now."""
        async with self._condition():
            await self._condition().wait_for(holds)

    async def call(self, method: str, payload: Any) -> Any:
        self.calls.append(payload)
        await self._count(+1)
        try:
            await self.gate.wait()
            if len(self.calls) in self.lose_on:
                raise WorkerLost("node died")
            if payload == "boom":
                raise ValueError("the job's own failure")
            return payload * 10
        finally:
            await asyncio.shield(self._count(-1))


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_lost_workers_job_runs_again_on_another_and_counts_once() -> None:
    a, b = FakeSlot("a", lose_on=(1,)), FakeSlot("b")

    async def go() -> tuple[list[int], Dispatcher]:
        d = Dispatcher([a, b])
        results = await asyncio.gather(*(d.run(f"job{i}", "m", i) for i in range(1, 7)))
        return list(results), d

    results, d = run(go())
    assert results == [10, 20, 30, 40, 50, 60]
    assert d.stats.lost == ["a"] and d.stats.retried == 1 and d.stats.done == 6
    assert len(a.calls) == 1  # the lost worker got no more jobs
    assert sorted(b.calls) == [1, 2, 3, 4, 5, 6]
    assert "ran again elsewhere" in d.stats.note()


def test_attempts_are_bounded() -> None:
    slots = [FakeSlot(n, lose_on=(1,)) for n in "abcd"]

    async def go() -> None:
        await Dispatcher(slots, max_attempts=2).run("job", "m", 1)

    with pytest.raises(StudioError, match="lost its worker 2 times"):
        run(go())
    assert sum(len(s.calls) for s in slots) == 2


def test_no_worker_left_is_an_error_naming_the_losses() -> None:
    async def go() -> None:
        await Dispatcher([FakeSlot("only", lose_on=(1,))]).run("job", "m", 1)

    with pytest.raises(StudioError, match=r"every worker of the cluster was lost.*only"):
        run(go())


def test_a_jobs_own_failure_is_passed_through_not_retried() -> None:
    a, b = FakeSlot("a"), FakeSlot("b")

    async def go() -> Dispatcher:
        d = Dispatcher([a, b])
        with pytest.raises(ValueError, match="own failure"):
            await d.run("job", "m", "boom")
        return d

    d = run(go())
    assert len(a.calls) + len(b.calls) == 1 and d.stats.retried == 0 and not d.stats.lost


def test_a_finished_key_is_not_run_twice() -> None:
    a = FakeSlot("a", capacity=2)

    async def go() -> tuple[Any, ...]:
        d = Dispatcher([a])
        first = await d.run("job", "m", 4)
        second, third = await asyncio.gather(d.run("job", "m", 4), d.run("job", "m", 4))
        assert d.stats.duplicates == 2 and d.stats.done == 1
        return first, second, third

    assert run(go()) == (40, 40, 40)
    assert a.calls == [4]


def test_calls_in_flight_stay_within_each_workers_capacity() -> None:
    a, b = FakeSlot("a", capacity=2), FakeSlot("b", capacity=1)

    async def go() -> None:
        a.gate.clear()
        b.gate.clear()
        d = Dispatcher([a, b])
        jobs = [asyncio.ensure_future(d.run(f"j{i}", "m", i)) for i in range(8)]
        await a.until(lambda: a.running == 2)
        await b.until(lambda: b.running == 1)
        assert (a.running, b.running) == (2, 1)  # the fourth job waits for a free place
        a.gate.set()
        b.gate.set()
        assert sorted(await asyncio.gather(*jobs)) == [i * 10 for i in range(8)]

    run(go())
    assert a.most_running <= 2 and b.most_running <= 1


def test_cancelling_a_run_cancels_the_call() -> None:
    a = FakeSlot("a")

    async def go() -> None:
        a.gate.clear()
        d = Dispatcher([a])
        job = asyncio.ensure_future(d.run("j", "m", 1))
        await a.until(lambda: a.running == 1)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        await asyncio.wait_for(a.until(lambda: a.running == 0), timeout=5)
        assert a.running == 0

    run(go())
