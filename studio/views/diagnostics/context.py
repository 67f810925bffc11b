"""What the labeling panels share: the studio's shell, its editor, the labeler's name."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from studio.services.runtime.browser import BrowserPool
from studio.views.diagnostics.editor_link import EditorLink
from studio.views.shell.studio_shell import StudioShell


@dataclass
class LabelingContext:
    """Handed to each panel of the labeling window."""

    shell: StudioShell
    link: EditorLink
    labeler: Callable[[], str]  # the name typed in the window's toolbar ('' when none)
    message: Callable[[str], None]  # a line in the labeling window's status bar

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run `coro` in the background; its errors reach the studio's error handler."""
        return self.shell.spawn(coro)

    async def pool(self) -> BrowserPool:
        """The studio's headless browser (started on first use)."""
        return await self.shell.pool()
