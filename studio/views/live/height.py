"""Room for a live episode's screen down: while an episode plays in the window's editor (its
page shown at exactly the episode's 1280x720), the editor's pane should be that tall, else the
bottom of the editor (the sprite pane, the stage's lower part) is cut off on screen.

`LiveHeight.make_room(height)` gives the `editor` (in the pane `top`, above the `tabs` in the
vertical `splitter`) at least `height` px when the screen has them: what sits above the editor
or below it and is not needed while an episode plays (the toolbar, the document bar, the status
bar: `collapse`) is hidden,
the tabs may shrink to `TABS_LIVE_MIN` (the Run tab's title and controls stay in view; its step
list shows what fits and scrolls), and when that is not enough the window grows taller, up to
its screen's available height (the margin a first window keeps is given up), moving up if its
bottom would leave the screen. `restore()` gives back what it hid, the tabs' minimum and
the window's height. Nothing changes when the pane is already tall enough.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter, QTabWidget, QWidget

TABS_LIVE_MIN = 96  # the tab bar, the Run tab's title and its controls


class LiveHeight:
    """Makes the `editor` in the `top` pane of `splitter` (whose other pane is `tabs`) in
    `window` tall enough for a live episode, and gives everything back after it."""

    def __init__(
        self,
        window: QMainWindow,
        splitter: QSplitter,
        top: QWidget,
        editor: QWidget,
        tabs: QTabWidget,
        collapse: Sequence[QWidget],
    ) -> None:
        self._window, self._splitter, self._top, self._tabs = window, splitter, top, tabs
        self._editor = editor
        self._collapse = list(collapse)
        self._saved: tuple[list[QWidget], int, int] | None = None

    @property
    def made_room(self) -> bool:
        return self._saved is not None

    def make_room(self, height: int) -> None:
        """Give the editor at least `height` px down if the screen allows it, then size the
        splitter so that it has them (the tabs get the rest)."""
        if self._saved is not None or self._editor.height() >= height:
            return
        hidden = [w for w in self._collapse if w.isVisible()]
        self._saved = (hidden, self._tabs.minimumHeight(), self._window.height())
        for widget in hidden:
            widget.hide()
        self._tabs.setMinimumHeight(min(TABS_LIVE_MIN, self._tabs.minimumSizeHint().height()))
        self._activate()
        height += self._top.height() - self._editor.height()  # what stays above it in its pane
        handle = self._splitter.handleWidth()
        missing = height + self._tabs.minimumHeight() + handle - self._splitter.height()
        if missing > 0:
            taller = min(self._window.height() + missing, self._room())
            self._window.resize(self._window.width(), taller)
            self._keep_on_screen()
            self._activate()
        total = sum(self._splitter.sizes())
        top = min(height, total - self._tabs.minimumHeight())
        if top > self._splitter.sizes()[0]:
            self._splitter.setSizes([top, total - top])

    def restore(self) -> None:
        """Show what was hidden, give the tabs their minimum and the window its height back."""
        if self._saved is None:
            return
        hidden, tabs_min, window_height = self._saved
        self._saved = None
        for widget in hidden:
            widget.show()
        self._tabs.setMinimumHeight(tabs_min)
        if self._window.height() != window_height:
            self._window.resize(self._window.width(), window_height)

    def _activate(self) -> None:
        """Lay the window out now (the splitter's height follows what was hidden or resized)."""
        layout = self._window.layout()
        if layout is not None:
            layout.activate()

    def _area(self) -> QRect | None:
        screen = self._window.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else None

    def _room(self) -> int:
        """The tallest the window may be: its screen's available height (less its frame)."""
        area = self._area()
        if area is None:
            return self._window.height()
        frame = self._window.frameGeometry().height() - self._window.height()
        return max(self._window.height(), area.height() - frame)

    def _keep_on_screen(self) -> None:
        area = self._area()
        frame = self._window.frameGeometry()
        if area is not None and frame.bottom() > area.bottom():
            self._window.move(frame.x(), max(area.top(), area.bottom() + 1 - frame.height()))
