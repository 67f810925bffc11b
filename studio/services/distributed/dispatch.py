"""Sending jobs to workers: capacity per worker, bounded attempts, each job's result once.

A `Slot` is one worker seen from the driver: a name, how many calls it takes at once, and an
async `call`. A call that raises `WorkerLost` (the worker process or its node went away) lost
nothing the driver had: the job runs again on another live worker, up to `max_attempts` times
in all, and the lost worker gets no more jobs. Any other exception is the job's own outcome and
is passed to the caller unchanged (it is not retried: it would fail again).

Every job has a key. The first result taken for a key is the job's result; a second one (a
duplicate submission of a finished key) gets that same result without running again, so no
finished work is ever counted twice. `DispatchStats` says what happened: jobs done, attempts
re-run, workers lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio.models.errors import StudioError

__all__ = ["MAX_ATTEMPTS", "DispatchStats", "Dispatcher", "Slot", "WorkerLost"]

MAX_ATTEMPTS = 3


class WorkerLost(Exception):
    """The worker (or its node) went away before the call's result reached the driver."""


class Slot(Protocol):
    """One worker as the dispatcher sees it."""

    name: str
    capacity: int

    async def call(self, method: str, payload: Any) -> Any:
        """Run `method(payload)` on the worker; raise WorkerLost when the worker is gone."""
        ...


@dataclass
class DispatchStats:
    """What the dispatcher did: finished jobs, re-run attempts, lost workers (by name)."""

    done: int = 0
    retried: int = 0
    duplicates: int = 0
    lost: list[str] = field(default_factory=list)

    def note(self) -> str:
        """One line for the user; empty when nothing went wrong."""
        if not self.lost:
            return ""
        return (
            f"lost {len(self.lost)} worker(s) ({', '.join(self.lost)}); "
            f"{self.retried} job(s) ran again elsewhere, none counted twice"
        )


class Dispatcher:
    """Runs keyed jobs on the live slots with the most free capacity."""

    def __init__(self, slots: Sequence[Slot], max_attempts: int = MAX_ATTEMPTS) -> None:
        if not slots:
            raise StudioError("no worker to send jobs to")
        self.max_attempts = max(1, max_attempts)
        self.stats = DispatchStats()
        self._live: dict[str, Slot] = {s.name: s for s in slots}
        self._busy: dict[str, int] = dict.fromkeys(self._live, 0)
        self._changed = asyncio.Condition()
        self._results: dict[str, Any] = {}
        self._running: dict[str, asyncio.Future[Any]] = {}

    @property
    def capacity(self) -> int:
        """Calls the live workers take at once."""
        return sum(s.capacity for s in self._live.values())

    async def run(self, key: str, method: str, payload: Any) -> Any:
        """The result of job `key`, run (once) on some worker."""
        if key in self._results:
            self.stats.duplicates += 1
            return self._results[key]
        running = self._running.get(key)
        if running is not None:
            self.stats.duplicates += 1
            return await asyncio.shield(running)
        future: asyncio.Future[Any] = asyncio.ensure_future(self._attempts(key, method, payload))
        self._running[key] = future
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            future.cancel()
            raise
        finally:
            if future.done():
                self._running.pop(key, None)

    async def _attempts(self, key: str, method: str, payload: Any) -> Any:
        reasons: list[str] = []
        for attempt in range(self.max_attempts):
            slot = await self._acquire(key, reasons)
            if attempt:
                self.stats.retried += 1
            try:
                result = await slot.call(method, payload)
            except WorkerLost as exc:
                reasons.append(f"{slot.name}: {exc}")
                await self._lose(slot)
                continue
            finally:
                await self._release(slot)
            self._results[key] = result
            self.stats.done += 1
            return result
        raise StudioError(
            f"{key}: lost its worker {self.max_attempts} times ({'; '.join(reasons)})"
        )

    async def _acquire(self, key: str, reasons: list[str]) -> Slot:
        async with self._changed:
            while True:
                if not self._live:
                    lost = "; ".join(reasons) or ", ".join(self.stats.lost)
                    raise StudioError(f"{key}: every worker of the cluster was lost ({lost})")
                free = [
                    (s.capacity - self._busy[n], n)
                    for n, s in self._live.items()
                    if self._busy[n] < s.capacity
                ]
                if free:
                    name = max(free)[1]
                    self._busy[name] += 1
                    return self._live[name]
                await self._changed.wait()

    async def _release(self, slot: Slot) -> None:
        async with self._changed:
            if slot.name in self._busy:
                self._busy[slot.name] -= 1
            self._changed.notify_all()

    async def _lose(self, slot: Slot) -> None:
        async with self._changed:
            if self._live.pop(slot.name, None) is not None:
                self.stats.lost.append(slot.name)
            self._changed.notify_all()
