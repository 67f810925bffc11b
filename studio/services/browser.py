"""One headless system Chromium, reused, handing out fresh evaluation pages.

Every evaluation gets a page of its own, closed afterwards with every popup it opened, so no
listener, timer or global of one evaluation survives into the next. Pages are loaded ahead of
need (spares) so that a caller rarely waits for the 17 MB bundle to start. The browser keeps a
persistent profile in the user's cache so that V8's code cache makes page start fast after the
first runs. A pool loads the evaluation page of one editor edition (`edition`, the current one
unless told otherwise; studio.services.editions).

Evaluations share no storage: each page is served from an origin of its own slot
(`e<N>.localhost`, all answered by the one loopback editor server), at most one page per slot
at a time, and a slot's storage (cookies, local storage, IndexedDB, caches) is wiped before its
next page loads; service workers are blocked. Slots are reused most-recently-freed first, so
their code caches stay warm. The page's Content-Security-Policy (see server.EVAL_PAGE_CSP)
keeps its requests on its own origin; navigating away is refused here.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from studio.services import editions, paths
from studio.services.editions import Edition
from studio.services.server import EditorServer

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--mute-audio",
    "--autoplay-policy=no-user-gesture-required",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]
EVAL_PAGE = "eval.html"  # the current edition's; an edition's own: editions.info(e).eval_page
PAGE_READY_TIMEOUT_S = 60.0
PROFILES = 3  # cached browser profiles, one per studio process running at once


@dataclass
class ReadyPage:
    """A loaded evaluation page, how long it took to get ready, and its slot."""

    page: Any  # playwright.async_api.Page
    ready_s: float
    slot: int = 0


class BrowserPool:
    """Owns the Playwright driver, the browser and a few spare evaluation pages."""

    def __init__(
        self,
        server: EditorServer | None = None,
        spares: int = 1,
        slots: int | None = None,
        edition: Edition = Edition.CURRENT,
    ) -> None:
        self.server = server
        self.edition = edition  # the editor edition whose evaluation page the pool loads
        self._own_server = server is None
        self.spares = max(0, spares)
        # pages loaded or in use at once; each has an origin (and storage) of its own
        self.slots = max(2, slots or self.spares + 2)
        self._free_slots: asyncio.LifoQueue[int] | None = None
        self._slot_of: dict[Any, int] = {}
        self._popups: dict[Any, list[Any]] = {}
        self._pw: Any = None
        self._context: Any = None
        self._profile: Path | None = None
        self._lock_file: IO[str] | None = None
        self._temp_profile = False
        self._spare_tasks: list[asyncio.Task[ReadyPage]] = []
        self.browser_start_s = 0.0

    async def start(self) -> BrowserPool:
        if self._context is not None:
            return self
        from playwright.async_api import async_playwright

        chromium = paths.chromium_path()
        editions.bundle_dir(self.edition)  # a missing bundle is named before the browser opens
        if self.server is None:
            self.server = EditorServer().start()
        t0 = time.perf_counter()
        self._pw = await async_playwright().start()
        self._profile = self._claim_profile()
        self._context = await self._pw.chromium.launch_persistent_context(
            str(self._profile),
            executable_path=str(chromium),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 720},
            service_workers="block",
        )
        self._context.on("page", self._adopt_popup)
        self._free_slots = asyncio.LifoQueue()
        for slot in range(self.slots, 0, -1):
            self._free_slots.put_nowait(slot)
        self.browser_start_s = time.perf_counter() - t0
        self._top_up()
        return self

    def _claim_profile(self) -> Path:
        """The first cached profile no other studio process holds (each stays warm across
        runs: a window and a command line each find one); a throwaway one when all are held."""
        cache = paths.cache_dir()
        for i in range(PROFILES):
            name = "browser-profile" + (f"-{i + 1}" if i else "")
            shared = cache / name
            shared.mkdir(parents=True, exist_ok=True)
            lock = open(cache / f"{name}.lock", "w")  # noqa: SIM115
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.close()
                continue
            self._lock_file = lock
            return shared
        self._temp_profile = True
        return Path(tempfile.mkdtemp(prefix="studio-browser-"))

    async def close(self) -> None:
        for task in self._spare_tasks:
            task.cancel()
        for task in self._spare_tasks:
            with contextlib.suppress(BaseException):
                await task
        self._spare_tasks.clear()
        if self._context is not None:
            with contextlib.suppress(Exception):
                await self._context.close()
            self._context = None
        if self._pw is not None:
            with contextlib.suppress(Exception):
                await self._pw.stop()
            self._pw = None
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None
        if self._temp_profile and self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
        if self._own_server and self.server is not None:
            self.server.stop()
            self.server = None

    async def __aenter__(self) -> BrowserPool:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def context(self) -> Any:
        if self._context is None:
            raise RuntimeError("browser pool not started")
        return self._context

    def _top_up(self) -> None:
        self._spare_tasks = [t for t in self._spare_tasks if not t.cancelled()]
        while len(self._spare_tasks) < self.spares:
            self._spare_tasks.append(asyncio.ensure_future(self._open_eval_page()))

    def slot_origin(self, slot: int) -> str:
        """The origin evaluation pages of `slot` are served from."""
        assert self.server is not None
        return f"http://e{slot}.localhost:{self.server.port}"

    async def _open_eval_page(self) -> ReadyPage:
        assert self.server is not None and self._free_slots is not None
        slot = await self._free_slots.get()
        t0 = time.perf_counter()
        origin = self.slot_origin(slot)
        try:
            page = await self.context.new_page()
        except BaseException:
            self._free_slots.put_nowait(slot)
            raise
        self._slot_of[page] = slot
        try:
            cdp = await self.context.new_cdp_session(page)
            await cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            eval_page = editions.info(self.edition).eval_page
            await page.goto(f"{origin}/{eval_page}", wait_until="domcontentloaded")
            await page.wait_for_function(
                "window.StudioEval && window.StudioEval.ready", timeout=PAGE_READY_TIMEOUT_S * 1000
            )
            await _refuse_navigation(cdp)
        except BaseException:
            await self.discard(page)
            raise
        return ReadyPage(page, time.perf_counter() - t0, slot)

    async def _adopt_popup(self, page: Any) -> None:
        """Remember a popup of an evaluation page, so that it is closed with its opener."""
        with contextlib.suppress(Exception):
            opener = await page.opener()
            while opener is not None and opener not in self._slot_of:
                opener = await opener.opener()
            if opener is not None:
                self._popups.setdefault(opener, []).append(page)

    async def acquire_eval_page(self) -> ReadyPage:
        """A fresh, loaded evaluation page; the caller must `discard` it after one use."""
        if self._context is None:
            await self.start()
        while self._spare_tasks:
            task = self._spare_tasks.pop(0)
            self._top_up()
            try:
                return await task
            except Exception:
                continue  # a spare that failed to load: try a fresh one
        ready = await self._open_eval_page()
        self._top_up()
        return ready

    async def discard(self, page: Any) -> None:
        """Close a used page and the popups it opened; a hung page is closed without running
        unload handlers. Its slot is free again once the page is gone."""
        for popup in [*self._popups.pop(page, []), page]:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(popup.close(run_before_unload=False), timeout=10)
        slot = self._slot_of.pop(page, None)
        if slot is not None and self._free_slots is not None:
            self._free_slots.put_nowait(slot)


async def _refuse_navigation(cdp: Any) -> None:
    """From now on the page loads no document: navigations and frames fail at the request."""

    async def refuse(event: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # the page may be closing
            await cdp.send(
                "Fetch.failRequest",
                {"requestId": event["requestId"], "errorReason": "BlockedByClient"},
            )

    cdp.on("Fetch.requestPaused", refuse)
    await cdp.send("Fetch.enable", {"patterns": [{"urlPattern": "*", "resourceType": "Document"}]})


def default_spares() -> int:
    """Spare pages worth keeping warm on this machine."""
    return max(2, min(4, os.cpu_count() or 2))
