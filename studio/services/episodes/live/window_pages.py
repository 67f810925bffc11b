"""Lends the studio window's embedded editor page to one episode at a time.

`WindowPageSource` is an episode manager's page source (env.seams.PageSource). The window
gives it `open_page`, which shows its editor page at the benchmark's 1280x720 screen and
returns it as a `LentPage` whose `page` has the Playwright page API episodes use (built on Qt
in the window, studio.views.live.page: no debugging endpoint, nothing another process can
reach). The source refuses a second episode while one is showing. Releasing gives the page
its own size back and tells the window (`on_release`), which then knows the editor is its
own again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol

from studio.services.episodes.editor_pages import EnvError
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

__all__ = ["LentPage", "OpenPage", "WindowPageSource"]


class LentPage(Protocol):
    """The window's editor page while an episode has it."""

    @property
    def page(self) -> EditorPage:
        """The page, with the Playwright page API that episodes and mode handlers call."""
        ...

    async def ensure_screen(self) -> None:
        """Show the page at its episode's screen size again if something changed it."""
        ...

    async def release(self) -> None:
        """Give the page its own size back (it keeps running)."""
        ...


OpenPage = Callable[[], Awaitable[LentPage]]


async def _no_window() -> LentPage:
    raise EnvError("live runs need the studio window's editor, and none is attached")


class WindowPageSource:
    """One embedded page, one episode at a time."""

    def __init__(self, open_page: OpenPage = _no_window) -> None:
        self.open_page = open_page
        # awaited before the page is lent (e.g. the window stashes unsaved work)
        self.prepare: Callable[[], Awaitable[None]] | None = None
        self.on_release: list[Callable[[], None]] = []
        self._lent: LentPage | None = None
        self._busy = False
        self._releases: set[asyncio.Task[None]] = set()

    @property
    def busy(self) -> bool:
        return self._busy

    @property
    def page(self) -> EditorPage | None:
        """The lent page (None when not lent)."""
        return self._lent.page if self._lent is not None else None

    async def acquire(self, lend: bool = True) -> tuple[EditorPage, bool]:
        """The page at the benchmark's screen size. `lend=False` when the page keeps
        showing what it shows (a labeler capturing it): no `prepare` then."""
        if self._busy:
            raise EnvError(
                "the studio's editor is already showing an episode; stop it (or let it end) "
                "before starting another"
            )
        self._busy = True
        lent: LentPage | None = None
        try:
            if lend and self.prepare is not None:
                await self.prepare()
            await self._wait_releases()
            lent = await self.open_page()
            await page_scripts.install(lent.page, page_scripts.COMPOSITE)
        except BaseException:
            self._busy = False
            if lent is not None:
                with contextlib.suppress(Exception):
                    await lent.release()
            raise
        self._lent = lent
        return lent.page, False

    async def refresh(self, page: EditorPage) -> None:
        if self._lent is not None and self._lent.page is page:
            await self._lent.ensure_screen()

    def release(self, page: EditorPage) -> None:
        """Give the page back. The window is told once the page has its own size again."""
        lent, self._lent = self._lent, None
        self._busy = False
        task = asyncio.ensure_future(self._release(lent))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, lent: LentPage | None) -> None:
        if lent is not None:
            with contextlib.suppress(Exception):
                await lent.release()
        for callback in list(self.on_release):
            callback()

    async def settled(self) -> None:
        """Wait until every release so far is complete (the page has its own size)."""
        await self._wait_releases()

    async def _wait_releases(self) -> None:
        for task in list(self._releases):
            with contextlib.suppress(BaseException):
                await task

    async def close(self) -> None:
        if self._lent is not None:
            lent, self._lent = self._lent, None
            with contextlib.suppress(Exception):
                await lent.release()
        await self._wait_releases()
