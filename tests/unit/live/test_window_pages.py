"""Handing the window's editor page back: the window hears of it only once the page has
its own size again (a layout change made before that would leave the page at a stale size)."""

from __future__ import annotations

import asyncio

import pytest

from studio.services.episodes.editor_pages import EnvError
from studio.services.episodes.live.window_pages import WindowPageSource


class _Lent:
    """Stands in for the window's lent editor: records when its release (the page back at the
    view's own size) ends."""

    def __init__(self, events: list[str]) -> None:
        self.events = events
        self.page = object()
        self.resized = asyncio.Event()  # set by the test: the page has its own size again

    async def ensure_screen(self) -> None:
        self.events.append("screen")

    async def release(self) -> None:
        await self.resized.wait()
        self.events.append("own size again")


def test_the_window_is_told_after_the_page_has_its_own_size_again() -> None:
    async def go() -> list[str]:
        events: list[str] = []
        source = WindowPageSource()
        lent = _Lent(events)
        source._lent = lent
        source._busy = True
        source.on_release.append(lambda: events.append("window told"))
        source.release(lent.page)
        assert not source.busy  # free at once for the next episode
        assert events == []  # but the window waits for the page
        lent.resized.set()
        await source.settled()
        return events

    assert asyncio.run(go()) == ["own size again", "window told"]


def test_releasing_a_page_never_lent_still_tells_the_window() -> None:
    async def go() -> list[str]:
        events: list[str] = []
        source = WindowPageSource()
        source.on_release.append(lambda: events.append("window told"))
        source.release(None)
        await source.settled()
        return events

    assert asyncio.run(go()) == ["window told"]


def test_without_a_window_there_is_no_page_to_lend_and_the_source_stays_free() -> None:
    async def go() -> WindowPageSource:
        source = WindowPageSource()
        with pytest.raises(EnvError, match="window's editor"):
            await source.acquire()
        return source

    assert not asyncio.run(go()).busy


def test_a_lent_page_is_put_back_when_setting_it_up_fails() -> None:
    async def go() -> tuple[list[str], WindowPageSource]:
        events: list[str] = []
        lent = _Lent(events)
        lent.resized.set()

        async def open_page() -> _Lent:
            return lent

        source = WindowPageSource(open_page)
        with pytest.raises(AttributeError):  # the helpers cannot be installed in object()
            await source.acquire()
        return events, source

    events, source = asyncio.run(go())
    assert events == ["own size again"] and not source.busy and source.page is None
