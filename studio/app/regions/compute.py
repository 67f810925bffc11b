"""Computing drag items' regions on a browser's editor windows, and recording each result.

Both front ends compute through here: `studio regions compute` (every item it is given, in
turn) and the drag items tab's Compute (the selected item).

- `prepare(paths, edition, compare)` reads the items and says, before any browser opens, what
  would stop a computation late: an item folder that cannot be read, items recording different
  editor editions (unless one is named), an edition that is not installed, a screenshot whose
  size is not the stored viewport's, a comparison asked for an item without stored regions.
- `RegionWorkshop(pool, windows)` computes on the editor windows of `pool` (a started
  `BrowserPool` with its editor server). `windows` is a list the caller keeps across items:
  the windows in it that are still open are set up for the next item, the ones missing are
  opened and added to it, and none is closed here (the pool closes them), so the second item
  starts on warm windows. Without a list, each item opens windows of its own and closes them
  when done. `RegionWorkshop.opened()` is a workshop on a browser of its own (no spare pages),
  its windows kept across items and closed with the browser.
- `RegionWorkshop.compute(entry, options, progress)` computes both regions for the item's grab
  point (its own `drag_start_point`, exactly; without one, the computation chooses one and it
  is stored with the regions), on `options.pages` trial pages and the item's edition unless
  `options.edition` names one, going on from the item's partial file unless `options.resume`
  is false. `progress(phase, done, asked)` hears the points verified so far and the drags
  asked for next, during each batch too. A computation that is cancelled, or whose progress
  callback raises, keeps what it verified in the partial file and raises `RegionInterrupted`
  (a `StudioError` saying how many points were verified and that a new run resumes); an item
  that cannot be computed raises its `DragItemError`. The result then goes through `record`,
  the one rule for what it becomes (see `results`), and the outcome is returned.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.app.regions.results import RegionOutcome, record
from studio.models.errors import StudioError
from studio.services.diagnostics.drag.item import (
    DragItemError,
    ItemFolder,
    check_screenshot,
    load_item,
)
from studio.services.diagnostics.drag.regions import DEFAULT_PAGES, Progress, RegionComputer
from studio.services.runtime import editions
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition

__all__ = ["RegionOptions", "RegionPlan", "RegionWorkshop", "check_item", "prepare"]


@dataclass(frozen=True)
class RegionOptions:
    """How to compute an item's regions and what to do with them.

    `grid`: px between grid points (None: the item's own); `pages`: trial pages dragging at
    once; `resume`: go on from the item's partial file (false: start afresh); `compare`:
    compare with the stored regions and keep the result as the "computed" label instead of
    storing it; `edition`: the editor edition to drag in (None: the item's own)."""

    grid: int | None = None
    pages: int = DEFAULT_PAGES
    resume: bool = True
    compare: bool = False
    edition: Edition | None = None

    def grid_for(self, entry: ItemFolder) -> int:
        """The grid this computation uses for `entry`: the one asked for, else the item's."""
        return self.grid or entry.item.evaluation_config.grid


@dataclass(frozen=True)
class RegionPlan:
    """Items read and checked by `prepare`, and the edition to compute them on."""

    entries: list[ItemFolder]
    edition: Edition


def check_item(entry: ItemFolder, compare: bool = False) -> None:
    """A `DragItemError` naming the file if the item's computation would fail on what is
    stored: a screenshot of another size than the stored viewport, or (`compare`) no stored
    regions to compare with."""
    check_screenshot(entry)
    cfg = entry.item.evaluation_config
    if compare and not (cfg.feasible_points and cfg.feasible_start_points):
        raise DragItemError(f"{entry.path}: comparing needs stored regions, the item has none")


def prepare(paths: Sequence[Path], edition: str | None = None, compare: bool = False) -> RegionPlan:
    """Read the item folders at `paths` and check them (see the module doc) before any
    browser opens. `edition` names the edition to use (as `--edition` does); None: the one
    the items record, which must be the same for all."""
    entries = [load_item(Path(path)) for path in paths]
    chosen = editions.choose_items(edition, [e.path for e in entries])
    editions.require_installed(chosen, "The drag items")
    for entry in entries:
        check_item(entry, compare)
    return RegionPlan(entries, chosen)


class RegionWorkshop:
    """Computes items' regions on the editor windows of one browser (see the module doc)."""

    def __init__(self, pool: BrowserPool, windows: list[Any] | None = None) -> None:
        if pool.server is None:
            raise StudioError("the browser pool has no editor server")
        self.context = pool.context
        self.server = pool.server
        self.windows = windows

    @classmethod
    @asynccontextmanager
    async def opened(cls) -> AsyncIterator[RegionWorkshop]:
        """A workshop on a browser of its own, closed (with every window) on exit."""
        async with BrowserPool(spares=0) as pool:
            yield cls(pool, [])

    async def compute(
        self,
        entry: ItemFolder,
        options: RegionOptions | None = None,
        progress: Progress | None = None,
    ) -> RegionOutcome:
        """Compute `entry`'s regions and record them (see the module doc)."""
        options = options or RegionOptions()
        check_item(entry, options.compare)
        if self.windows is not None:  # a window its user closed is not set up again
            self.windows[:] = [w for w in self.windows if not w.is_closed()]
        grid = options.grid_for(entry)
        computer = RegionComputer(
            self.context,
            self.server,
            entry,
            grid,
            options.pages,
            progress,
            resume=options.resume,
            windows=self.windows,
            edition=options.edition,
        )
        result = await computer.compute()
        return record(entry, result, grid, options.pages, options.compare)
