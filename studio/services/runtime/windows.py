"""Every page the studio opens in its browser is a window of its own, never a tab.

Playwright's `context.new_page()` opens a tab in the browser's last active window. Tabs of one
window take turns: bringing one to the front (which an episode does before each observation and
action, and the published protocol before it runs) makes Chromium switch the window's shown
tab, and the tab shown again is painted and rastered whole, even in the headless browser where
every tab says it is visible and focused. With four editor pages as tabs of one window, a
`bring_to_front` cost about 135 ms of CPU and 68 ms of wall; with each in a window of its own,
12 ms and 6 ms (80 of them in turn on a quiet 2-core machine, issue 39). Windows also each get
the full frame rate, so pages that work side by side (trial drags, episodes) do not share one
window's frame clock.

`open_page(context)` opens about:blank in a new window (CDP `Target.createTarget` with
`newWindow`) and returns it as the context's Playwright page; the caller sets its size and
loads it, as with `new_page()`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = ["OPEN_LIMIT_S", "open_page"]

OPEN_LIMIT_S = 30.0  # the new window's page, once asked for, appears within this


async def _page_of(context: Any, arrived: asyncio.Queue[Any], target_id: str) -> Any:
    """The new page with CDP target `target_id` (other pages may open at the same time)."""
    while True:
        page = await arrived.get()
        session = await context.new_cdp_session(page)
        try:
            info = await session.send("Target.getTargetInfo")
        finally:
            with contextlib.suppress(Exception):
                await session.detach()
        if info["targetInfo"]["targetId"] == target_id:
            return page


async def open_page(context: Any) -> Page:
    """A blank page of `context` in a new window of the browser (see the module docstring).

    The window is asked for through a CDP session of a page already open (the first that
    still answers: pages may close meanwhile); a context with none gets its first page from
    Playwright, which is a window of its own then."""
    cdp = await _session(context)
    if cdp is None:
        first: Page = await context.new_page()
        return first
    arrived: asyncio.Queue[Any] = asyncio.Queue()
    context.on("page", arrived.put_nowait)
    try:
        made = await cdp.send("Target.createTarget", {"url": "about:blank", "newWindow": True})
        page: Page = await asyncio.wait_for(
            _page_of(context, arrived, made["targetId"]), OPEN_LIMIT_S
        )
    finally:
        context.remove_listener("page", arrived.put_nowait)
        with contextlib.suppress(Exception):
            await cdp.detach()
    return page


async def _session(context: Any) -> Any:
    """A CDP session of one of the context's open pages, or None when none answers."""
    for page in list(context.pages):
        if page.is_closed():
            continue
        with contextlib.suppress(Exception):
            return await context.new_cdp_session(page)
    return None
