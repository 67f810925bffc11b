"""One headless system Chromium, reused, handing out evaluation pages.

The life of an evaluation page: it is loaded ahead of need (a spare) so that a caller rarely
waits for the 17 MB bundle to start; once ready, the page records its clean state (its
baseline: resources/js/page-reuse.js, and here the event listeners of its window and document);
an evaluation takes it (`acquire_eval_page`), runs, and gives it back (`release`). A page given
back is used again only when nothing of that evaluation can reach the next one: the run ended
without a breaking error, the page is not marked broken and opened no popup, the page's own
check finds its realm, document and host state equal to the baseline and nothing left
scheduled, its listeners equal the baseline's, and it has served fewer than MAX_USES
evaluations; its origin's storage is then wiped. Any doubt and the page is closed (`discard`),
with every popup it opened, and a new spare takes its place. Each evaluation makes its VM from
a fresh instance of the bundle's modules, so no class or module state is shared either (three
pure, frozen modules excepted: scratch-classes.js). With `reuse=False` (today's path, kept for
the benchmark) every page is closed after one use.

The browser keeps a persistent profile in the user's cache so that V8's code cache makes page
start fast after the first runs. A pool loads the evaluation page of one editor edition
(`edition`, the current one unless told otherwise; studio.services.runtime.editions).

Evaluations share no storage: each page is served from an origin of its own slot
(`e<N>.localhost`, all answered by the one loopback editor server), at most one page per slot
at a time, and a slot's storage (cookies, local storage, IndexedDB, caches) is wiped before its
next page loads; service workers are blocked. Slots are reused most-recently-freed first, so
their code caches stay warm.

An evaluation page reaches no network but its own origin, behind four walls: its
Content-Security-Policy (server.EVAL_PAGE_CSP); the browser's WebRTC policy and preferences (no
non-proxied UDP, no network prediction, so a page that names a host gets no preconnect); a
script installed before any of the page's own (resources/js/page-containment.js) that removes
WebRTC from every frame; and, once the page is ready, request interception here that refuses
every request not to its own origin and every navigation. A page that tried either is marked
broken (`broken`), as callers mark a page that crashed or stopped answering; every evaluation
page is closed and never handed out again.

A browser that died (its process crashed or was killed, or it was closed from outside: the
context's `close` event) is noticed by `ensure_alive`, which relaunches it in place (the same
pool object, server and edition; a fresh slot table) and says so; callers (the episode manager
before each episode) call it, once per episode, so a campaign's retry after an environment
failure gets a working browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from studio.services.core import paths
from studio.services.runtime import browser_profile, editions, page_reuse, page_scripts
from studio.services.runtime.browser_flags import CHROMIUM_ARGS
from studio.services.runtime.browser_prefs import close_network_preferences
from studio.services.runtime.browser_profile import ClaimedProfile
from studio.services.runtime.editions import Edition
from studio.services.runtime.pool_size import default_spares
from studio.services.runtime.server import EditorServer
from studio.services.runtime.windows import open_page

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = [
    "CHECK_LIMIT_S", "CLOSE_LIMIT_S", "EVAL_PAGE", "LOADS_AT_ONCE", "MAX_USES",
    "PAGE_READY_TIMEOUT_S", "BrowserPool", "ReadyPage",
    "default_spares",
]  # fmt: skip

EVAL_PAGE = "eval.html"  # the current edition's; an edition's own: editions.info(e).eval_page
PAGE_READY_TIMEOUT_S = 60.0
CLOSE_LIMIT_S = 10.0  # closing a page (a hung one is closed without unload handlers)
CHECK_LIMIT_S = 20.0  # a page's check after an evaluation (one that does not answer is closed)
# Evaluations one page serves before it is closed (bounds what leaks in memory: a page's JS
# heap after GC grows about 47 KB an evaluation, 27 -> 49 MB over 400; a page's load is about
# a fifth of the CPU of a bundled check at 100, issue 39).
MAX_USES = 400
# Evaluation pages loading at once. A load is mostly the renderer compiling and running the
# 17 MB bundle: loads side by side share the cores with each other and with the evaluations
# already running, so the first page, which every evaluation waits for, is ready soonest when
# pages load one after another (a 7-task check on 2 cores: 97-109 evaluations a minute on one
# page against 45-58 with three pages loading at once at the start).
LOADS_AT_ONCE = 1


@dataclass
class ReadyPage:
    """A loaded evaluation page, how long it took to get ready, and its slot."""

    page: Page
    ready_s: float
    slot: int = 0
    uses: int = 0  # evaluations the page served before this one


class BrowserPool:
    """Owns the Playwright driver, the browser and a few spare evaluation pages."""

    def __init__(
        self,
        server: EditorServer | None = None,
        spares: int = 1,
        slots: int | None = None,
        edition: Edition = Edition.CURRENT,
        reuse: bool = True,
    ) -> None:
        self.server = server
        self.reuse = reuse  # pages found clean after an evaluation serve the next one
        self.edition = edition  # the editor edition whose evaluation page the pool loads
        self._own_server = server is None
        self.spares = max(0, spares)
        # pages loaded or in use at once; each has an origin (and storage) of its own
        self.slots = max(2, slots or self.spares + 2)
        self._free_slots: asyncio.LifoQueue[int] | None = None
        self._slot_of: dict[Any, int] = {}
        self._popups: dict[Any, list[Any]] = {}
        self._broken: dict[Any, str] = {}
        self._retired: list[int] = []  # slots whose page would not close
        self._pw: Any = None
        self._context: Any = None
        self._profile: ClaimedProfile | None = None
        self._spare_tasks: list[asyncio.Task[ReadyPage]] = []
        self.browser_start_s = 0.0
        self._dead = False  # the context closed without `close` asking: crashed or killed
        self._relaunching = asyncio.Lock()  # two workers noticing one crash relaunch once
        self.relaunches = 0
        self._warm: list[ReadyPage] = []  # checked clean, waiting for the next evaluation
        self._in_use: dict[Any, ReadyPage] = {}
        self._cdp: dict[Any, Any] = {}
        self._baseline: dict[Any, list[tuple[Any, ...]]] = {}  # listeners of a clean page
        self._named: dict[Any, dict[str, str]] = {}  # its window and document, for DevTools
        self._returned = asyncio.Event()  # a page came back (warm) or was closed (slot free)
        self._loading = asyncio.Semaphore(LOADS_AT_ONCE)
        self.reused = 0  # evaluations that ran on a page used before
        self.discards: dict[str, int] = {}  # why pages given back were closed, and how often

    async def start(self) -> BrowserPool:
        if self._context is not None:
            return self
        from playwright.async_api import async_playwright

        chromium = paths.chromium_path()
        editions.bundle_dir(self.edition)  # a missing bundle is named before the browser opens
        if self.server is None:
            self.server = EditorServer().start()
        self.server.lean_script(self.edition)  # what its pages load, made (or refused) first
        t0 = time.perf_counter()
        self._pw = await async_playwright().start()
        self._profile = browser_profile.claim()
        close_network_preferences(self._profile.path)
        self._context = await self._pw.chromium.launch_persistent_context(
            str(self._profile.path),
            executable_path=str(chromium),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 720},
            service_workers="block",
        )
        self._context.on("page", self._adopt_popup)
        self._dead = False
        self._context.on("close", self._on_context_closed)
        self._free_slots = asyncio.LifoQueue()
        for slot in range(self.slots, 0, -1):
            self._free_slots.put_nowait(slot)
        self.browser_start_s = time.perf_counter() - t0
        self._top_up()
        return self

    def _on_context_closed(self, _context: Any = None) -> None:
        self._dead = True

    @property
    def alive(self) -> bool:
        """Is the browser started and still there (not crashed, killed or closed outside)?"""
        if self._context is None or self._dead:
            return False
        browser = getattr(self._context, "browser", None)
        return browser is None or bool(browser.is_connected())

    async def ensure_alive(self) -> bool:
        """Relaunch a browser that died (True when it did); nothing when it is alive or was
        never started. The dead browser's pages, spares and slots are forgotten."""
        async with self._relaunching:
            if self._context is None or self.alive:
                return False
            await self._stop_browser()
            self._slot_of.clear()
            self._popups.clear()
            self._warm.clear()
            self._in_use.clear()
            self._cdp.clear()
            self._baseline.clear()
            self._named.clear()
            self._broken.clear()
            self._retired.clear()
            await self.start()
            self.relaunches += 1
            return True

    async def close(self) -> None:
        await self._stop_browser()
        if self._own_server and self.server is not None:
            self.server.stop()
            self.server = None

    async def _stop_browser(self) -> None:
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
        if self._profile is not None:
            self._profile.release()
            self._profile = None

    async def __aenter__(self) -> BrowserPool:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def context(self) -> Any:
        if self._context is None:
            raise RuntimeError("browser pool not started")
        return self._context

    def keep_spares(self, spares: int) -> None:
        """Keep `spares` evaluation pages loaded ahead from now on (a caller whose first page
        is another one starts the pool with none, so that page loads alone)."""
        self.spares = max(0, spares)
        if self._context is not None:
            self._top_up()

    def _top_up(self) -> None:
        self._spare_tasks = [t for t in self._spare_tasks if not t.cancelled()]
        # Reused pages count: a page in use comes back warm, so no spare is loaded for it.
        held = len(self._warm) + len(self._in_use) if self.reuse else 0
        while len(self._spare_tasks) + held < self.spares:
            self._spare_tasks.append(asyncio.ensure_future(self._open_eval_page()))

    def slot_origin(self, slot: int) -> str:
        """The origin evaluation pages of `slot` are served from."""
        assert self.server is not None
        return f"http://e{slot}.localhost:{self.server.port}"

    async def _open_eval_page(self) -> ReadyPage:
        assert self.server is not None and self._free_slots is not None
        slot = await self._free_slots.get()
        try:
            await self._loading.acquire()  # one page loads at a time (see `LOADS_AT_ONCE`)
        except BaseException:
            self._free_slots.put_nowait(slot)
            raise
        try:
            return await self._open_in_slot(slot)
        finally:
            self._loading.release()

    async def _open_in_slot(self, slot: int) -> ReadyPage:
        assert self._free_slots is not None
        t0 = time.perf_counter()
        try:
            page = await asyncio.wait_for(open_page(self.context), PAGE_READY_TIMEOUT_S)
        except BaseException:
            self._free_slots.put_nowait(slot)
            raise
        self._slot_of[page] = slot
        try:  # every step under one deadline: a browser that stops answering fails the page
            await asyncio.wait_for(self._load(page, self.slot_origin(slot)), PAGE_READY_TIMEOUT_S)
        except BaseException:
            await self.discard(page)
            raise
        return ReadyPage(page, time.perf_counter() - t0, slot)

    async def _load(self, page: Page, origin: str) -> None:
        cdp = await self.context.new_cdp_session(page)
        await cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        await page_scripts.contain_ahead(page)
        eval_page = editions.info(self.edition).eval_page
        await page.goto(f"{origin}/{eval_page}", wait_until="domcontentloaded")
        await page_scripts.wait_runner(page, timeout_ms=PAGE_READY_TIMEOUT_S * 1000)
        await self._contain(page, origin)
        if self.reuse:  # the clean state later checks compare with, before any evaluation
            await page_scripts.runner(page, "baseline")
            self._cdp[page] = cdp
            await page_reuse.watch_buckets(cdp, origin)
            self._baseline[page] = await page_reuse.listeners(cdp)
            self._named[page] = await page_reuse.targets(cdp)

    async def _adopt_popup(self, page: Page) -> None:
        """Remember a popup of an evaluation page, so that it is closed with its opener."""
        with contextlib.suppress(Exception):
            opener = await page.opener()
            while opener is not None and opener not in self._slot_of:
                opener = await opener.opener()
            if opener is not None:
                self._popups.setdefault(opener, []).append(page)

    async def contain_loaded(self, page: Page) -> None:
        """Contain a page that is already loaded (an editor page about to run an evaluation
        script, as the published protocol does): WebRTC removed from its document and from every
        frame made later, and its requests held to its own origin from now on."""
        url = urlsplit(page.url)
        await page_scripts.contain_ahead(page)
        await page_scripts.contain(page)
        await self._contain(page, f"{url.scheme}://{url.netloc}")

    async def _contain(self, page: Page, origin: str) -> None:
        """From now on the page's requests reach its own origin only, and it loads no document:
        a navigation (or a frame) fails at the request, and the page is marked broken."""

        async def guard(route: Any, request: Any) -> None:
            if request.is_navigation_request():
                self._broken.setdefault(page, "the script navigated the evaluation page away")
            elif not request.url.startswith(origin + "/"):
                self._broken.setdefault(page, "the page requested another origin")
            else:
                with contextlib.suppress(Exception):  # the page may be closing
                    await route.continue_()
                return
            with contextlib.suppress(Exception):
                await route.abort("blockedbyclient")

        await page.route("**/*", guard)

    def broken(self, page: Page) -> str | None:
        """Why a script broke `page` (it navigated, reached out, crashed), or None."""
        return self._broken.get(page)

    def mark_broken(self, page: Page, why: str) -> None:
        """Remember that `page` must not be used again (it is closed at `discard`)."""
        self._broken.setdefault(page, why)

    async def acquire_eval_page(self) -> ReadyPage:
        """A loaded evaluation page, clean (fresh or checked); the caller gives it back with
        `release` (or `discard`). Whatever comes first serves: a page given back clean, or a
        spare that finished loading (a caller does not wait for "its" spare while a page
        another evaluation used is free)."""
        if self._context is None:
            await self.start()
        while True:
            ready = await self._take_warm()
            if ready is not None:
                return ready
            loaded = next((t for t in self._spare_tasks if t.done()), None)
            if loaded is not None:
                self._spare_tasks.remove(loaded)
                if not self.reuse:
                    self._top_up()
                ready = await self._usable(loaded)
                if ready is not None:
                    self._hand_out(ready)
                    self._top_up()
                    return ready
                continue
            if not self._spare_tasks and not (self.reuse and self._no_free_slot()):
                ready = self._hand_out(await self._open_eval_page())
                self._top_up()
                return ready
            await self._next_arrival()

    async def _take_warm(self) -> ReadyPage | None:
        """The most recently used clean page (its caches are the warmest), or None."""
        while self._warm:
            ready = self._warm.pop()
            if ready.page.is_closed() or self.broken(ready.page):
                await self.discard(ready.page)
                continue
            self.reused += 1
            return self._hand_out(ReadyPage(ready.page, 0.0, ready.slot, ready.uses))
        return None

    async def _usable(self, task: asyncio.Task[ReadyPage]) -> ReadyPage | None:
        """A finished spare's page, or None when it failed to load or broke while it waited."""
        try:
            ready = task.result()
        except BaseException:
            return None
        if ready.page.is_closed() or self.broken(ready.page):
            await self.discard(ready.page)
            return None
        return ready

    async def _next_arrival(self) -> None:
        """Wait until a spare finishes loading or a page comes back (or its slot frees)."""
        self._returned.clear()
        back = asyncio.ensure_future(self._returned.wait())
        try:
            await asyncio.wait([back, *self._spare_tasks], return_when=asyncio.FIRST_COMPLETED)
        finally:
            back.cancel()

    def _no_free_slot(self) -> bool:
        return self._free_slots is not None and self._free_slots.empty()

    def _hand_out(self, ready: ReadyPage) -> ReadyPage:
        self._in_use[ready.page] = ready
        return ready

    async def release(self, page: Page, reusable: bool = True, found: str | None = None) -> bool:
        """Give back a page an evaluation used: kept warm for the next evaluation when it is
        proved clean (see the module docstring), else closed. True when it is kept. `found`
        is the page's own check as its run answered it (page_reuse.check), else it is asked."""
        ready = self._in_use.pop(page, None)
        why = self._unclean(page, ready, reusable)
        if why is None:
            try:
                why = await asyncio.wait_for(self._check(page, found), CHECK_LIMIT_S) or None
            except Exception as exc:  # a page that does not answer is not proved clean
                why = f"the page's check failed: {type(exc).__name__}"
        if why is not None or ready is None:
            self.discards[why or "unknown page"] = self.discards.get(why or "unknown page", 0) + 1
            await self.discard(page)
            return False
        self._warm.append(ReadyPage(page, 0.0, ready.slot, ready.uses + 1))
        self._returned.set()
        return True

    def _unclean(self, page: Page, ready: ReadyPage | None, reusable: bool) -> str | None:
        if not self.reuse:
            return "pages are not reused"
        if ready is None or page not in self._baseline:
            return "not a page of this pool's"
        if not reusable:
            return "the evaluation broke the page"
        if self.broken(page) or _is_closed(page):
            return "the page is broken"
        if self._popups.get(page):
            return "the page opened a popup"
        if ready.uses + 1 >= MAX_USES:
            return f"the page served {MAX_USES} evaluations"
        return None

    async def _check(self, page: Page, found: str | None = None) -> str:
        """'' when the page is clean; else the first reasons it is not."""
        origin = self.slot_origin(self._slot_of[page])
        quick = page_reuse.QUICK_CHECK
        named = self._named.get(page) if quick else None
        return await page_reuse.check(
            page, self._cdp[page], self._baseline[page], origin, found if quick else None, named
        )

    async def discard(self, page: Page) -> None:
        """Close a used page and the popups it opened; a hung page is closed without running
        unload handlers. Its slot is free again once the page is gone; a page that does not
        close in CLOSE_LIMIT_S takes its slot (origin and storage) with it, and a new slot
        takes its place, so no later page shares an origin with it."""
        closed = True
        for popup in [*self._popups.pop(page, []), page]:
            try:
                await asyncio.wait_for(popup.close(run_before_unload=False), CLOSE_LIMIT_S)
            except Exception:
                closed = closed and _is_closed(popup)
        self._broken.pop(page, None)
        self._in_use.pop(page, None)
        self._cdp.pop(page, None)
        self._baseline.pop(page, None)
        self._named.pop(page, None)
        slot = self._slot_of.pop(page, None)
        if slot is not None and self._free_slots is not None:
            if not closed:
                self._retired.append(slot)
                slot = self.slots + len(self._retired)
            self._free_slots.put_nowait(slot)
        self._returned.set()
        if self.reuse and self._context is not None and not self._dead:
            self._top_up()  # a page closed: a spare takes its place


def _is_closed(page: Page) -> bool:
    with contextlib.suppress(Exception):
        return bool(page.is_closed())
    return False
