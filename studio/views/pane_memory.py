"""Pane sizes kept per view: the editor-above-tabs splitter remembers one set of sizes while
the Run tab is shown (a recorded run wants room for its step pictures) and another for every
other tab (authoring wants the editor). Leaving the Run tab gives the editor back the height it
had; both sets are kept in the settings file for the next start.

A recorded run shown in the Run tab belongs to the task selected when it was opened: when the
Run tab is shown again after another task was selected, the old run is taken away (a live run
is never taken away)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QSplitter, QTabWidget, QWidget

from studio.views.settings import open_settings

RUN_EDITOR_SHARE = 0.2  # of the height, for the editor while a recorded run is shown first


class PaneMemory:
    """Swaps `splitter`'s sizes as `tabs` go to and from the `run` page."""

    def __init__(self, splitter: QSplitter, tabs: QTabWidget, run: QWidget) -> None:
        self._splitter, self._tabs, self._run = splitter, tabs, run
        self._in_run = tabs.currentWidget() is run
        settings = open_settings()
        self._sizes: dict[bool, list[int] | None] = {
            False: _ints(settings.value("panes/authoring")),
            True: _ints(settings.value("panes/run")),
        }
        tabs.currentChanged.connect(self._on_tab)

    def show_run(self, editor_share: float = RUN_EDITOR_SHARE) -> None:
        """Show the run page; its remembered sizes, else `editor_share` of the height on top."""
        if self._sizes[True] is None:
            total = sum(self._splitter.sizes())
            if total > 0:
                top = int(total * editor_share)
                self._sizes[True] = [top, total - top]
        if self._tabs.currentWidget() is self._run:
            self._apply(True)
        else:
            self._tabs.setCurrentWidget(self._run)

    def save(self) -> None:
        """Keep both views' sizes for the next start."""
        self._sizes[self._in_run] = self._splitter.sizes()
        settings = open_settings()
        for in_run, key in ((False, "panes/authoring"), (True, "panes/run")):
            if self._sizes[in_run]:
                settings.setValue(key, self._sizes[in_run])
        settings.sync()

    def _on_tab(self, _index: int) -> None:
        in_run = self._tabs.currentWidget() is self._run
        if in_run == self._in_run:
            return
        self._sizes[self._in_run] = self._splitter.sizes()
        self._in_run = in_run
        self._apply(in_run)

    def _apply(self, in_run: bool) -> None:
        sizes = self._sizes[in_run]
        if sizes and sum(sizes) > 0:
            self._splitter.setSizes(sizes)


class StaleRunGuard:
    """Takes a recorded run out of the Run tab once another task was selected."""

    def __init__(
        self,
        tabs: QTabWidget,
        run: QWidget,
        selected: Callable[[], str | None],
        clear: Callable[[str], None],
        live: Callable[[], bool],
    ) -> None:
        self._selected, self._clear, self._live = selected, clear, live
        self._run = run
        self._owner: str | None = None
        self._shown = False
        tabs.currentChanged.connect(lambda _i: self._check(tabs.currentWidget()))

    def opened(self) -> None:
        """A run was just put in the Run tab for the task selected now."""
        self._owner = self._selected()
        self._shown = True

    def _check(self, page: QWidget) -> None:
        if page is not self._run or not self._shown or self._live():
            return
        now = self._selected()
        if now != self._owner:
            self._shown = False
            self._clear(f"No run of {now} shown yet." if now else "No run shown.")


def _ints(value: object) -> list[int] | None:
    if not isinstance(value, list | tuple):
        return None
    try:
        sizes = [int(v) for v in value]
    except (TypeError, ValueError):
        return None
    return sizes if len(sizes) == 2 and min(sizes) >= 0 else None
