"""What the Diff tab shows, and when it is computed again.

The tab shows the comparison asked for last: initial -> golden of the open task (Task ▸ Show
diff, Ctrl+3, with unsaved edits included), or golden -> a surviving mutant (a click on it in
the Checks tab). Switching to the tab refreshes initial -> golden only when that is what it
shows (or nothing yet): a mutant's diff stays until another comparison is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtWidgets import QTabWidget

from studio.views.authoring.diff_view import DiffView

SessionDiff = Callable[[], Coroutine[Any, Any, None]]


class DiffTab:
    """Keeps the Diff tab (`diff`, one of `tabs`) on the comparison asked for; `session_diff`
    fills it with initial -> golden of the open task; `spawn` runs it in the background."""

    def __init__(
        self,
        tabs: QTabWidget,
        diff: DiffView,
        session_diff: SessionDiff,
        spawn: Callable[[Coroutine[Any, Any, Any]], object],
    ) -> None:
        self.tabs, self.diff = tabs, diff
        self._session_diff, self._spawn = session_diff, spawn
        tabs.currentChanged.connect(self._on_tab_changed)

    async def show_session_diff(self) -> None:
        """Initial vs golden as the task holds them now, in the Diff tab."""
        self.tabs.setCurrentWidget(self.diff)
        await self._session_diff()

    def show_asked(self) -> None:
        """Another comparison was just put into the view (a mutant): bring the tab forward."""
        self.tabs.setCurrentWidget(self.diff)

    def _on_tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.diff and self.diff.shows_session():
            self._spawn(self._session_diff())
