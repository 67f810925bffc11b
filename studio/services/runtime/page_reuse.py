"""Whether an evaluation page may serve the next evaluation: the pool's side of the check.

The page checks itself (resources/js/page-reuse.js, reached through `window.StudioEval.check`,
which no script can replace): its realm, document and host state equal the baseline it
recorded before any evaluation, and nothing an evaluation made can call back later. What the
page cannot see from inside is checked here through the DevTools protocol: the event listeners
of its window and of every node of its document (attribute handlers included) equal the
baseline's. A clean page's origin storage is then wiped (cookies, local storage, IndexedDB,
caches), as before a fresh page loads. studio.services.runtime.browser decides from the answer.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from studio.services.runtime import page_scripts

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = ["check", "listeners"]


async def check(page: Page, cdp: Any, baseline: list[tuple[Any, ...]], origin: str) -> str:
    """'' when the page is clean (its storage then wiped); else the first reason it is not."""
    found = await page_scripts.runner(page, "check")
    if not isinstance(found, str) or found:
        return f"the page is not as before: {str(found).splitlines()[0][:200]}"
    if await listeners(cdp) != baseline:
        return "the page's event listeners changed"
    await cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    return ""


async def listeners(cdp: Any) -> list[tuple[Any, ...]]:
    """The event listeners of a page's window and of every node of its document."""
    found: list[tuple[Any, ...]] = []
    try:
        for expression, extra in (("window", {}), ("document", {"depth": -1, "pierce": True})):
            target = await cdp.send(
                "Runtime.evaluate", {"expression": expression, "objectGroup": "studio-reuse"}
            )
            listeners = await cdp.send(
                "DOMDebugger.getEventListeners",
                {"objectId": target["result"]["objectId"], **extra},
            )
            found += sorted(
                (
                    expression,
                    str(item.get("type")),
                    bool(item.get("useCapture")),
                    bool(item.get("passive")),
                    bool(item.get("once")),
                    str(item.get("scriptId")),
                    int(item.get("lineNumber", -1)),
                    int(item.get("columnNumber", -1)),
                    int(item.get("backendNodeId", -1)),
                )
                for item in listeners.get("listeners", [])
            )
    finally:
        with contextlib.suppress(Exception):
            await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": "studio-reuse"})
    return found
