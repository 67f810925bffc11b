"""Lends the studio window's embedded editor page to one episode at a time.

`WindowPageSource` is an episode manager's page source (env.episode.PageSource): it attaches
to the embedded page through the debugging endpoint, sets the benchmark's 1280x720 screen,
and refuses a second episode while one is showing. Releasing restores the page's own size,
disconnects, and tells the window (`on_release`), which then knows the editor is its own again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from studio.services.env.composite import install as install_helpers
from studio.services.env.editor_pages import EnvError
from studio.services.live.attach import AttachedPage, attach


class WindowPageSource:
    """One embedded page, one episode at a time."""

    def __init__(self, url_part: str, endpoint_url: str | None = None) -> None:
        self.url_part = url_part
        self.endpoint_url = endpoint_url
        # awaited before the page is lent (e.g. the window stashes unsaved work)
        self.prepare: Callable[[], Awaitable[None]] | None = None
        self.on_release: list[Callable[[], None]] = []
        self._attached: AttachedPage | None = None
        self._busy = False
        self._releases: set[asyncio.Task[None]] = set()

    @property
    def busy(self) -> bool:
        return self._busy

    @property
    def page(self) -> Any:
        """The lent page as Playwright sees it (None when not lent)."""
        return self._attached.page if self._attached is not None else None

    async def acquire(self, lend: bool = True) -> tuple[Any, bool]:
        """Attach to the page at the benchmark's screen size. `lend=False` when the page
        keeps showing what it shows (a labeler capturing it): no `prepare` then."""
        if self._busy:
            raise EnvError(
                "the studio's editor is already showing an episode; stop it (or let it end) "
                "before starting another"
            )
        self._busy = True
        try:
            if lend and self.prepare is not None:
                await self.prepare()
            await self._wait_releases()
            self._attached = await attach(self.url_part, self.endpoint_url)
            await self._attached.emulate_screen()
            await install_helpers(self._attached.page)
        except BaseException:
            self._busy = False
            raise
        return self._attached.page, False

    async def refresh(self, page: Any) -> None:
        if self._attached is not None and self._attached.page is page:
            await self._attached.ensure_screen()

    def release(self, page: Any) -> None:
        """Give the page back. The window is told once the page has its own size again: a
        layout change made while the 1280x720 override is still on leaves the page at a
        stale size when the override is cleared."""
        attached, self._attached = self._attached, None
        self._busy = False
        task = asyncio.ensure_future(self._release(attached))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, attached: AttachedPage | None) -> None:
        if attached is not None:
            await attached.release()
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
        if self._attached is not None:
            attached, self._attached = self._attached, None
            await attached.release()
        await self._wait_releases()
