"""Editor work of many episodes in one browser, done a few at a time and taken in turn.

Every observation and every action of an episode is work in its editor page, and all the
pages of one browser share its processes and the machine's cores. `EditorWork` lets at most
`limit` pieces of that work run at once (`turn(owner)`, an async context manager held for the
work) and hands each freed place to the waiting owners in rotation (round robin by owner:
an owner with several pieces waiting gets one place, then goes behind every other waiting
owner; each owner's pieces in order of arrival); work that arrives while others wait
queues behind them. So one episode whose work is slow (a large program's observation) holds
one place and never starves the others, and eight agents stepping at once do not make eight
pages fight for two cores, which made every step of every page slower (issue 39).

A turn given up by cancellation (a request whose client went away) is passed on; a waiter
cancelled before its turn leaves the queue. `limit` defaults to DEFAULT_LIMIT (16, the API's
default most episodes): a piece of work mostly waits for the page's next frame and the
browser's answers, and in one bench run (bench/bench_agents.py, 2 cores) four places at
once halved the steps per second of eight agents against no bound, so the bound is kept for
crowds larger than that.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["DEFAULT_LIMIT", "EditorWork", "default_limit"]


DEFAULT_LIMIT = 16


def default_limit() -> int:
    """Pieces of editor work at once by default."""
    return DEFAULT_LIMIT


class EditorWork:
    """At most `limit` pieces of editor work at once, places given round robin by owner."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = max(1, limit or default_limit())
        self.running = 0
        self.most_running = 0  # the most pieces ever run at once (tests and benches read it)
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        """Pieces of work waiting for a place."""
        return sum(len(q) for q in self._waiting.values())

    @asynccontextmanager
    async def turn(self, owner: str) -> AsyncIterator[None]:
        """Hold a place for `owner`'s piece of work while the block runs."""
        await self._take(owner)
        try:
            yield
        finally:
            self._give_back()

    async def _take(self, owner: str) -> None:
        if self.running < self.limit and not self._waiting:
            self._start()
            return
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(place)
        try:
            await place
        except asyncio.CancelledError:
            if place.done() and not place.cancelled():
                self._give_back()  # the place came with the cancellation: pass it on
            else:
                self._forget(owner, place)
            raise

    def _start(self) -> None:
        self.running += 1
        self.most_running = max(self.most_running, self.running)

    def _give_back(self) -> None:
        self.running -= 1
        while self._waiting and self.running < self.limit:
            owner, queue = next(iter(self._waiting.items()))
            place = queue.popleft()
            del self._waiting[owner]
            if queue:  # the owner's next piece waits behind every other owner now
                self._waiting[owner] = queue
            if place.done():
                continue
            self._start()
            place.set_result(None)

    def _forget(self, owner: str, place: asyncio.Future[None]) -> None:
        queue = self._waiting.get(owner)
        if queue is not None and place in queue:
            queue.remove(place)
            if not queue:
                del self._waiting[owner]
