"""Whether an evaluation page may serve the next evaluation: the pool's side of the check.

The page checks itself (resources/js/page-reuse.js, reached through `window.StudioEval.check`,
which no script can replace): its realm, document and host state equal the baseline it
recorded before any evaluation, and nothing an evaluation made can call back later. What the
page cannot see from inside is checked here through the DevTools protocol: the event listeners
of its window and of every node of its document (attribute handlers included) equal the
baseline's. A clean page's origin storage is then wiped (cookies, local storage, IndexedDB,
caches, storage buckets: every kind a page can write, `WIPE`), as before a fresh page loads.
The GPU's shader cache is not in `WIPE` (issue 39): it is the browser's cache of compiled
shader programs, kept by the shaders' source, not data of the origin; nothing a page stores
can be read back from it, and clearing it ("all") cost about 7 ms of CPU per evaluation more
than every other kind together (bench/bench_eval_cpu.py pool).
studio.services.runtime.browser decides from the answer.

The quick form (`QUICK_CHECK`, issue 39) asks the same questions with fewer waits: the page's
own answer comes with the evaluation's outcome (the runner checks at the end of the run,
`args.checkInRun`), the window and the document are named to DevTools once per page
(`targets`, kept until the page closes) instead of once per check, and the listener queries
and the storage wipe are sent together. A page whose listeners differ was wiped for nothing;
it is closed all the same.

A storage bucket (`navigator.storageBuckets.open`) is not removed by naming the storage types
(only "all" removes it): the pool has DevTools tell it when one is made or changed in the
page's origin (`watch_buckets`, from the page's load on), and a page whose evaluation made one
is closed (its slot's next page wipes "all" as it loads).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from typing import TYPE_CHECKING, Any

from studio.services.runtime import page_scripts

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = ["QUICK_CHECK", "TARGETS", "WIPE", "check", "listeners", "targets", "watch_buckets"]

# The quick form of the check (see the module docstring). Off by default: it halves the check
# of one page at a time (bench/bench_post_run_check.py), but three side-by-side runs of the
# published-style set with 3 workers (bench/bench_script_phase.py) were slower with it, by
# more than their load drift clearly explains (docs/evaluation-page.md); on is for measuring.
QUICK_CHECK = False
# Every storage type of DevTools' Storage.clearDataForOrigin but "shader_cache" (see above).
WIPE = ",".join(
    (
        "appcache",
        "cookies",
        "file_systems",
        "indexeddb",
        "local_storage",
        "websql",
        "service_workers",
        "cache_storage",
        "interest_groups",
        "shared_storage",
        "storage_buckets",
        "other",
    )
)
TARGETS = ("window", "document")  # whose listeners are compared (every node of the document)
# DevTools sessions (one per page) whose origin got a storage bucket since they were watched
_BUCKETS: weakref.WeakKeyDictionary[Any, list[str]] = weakref.WeakKeyDictionary()
_GROUP = "studio-reuse"  # objects named for one check, released after it
_KEPT_GROUP = "studio-reuse-targets"  # the window and document, named once per page


async def check(
    page: Page,
    cdp: Any,
    baseline: list[tuple[Any, ...]],
    origin: str,
    found: str | None = None,
    named: dict[str, str] | None = None,
) -> str:
    """'' when the page is clean (its storage then wiped); else the first reason it is not.

    `found` is the page's own answer when the run gave it (else it is asked here); `named`
    the window's and document's DevTools object ids from `targets` (else named for this check).
    """
    if found is None:
        found = await page_scripts.runner(page, "check")
    if not isinstance(found, str) or found:
        return f"the page is not as before: {str(found).splitlines()[0][:200]}"
    if _BUCKETS.get(cdp):
        return "the evaluation made a storage bucket"
    wipe = {"origin": origin, "storageTypes": WIPE}
    if named is None:
        if await listeners(cdp) != baseline:
            return "the page's event listeners changed"
        await cdp.send("Storage.clearDataForOrigin", wipe)
        return ""
    now, _ = await asyncio.gather(
        listeners(cdp, named), cdp.send("Storage.clearDataForOrigin", wipe)
    )
    return "" if now == baseline else "the page's event listeners changed"


async def watch_buckets(cdp: Any, origin: str) -> None:
    """From now on, note every storage bucket made or changed in `origin` (see the module
    docstring); `check` then finds the page unclean."""
    made = _BUCKETS.setdefault(cdp, [])

    def note(event: dict[str, Any]) -> None:
        name = ((event.get("bucketInfo") or {}).get("bucket") or {}).get("name")
        if name not in (None, "", "default"):  # the default bucket is wiped by its types
            made.append(str(name))

    cdp.on("Storage.storageBucketCreatedOrUpdated", note)
    await cdp.send("Storage.setStorageBucketTracking", {"storageKey": f"{origin}/", "enable": True})


async def targets(cdp: Any) -> dict[str, str]:
    """The DevTools object ids of the page's window and document, kept until the page closes
    (the page never navigates: a navigation breaks it, and it is closed)."""
    named = {}
    for expression in TARGETS:
        target = await cdp.send(
            "Runtime.evaluate", {"expression": expression, "objectGroup": _KEPT_GROUP}
        )
        named[expression] = target["result"]["objectId"]
    return named


async def listeners(cdp: Any, named: dict[str, str] | None = None) -> list[tuple[Any, ...]]:
    """The event listeners of a page's window and of every node of its document; with `named`
    (from `targets`) both are asked at once."""
    if named is not None:
        asked = await asyncio.gather(*(_listeners_of(cdp, e, named[e]) for e in TARGETS))
        return [item for found in asked for item in found]
    found: list[tuple[Any, ...]] = []
    try:
        for expression in TARGETS:
            target = await cdp.send(
                "Runtime.evaluate", {"expression": expression, "objectGroup": _GROUP}
            )
            found += await _listeners_of(cdp, expression, target["result"]["objectId"])
    finally:
        with contextlib.suppress(Exception):
            await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})
    return found


async def _listeners_of(cdp: Any, expression: str, object_id: str) -> list[tuple[Any, ...]]:
    extra = {"depth": -1, "pierce": True} if expression == "document" else {}
    answer = await cdp.send("DOMDebugger.getEventListeners", {"objectId": object_id, **extra})
    return sorted(
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
        for item in answer.get("listeners", [])
    )
