"""The evaluation page pool's loading order (runtime.browser): pages load one at a time, and a
caller takes whatever is ready first, a page given back clean or a spare that finished.

The browser is replaced by a stand-in whose page loads end when the test says so; the pool's
own bookkeeping (slots, spares, warm pages) is the real one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.services.runtime import browser
from studio.services.runtime.browser import BrowserPool, ReadyPage


class Page:
    def __init__(self, name: str) -> None:
        self.name = name

    def is_closed(self) -> bool:
        return False


class Server:
    port = 1


class LoadingPool(BrowserPool):
    """A pool whose page loads are stand-ins: each waits for `finish(n)` of its number."""

    def __init__(self, spares: int) -> None:
        super().__init__(server=Server(), spares=spares, slots=spares + 2)  # type: ignore[arg-type]
        self._context = object()
        self._free_slots = asyncio.LifoQueue()
        for slot in range(self.slots, 0, -1):
            self._free_slots.put_nowait(slot)
        self.started: list[int] = []  # the loads that began, in order
        self.loading = 0
        self.most_at_once = 0
        self._finish: dict[int, asyncio.Event] = {}

    def finish(self, n: int) -> None:
        self._finish.setdefault(n, asyncio.Event()).set()

    async def _open_in_slot(self, slot: int) -> ReadyPage:
        n = len(self.started) + 1
        self.started.append(n)
        self.loading += 1
        self.most_at_once = max(self.most_at_once, self.loading)
        try:
            await self._finish.setdefault(n, asyncio.Event()).wait()
        finally:
            self.loading -= 1
        page = Page(f"page {n}")
        self._slot_of[page] = slot
        self._baseline[page] = []
        return ReadyPage(page, 0.0, slot)  # type: ignore[arg-type]


async def _turns(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_spares_load_one_after_another() -> None:
    async def scenario() -> tuple[list[int], int]:
        pool = LoadingPool(spares=3)
        pool._top_up()
        await _turns()
        first = list(pool.started)  # only the first load began
        for n in (1, 2, 3):
            pool.finish(n)
            await _turns()
        await asyncio.gather(*pool._spare_tasks)
        return first, pool.most_at_once

    first, most = asyncio.run(scenario())
    assert first == [1]
    assert most == browser.LOADS_AT_ONCE == 1


def test_a_caller_takes_a_page_given_back_before_its_spare_is_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def clean(self: BrowserPool, page: Any, found: Any = None) -> str:
        return ""  # the page's own check: clean

    monkeypatch.setattr(BrowserPool, "_check", clean)

    async def scenario() -> tuple[str, str, bool]:
        pool = LoadingPool(spares=2)
        pool._top_up()
        pool.finish(1)
        first = await pool.acquire_eval_page()  # the first spare
        second = asyncio.ensure_future(pool.acquire_eval_page())  # the second spare still loads
        await _turns()
        assert not second.done()
        await pool.release(first.page)  # checked clean, warm
        got = await asyncio.wait_for(second, 1)
        still_loading = not pool._spare_tasks[0].done()
        pool.finish(2)
        pool.finish(3)
        await asyncio.gather(*pool._spare_tasks)
        return first.page.name, got.page.name, still_loading

    first, second, still_loading = asyncio.run(scenario())
    assert (first, second) == ("page 1", "page 1")
    assert still_loading  # the caller did not wait for the spare


def test_a_spare_that_fails_to_load_is_passed_over() -> None:
    class FailingFirst(LoadingPool):
        async def _open_in_slot(self, slot: int) -> ReadyPage:
            if not self.started:
                self.started.append(1)
                raise TimeoutError("the page did not get ready")
            return await super()._open_in_slot(slot)

    async def scenario() -> str:
        pool = FailingFirst(spares=1)
        pool._top_up()
        acquiring = asyncio.ensure_future(pool.acquire_eval_page())
        await _turns(10)
        pool.finish(2)
        ready = await asyncio.wait_for(acquiring, 1)
        return ready.page.name

    assert asyncio.run(scenario()) == "page 2"
