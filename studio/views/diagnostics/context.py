"""What the labeling panels share: the studio window, its editor, the labeler's name."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studio.views.diagnostics.editor_link import EditorLink

if TYPE_CHECKING:
    from studio.services.browser import BrowserPool
    from studio.views.main_window import MainWindow


@dataclass
class LabelingContext:
    """Handed to each panel of the labeling window."""

    window: MainWindow
    link: EditorLink
    labeler: Callable[[], str]  # the name typed in the window's toolbar ('' when none)
    message: Callable[[str], None]  # a line in the labeling window's status bar

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run `coro` in the background; its errors reach the studio's error handler."""
        return self.window.background.spawn(coro)

    async def pool(self) -> BrowserPool:
        """The studio's headless browser (started on first use)."""
        await self.window._ensure_pool()
        return self.window._pool
