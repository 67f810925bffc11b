"""Pane sizes kept per view: the editor-above-tabs splitter remembers one set of sizes while
the Run tab is shown (a recorded run wants room for its step pictures), one while the Script
tab is (more lines of the script) and another for every other tab (authoring wants the
editor). Leaving a view gives the next one back the sizes it had; every set is kept in the
settings file for the next start.

A recorded run shown in the Run tab belongs to the task selected when it was opened: when the
Run tab is shown again after another task was selected, the old run is taken away (a live run
is never taken away)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QSplitter, QTabWidget, QWidget

from studio.views.widgets.settings import open_settings

RUN_EDITOR_SHARE = 0.2  # of the height, for the editor while a recorded run is shown first
SCRIPT_EDITOR_SHARE = 0.4  # and while the Script tab is (more lines of the script show)
AUTHORING = "authoring"  # the sizes every page without its own shares


class PaneMemory:
    """Swaps `splitter`'s sizes as `tabs` go from page to page: the `run` page and the pages
    of `own` (page: (name, the editor's share of the height the first time)) each have their
    own sizes, every other page shares the authoring sizes."""

    def __init__(
        self,
        splitter: QSplitter,
        tabs: QTabWidget,
        run: QWidget,
        own: dict[QWidget, tuple[str, float]] | None = None,
    ) -> None:
        self._splitter, self._tabs, self._run = splitter, tabs, run
        self._views = {run: ("run", RUN_EDITOR_SHARE), **(own or {})}
        self._view = self._name(tabs.currentWidget())
        settings = open_settings()
        names = [AUTHORING, *(name for name, _share in self._views.values())]
        self._sizes = {name: _ints(settings.value(f"panes/{name}")) for name in names}
        self._live_restore: list[int] | None = None
        tabs.currentChanged.connect(self._on_tab)

    def _name(self, page: QWidget | None) -> str:
        return self._views[page][0] if page in self._views else AUTHORING

    def show_run(self, editor_share: float = RUN_EDITOR_SHARE) -> None:
        """Show the run page; its remembered sizes, else `editor_share` of the height on top."""
        self._first_sizes("run", editor_share)
        if self._tabs.currentWidget() is self._run:
            self._apply("run")
        else:
            self._tabs.setCurrentWidget(self._run)

    def show_live(self, editor_height: int) -> None:
        """Show the run page for a live episode: the editor gets `editor_height` (the
        episode's screen) if the window has it, the tabs what is left (at least their
        minimum); these sizes are not remembered as the run view's."""
        self.show_run()
        remembered = self._splitter.sizes()
        total = sum(remembered)
        if total <= 0:
            return
        tabs_min = max(self._tabs.minimumSizeHint().height(), 0)
        top = max(remembered[0], min(editor_height, total - tabs_min))
        self._splitter.setSizes([top, total - top])
        self._live_restore = remembered

    def save(self) -> None:
        """Keep every view's sizes for the next start."""
        self._store()
        settings = open_settings()
        for name, sizes in self._sizes.items():
            if sizes:
                settings.setValue(f"panes/{name}", sizes)
        settings.sync()

    def _first_sizes(self, name: str, editor_share: float) -> None:
        if self._sizes.get(name) is None:
            total = sum(self._splitter.sizes())
            if total > 0:
                top = int(total * editor_share)
                self._sizes[name] = [top, total - top]

    def _on_tab(self, _index: int) -> None:
        page = self._tabs.currentWidget()
        name = self._name(page)
        if name == self._view:
            return
        self._store()
        self._view = name
        if page in self._views:
            self._first_sizes(name, self._views[page][1])
        self._apply(name)

    def _store(self) -> None:
        """Keep the sizes of the view being left (a live episode's are not the run view's)."""
        restore, self._live_restore = self._live_restore, None
        self._sizes[self._view] = restore if restore is not None else self._splitter.sizes()

    def _apply(self, name: str) -> None:
        sizes = self._sizes.get(name)
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
