"""Fresh editor pages for episodes, a few loaded ahead of need.

A page shows resources/web/editor.html (or its editor edition's page, resources/web/classic/
editor.html) at 1280x720, loaded in place of the fresh page's blank document and guarded from
then on (studio.services.runtime.page_guard: no history to go back to, every navigation of it
refused); it is "ready" when the editor bridge says so (window.studioEditorReady). Loading
the 17 MB bundle to ready takes seconds, loading a task project into a ready page well under
one, so spare ready pages make episode starts quick. A spare page is used once: every episode
still gets a page no one has used before. Spares are loaded after the page in use is set up
(`top_up`), never beside it: on two cores, three 17 MB bundles parsed at once made the first
episode of a run wait for all three.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from studio.models.errors import StudioError
from studio.services.core.store import TaskFolder
from studio.services.episodes.modes import VIEWPORT
from studio.services.runtime import editions, page_guard, page_scripts
from studio.services.runtime.editions import Edition
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.server import EditorServer
from studio.services.runtime.windows import open_page

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = [
    "EDITOR_PAGE", "LOADS_AT_ONCE", "OPEN_LIMIT_S", "READY_TIMEOUT_MS", "EditorPages", "EnvError",
]  # fmt: skip

EDITOR_PAGE = "editor.html"  # the current edition's; an edition's own: editions.info(e)
READY_TIMEOUT_MS = 60_000
OPEN_LIMIT_S = 2 * READY_TIMEOUT_MS / 1000 + 30  # a page loaded and made ready, all told
# Pages loading the bundle at the same time: each load is CPU-bound, so twenty at once on two
# cores all miss their ready limit, while two at a time each get ready in seconds.
LOADS_AT_ONCE = 2


class EnvError(StudioError):
    """The environment cannot do what was asked (no such mode handler, editor not ready)."""


class EditorPages:
    """Opens ready editor pages in a browser context, keeping `spares` of them warm."""

    def __init__(
        self,
        server: EditorServer,
        context: Any,
        spares: int = 1,
        edition: Edition = Edition.CURRENT,
    ) -> None:
        self.server = server
        self.edition = edition
        self.context = context
        self.spares = max(0, spares)
        self._warm: list[asyncio.Task[Page]] = []
        self._loading = asyncio.Semaphore(LOADS_AT_ONCE)
        self._closed = False

    def top_up(self) -> None:
        """Start loading spares up to `spares` (none once closed)."""
        if self._closed:
            return
        self._warm = [t for t in self._warm if not t.cancelled()]
        while len(self._warm) < self.spares:
            self._warm.append(asyncio.ensure_future(self._open()))

    async def acquire(self) -> Page:
        """A ready editor page with the built-in default project (the caller loads a task).

        The spares taken are not replaced here: the caller calls `top_up` once the page is
        set up, so the page it waits for loads alone, not beside the next ones."""
        while self._warm:
            task = self._warm.pop(0)
            try:
                return await task
            except Exception:
                continue  # a spare that failed to load: try another
        return await self._open()

    async def _open(self) -> Page:
        async with self._loading:  # the ready limit counts from the page's turn
            page: Page = await asyncio.wait_for(open_page(self.context), OPEN_LIMIT_S)
            try:  # every step under one deadline: a browser that stops answering fails the page
                await asyncio.wait_for(self._load(page), OPEN_LIMIT_S)
            except BaseException:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(page.close(), OPEN_LIMIT_S)
                raise
        return page

    async def _load(self, page: Page) -> None:
        await page.set_viewport_size(VIEWPORT)
        url = self.server.url(editions.info(self.edition).editor_page)
        await page_guard.open_editor(page, url, timeout_ms=READY_TIMEOUT_MS)
        await page_scripts.wait_bridge(page, "isReady", timeout_ms=READY_TIMEOUT_MS)
        await page_scripts.install(page, page_scripts.COMPOSITE)
        await page_guard.guard(page)  # no action takes the page away from now on

    async def load_task(self, page: EditorPage, task: TaskFolder) -> None:
        """Load the task's initial project and put the editor in its known layout."""
        with contextlib.suppress(Exception):
            await page.bring_to_front()  # Blockly events reach the VM late in a back tab
        data = task.initial_path.read_bytes()
        url = self.server.register_bytes(data, task.initial_path.name)
        load = page_scripts.bridge(
            page, "loadProjectFromUrl", url, task.initial_path.name, task.task.id
        )
        try:
            await asyncio.wait_for(load, READY_TIMEOUT_MS / 1000)
        except TimeoutError:
            raise EnvError(
                f"{task.initial_path}: the editor did not load it within "
                f"{READY_TIMEOUT_MS / 1000:g} s"
            ) from None
        except Exception as exc:
            raise EnvError(f"{task.initial_path}: the editor did not load it ({exc})") from None
        finally:
            self.server.forget(url)
        layout = page_scripts.call(page, page_scripts.COMPOSITE, "layout")
        await asyncio.wait_for(layout, READY_TIMEOUT_MS / 1000)

    async def rest_between_actions(self, page: EditorPage) -> None:
        """Let the page's VM rest while its agent thinks (resources/js/editor-rest.js, deep
        rest: no VM steps, draws or audio while nothing can change; any action wakes it
        before it runs). A page without the gate (an edition's page lacking it) is left as is."""
        with contextlib.suppress(Exception):
            rest = page_scripts.own(page, "studioRest", "restVm", True)
            await asyncio.wait_for(rest, READY_TIMEOUT_MS / 1000)

    async def close(self) -> None:
        self._closed = True
        for task in self._warm:
            task.cancel()
        for task in self._warm:
            with contextlib.suppress(BaseException):
                page = await task
                await page.close()
        self._warm.clear()
