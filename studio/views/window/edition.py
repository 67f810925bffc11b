"""The window runs on the editor edition of the library it shows.

A task library records its editor edition (runtime.editions: `<library>/edition.json`,
none meaning *current*). The window's embedded editor shows that edition's editor page, and
its headless evaluation browser (evaluate, checks, propose, the final evaluation of live runs
and human sessions) loads that edition's evaluation page. `EvaluationBrowser` owns that
browser: started on first use (or to warm it up), replaced by one of another edition when the
library's edition changes. `EditionFollower` decides the edition when the window opens a
library:

- at start, before the editor page loads (no page of the wrong edition is ever loaded first);
- on opening another library: an edition that differs takes effect only when the editor is
  free (no live run or human session has it) and the open task's unsaved work was saved or
  discarded (the editor page is reloaded, so the project it shows goes); the agent API served
  from the window stops (it ran on the old browser); otherwise the other library is not
  opened and the status bar says why;
- a library whose edition.json cannot be read is not opened (the error names the file);
- a library recorded for an edition whose bundle is missing opens, but its editor is not
  loaded: the editor's banner names the edition, the folders looked in and the `make` target
  that fetches it (`EditorView.start`), and evaluations say the same.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.runtime import editions
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import Evaluator
from studio.services.runtime.server import EditorServer
from studio.views.editor.view import EditorView


class EvaluationBrowser:
    """The window's headless browser pool (one edition) and the evaluator on it."""

    def __init__(self, server: EditorServer, pool: BrowserPool) -> None:
        self.server = server
        self.pool = pool
        self.evaluator = Evaluator(pool)
        self._start: asyncio.Future[BrowserPool] | None = None
        self.on_failed: Callable[[BaseException], None] | None = None  # a warm-up failed

    @property
    def edition(self) -> Edition:
        return self.pool.edition

    @property
    def starting(self) -> bool:
        return self._start is not None

    def warm_up(self) -> None:
        """Start the browser now, without waiting for it (a failure goes to `on_failed`)."""
        if self._start is None:
            self._start = asyncio.ensure_future(self.pool.start())
            self._start.add_done_callback(self._on_warmed)

    def _on_warmed(self, task: asyncio.Future[BrowserPool]) -> None:
        if task is self._start and not task.cancelled() and task.exception() is not None:
            self._start = None
            if self.on_failed is not None:
                self.on_failed(task.exception())  # type: ignore[arg-type]

    async def ready_pool(self) -> BrowserPool:
        """The started pool; raises when the browser cannot start (the next call tries again)."""
        if self._start is None:
            self._start = asyncio.ensure_future(self.pool.start())
        start = self._start
        try:
            await asyncio.shield(start)
        except Exception:
            if self._start is start:
                self._start = None
            raise
        return self.pool

    async def ready_evaluator(self) -> Evaluator:
        await self.ready_pool()
        return self.evaluator

    def _replace(self, edition: Edition) -> BrowserPool:
        """A new pool of `edition` (not started) takes the old one's place; the old one."""
        old = self.pool
        self.pool = BrowserPool(self.server, spares=old.spares, edition=edition)
        self.evaluator = Evaluator(self.pool)
        return old

    async def switch(self, edition: Edition) -> None:
        """Use a pool of `edition` from now on (the old one is closed)."""
        if edition is not self.pool.edition:
            await self._close(self._replace(edition))

    async def close(self) -> None:
        await self._close(self.pool)

    async def _close(self, pool: BrowserPool) -> None:
        start, self._start = self._start, None
        if start is not None:  # a browser still starting is not worth waiting for
            start.cancel()
            with contextlib.suppress(BaseException):
                await start
        await pool.close()


class EditionFollower:
    """Keeps the editor and the evaluation browser on the open library's edition."""

    def __init__(
        self,
        editor: EditorView,
        browser: EvaluationBrowser,
        editor_free: Callable[[], str | None],
        make_way: Callable[[str], Awaitable[bool]],
    ) -> None:
        """`editor_free()`: why the editor cannot be reloaded now (a live run has it), or None;
        `make_way(what)`: save or discard the open task's unsaved work, close it and stop
        what runs on the old browser (False: the user chose to stay)."""
        self.editor = editor
        self.browser = browser
        self._editor_free = editor_free
        self._make_way = make_way

    @property
    def edition(self) -> Edition:
        return self.editor.edition

    def begin(self, library: Path) -> None:
        """Before the window starts: the editor (not loaded yet) and the browser (not started)
        take the library's edition. An unreadable record leaves them on current; opening the
        library then says why."""
        try:
            edition = editions.read_edition(library)
        except StudioError:
            return
        self.editor.set_edition(edition, _owner(library))
        if edition is not self.browser.edition and not self.browser.starting:
            self.browser._replace(edition)  # the pool given was never started: nothing to close

    async def follow(self, library: Path) -> str | None:
        """Put the window on `library`'s edition; None when done, else why the library must
        not be opened."""
        try:
            edition = editions.read_edition(library)
        except StudioError as exc:
            return str(exc)
        owner = _owner(library)
        if edition is self.edition:
            self.editor.set_edition(edition, owner)
            return None
        busy = self._editor_free()
        if busy:
            return f"{library} runs on the {edition.value} editor edition; {busy}"
        if not await self._make_way(f"open {library} on the {edition.value} editor edition"):
            return f"{library} was not opened: the open task's changes are still unsaved"
        self.editor.set_edition(edition, owner)
        await self.browser.switch(edition)
        self.editor.start()
        return None


def _owner(library: Path) -> str:
    return f"The task library {library}"
