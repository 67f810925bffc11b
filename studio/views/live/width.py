"""Room for a live episode's screen across: while an episode plays in the window's editor
(its page shown at exactly the episode's width, 1280 px), the editor's column should be that
wide, else the right of the editor is cut off on screen.

`LiveWidth.widen(width)` hides the left pane (library and details) when the editor's column is
narrower than `width`, and, when that is still not enough, makes the window wider, never past
its screen's available width. `restore()` gives back the left pane, the splitter's sizes and
the window's width as they were. Nothing changes when the column is already wide enough.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QSplitter, QWidget

from studio.views.shell import layout as window_layout


class LiveWidth:
    """Widens the `column` (the right pane of the horizontal `splitter`, whose other pane is
    `left`) of `window` for a live episode, and gives everything back after it."""

    def __init__(self, window: QWidget, splitter: QSplitter, left: QWidget, column: QWidget):
        self._window, self._splitter, self._left, self._column = window, splitter, left, column
        self._saved: tuple[list[int], int] | None = None

    @property
    def widened(self) -> bool:
        return self._saved is not None

    def widen(self, width: int) -> None:
        """Give the column at least `width` px across if the screen allows it."""
        if self._saved is not None or self._column.width() >= width:
            return
        self._saved = (self._splitter.sizes(), self._window.width())
        if self._left.isVisible():
            self._left.hide()
            self._splitter.setSizes([0, sum(self._saved[0])])
        missing = width - self._splitter.width()  # the column gets all of it now
        if missing > 0:
            wider = min(self._window.width() + missing, self._room())
            self._window.resize(wider, self._window.height())
            window_layout.fit_screen(self._window)  # and it stays on its screen

    def restore(self) -> None:
        """Put the left pane, the splitter's sizes and the window's width back."""
        if self._saved is None:
            return
        sizes, window_width = self._saved
        self._saved = None
        if self._window.width() != window_width:
            self._window.resize(window_width, self._window.height())
        self._left.show()
        self._splitter.setSizes(sizes)

    def _room(self) -> int:
        """The widest the window may be: its screen's available width (less its frame)."""
        screen = self._window.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return self._window.width()
        frame = self._window.frameGeometry().width() - self._window.width()
        return max(self._window.width(), screen.availableGeometry().width() - frame)
