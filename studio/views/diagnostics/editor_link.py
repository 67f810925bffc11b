"""Borrowing the studio's embedded editor for labeling work.

A labeler sets the editor up (a project, a sprite, a palette category, blocks where they
want them) and then captures it: `EditorLink.borrow()` gets that very page (driven through Qt,
studio.views.live.page) at the benchmark's 1280x720 screen, installs the drag and perception
helpers, and keeps the view's size until it is given back. Nothing is loaded into the editor:
it keeps showing what the labeler made.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from studio.services.episodes.live.window_pages import WindowPageSource
from studio.services.runtime import page_scripts
from studio.views.editor.view import EditorView


class EditorLink:
    """The studio's editor page, lent to a labeling panel for a while by `pages` (the lender
    that live episodes share, so that one page is never driven twice)."""

    def __init__(self, editor: EditorView, pages: WindowPageSource) -> None:
        self.editor = editor
        self.pages = pages

    @property
    def busy(self) -> bool:
        """The editor is showing a live episode or another capture."""
        return bool(self.pages.busy)

    @contextlib.asynccontextmanager
    async def borrow(self) -> AsyncIterator[Any]:
        """The editor page (Playwright's page API) at 1280x720, helpers installed.

        Raises (EnvError, PageError) with a message when the editor is busy or cannot be
        reached; the page is given back however the block ends."""
        await self.editor.wait_ready()
        pages = self.pages
        page, _owned = await pages.acquire(lend=False)
        self.editor.hold_size(True)
        try:
            await page_scripts.install(page, page_scripts.DRAG, page_scripts.QA)
            yield page
        finally:
            pages.release(page)
            await pages.settled()
            self.editor.hold_size(False)
