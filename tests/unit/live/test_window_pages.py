"""Handing the window's editor page back: the window hears of it only once the page has
its own size again (a layout change made before that would leave the page at a stale size)."""

from __future__ import annotations

import asyncio

from studio.services.live.window_pages import WindowPageSource


class _Attached:
    """Stands in for AttachedPage: records when its release (clearing the override) ends."""

    def __init__(self, events: list[str]) -> None:
        self.events = events
        self.page = object()
        self.cleared = asyncio.Event()  # set by the test: the CDP answer arrives

    async def release(self) -> None:
        await self.cleared.wait()
        self.events.append("override cleared")


def test_the_window_is_told_after_the_page_has_its_own_size_again() -> None:
    async def go() -> list[str]:
        events: list[str] = []
        source = WindowPageSource("editor.html")
        attached = _Attached(events)
        source._attached = attached  # type: ignore[assignment]
        source._busy = True
        source.on_release.append(lambda: events.append("window told"))
        source.release(attached.page)
        assert not source.busy  # free at once for the next episode
        assert events == []  # but the window waits for the page
        attached.cleared.set()
        await source.settled()
        return events

    assert asyncio.run(go()) == ["override cleared", "window told"]


def test_releasing_a_page_never_lent_still_tells_the_window() -> None:
    async def go() -> list[str]:
        events: list[str] = []
        source = WindowPageSource("editor.html")
        source.on_release.append(lambda: events.append("window told"))
        source.release(None)
        await source.settled()
        return events

    assert asyncio.run(go()) == ["window told"]
