"""Feasible start and end regions of a drag item, every point backed by real drags.

Instead of the seed paper's point-by-point flood fill, the region is predicted and then only
its boundary is verified (`grid.BoundaryScan`):

- start region: predicted by asking the page which block a press at each grid point would
  take (the element under the point, a shadow counting as its parent block); verified by
  dragging from boundary points to an empty spot of the code area and reading whether the
  intended block moved in the VM;
- end region: predicted by replaying Blockly's snapping over the drag's mouse steps on the
  workspace's connections (`replay`), from the grab point; verified by dragging from
  that point and reading whether the intended relation (next, parent, input,
  substack) exists in the VM.

An end region only means something for one grab point: where the block is held decides where
it lands. As in the seed paper's appendix J, the end points are found for one fixed feasible
start point, the grab point: the item's own `drag_start_point` when it has one (exactly, off
the grid as published items have it; a press there must take the block, else the
computation stops naming the point and what a press there takes), otherwise the verified
start point nearest the left-edge heuristic, which is then stored with the regions as the
item's `drag_start_point` (and with a label as the label's). Scoring (`scoring`) and the
overlays measure end points against that same grab point.

A start trial makes one mouse move (to an empty spot); an end trial makes the steps of the
ten (a published item: the published runner's fifteen) that the replay says could change what
the drop does (`replay.needed_steps`). The exhaustive check (`verify_points`) makes them all.

Drags run on several editor pages at once. After every batch the verdicts are written to the
item's `regions.partial.json`, so an interrupted computation resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.services.core.atomic import write_bytes, write_text
from studio.services.diagnostics.drag import page as page_module
from studio.services.diagnostics.drag import replay as replay_module
from studio.services.diagnostics.drag import setup as setup_module
from studio.services.diagnostics.drag.grid import (
    BoundaryScan,
    Point,
    best_axis,
    disc,
    window_points,
)
from studio.services.diagnostics.drag.grid import snap as snap_to
from studio.services.diagnostics.drag.item import DragItemError, ItemFolder
from studio.services.diagnostics.drag.page import Job, TrialPages
from studio.services.diagnostics.drag.replay import DRAG_STEPS, needed_steps, simulate_drop
from studio.services.diagnostics.drag.setup import SETUP_KEYS
from studio.services.runtime import page_scripts
from studio.services.runtime.editions import Edition
from studio.services.runtime.page_scripts import COMPOSITE, DRAG
from studio.services.runtime.server import EditorServer

__all__ = [
    "DEFAULT_PAGES", "MARGIN_STEPS", "SEED_DX", "SEED_DY", "START_STEPS",
    "TRIAL_CODE", "TRIAL_SCRIPTS", "Grab", "PartialState", "Progress", "RegionComputer",
    "RegionInterrupted", "RegionResult", "choose_destination",
    "item_grab", "item_key", "owner_matches",
    "predict_end",
    "predict_start", "seed_order", "simulate_drop", "start_steps", "start_window", "verify_points",
]  # fmt: skip
Progress = Callable[[str, int, int], None]  # (phase, drags so far, drags asked for next)
Grab = tuple[float, float]  # a grab point: screen pixels, not necessarily on the grid
DEFAULT_PAGES = 3
SEED_DX, SEED_DY = 12, 14  # press near the left edge of a block (seed paper, appendix K)
MARGIN_STEPS = 2
# A start trial drops the block on an empty spot: which block the press took is settled by
# the first move past the drag radius, and no step on the way can change it, so one move
# (the last step) does what all do.
START_STEPS = (DRAG_STEPS,)  # a studio item's; a published item's last step is its own


def start_steps(pages: TrialPages) -> tuple[int, ...]:
    return (pages.steps,)


# the page scripts of a trial page count by their source as installed (lists included)
TRIAL_SCRIPTS = (COMPOSITE, DRAG)
TRIAL_CODE = (
    Path(page_module.__file__ or ""),
    Path(replay_module.__file__ or ""),
    Path(setup_module.__file__ or ""),
)


class RegionInterrupted(DragItemError):
    """The computation stopped before the end; what was verified is kept in the partial file."""


@dataclass
class RegionResult:
    start_points: list[Point]
    end_points: list[Point]
    drag_start_point: Grab  # the grab point the end region is for
    destination: tuple[float, float]
    seconds: float
    drags: int
    resumed_drags: int = 0
    evidence: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "start_points": [list(p) for p in self.start_points],
            "end_points": [list(p) for p in self.end_points],
            "drag_start_point": list(self.drag_start_point),
            "seconds": round(self.seconds, 2),
            "drags": self.drags,
            "resumed_drags": self.resumed_drags,
            "evidence": self.evidence,
        }


def item_grab(entry: ItemFolder) -> Grab | None:
    """The item's own grab point (its `drag_start_point`), exactly as stored; None: none."""
    ds = entry.item.evaluation_config.drag_start_point
    return (float(ds[0]), float(ds[1])) if ds else None


def item_key(entry: ItemFolder, grid: int) -> str:
    """What a partial result depends on: project, blocks, connection, screen and grid."""
    cfg = entry.item.evaluation_config
    h = hashlib.sha256(entry.project_path.read_bytes())
    h.update(json.dumps(entry.item.spec, sort_keys=True).encode())
    h.update(cfg.workspace_state.model_dump_json().encode())
    setup = {k: v for k, v in (cfg.model_extra or {}).items() if k in SETUP_KEYS}
    h.update(json.dumps([setup, entry.item.sw_extra.get("sprite")], sort_keys=True).encode())
    h.update(str(grid).encode())
    h.update(json.dumps(item_grab(entry)).encode())  # the end region is for this grab point
    for code in TRIAL_CODE:  # verdicts of another version of the trial code do not count
        h.update(code.read_bytes())
    for script in page_scripts.in_order(TRIAL_SCRIPTS):
        h.update(page_scripts.source(script).encode())
    return h.hexdigest()[:16]


class PartialState:
    """The verdicts verified so far, on disk next to the item."""

    def __init__(self, entry: ItemFolder, grid: int) -> None:
        self.entry = entry
        self.key = item_key(entry, grid)
        self.start: dict[Point, bool] = {}
        self.end: dict[Point, bool] = {}
        self.drag_start: Grab | None = None

    def load(self) -> int:
        """Read a partial file of the same item state; the number of verdicts it holds."""
        path = self.entry.partial_path
        if not path.is_file():
            return 0
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return 0
        if data.get("key") != self.key:
            return 0
        self.start = {(int(x), int(y)): bool(v) for x, y, v in data.get("start", [])}
        self.end = {(int(x), int(y)): bool(v) for x, y, v in data.get("end", [])}
        ds = data.get("drag_start")
        self.drag_start = (float(ds[0]), float(ds[1])) if ds else None
        return len(self.start) + len(self.end)

    def save(self) -> None:
        data = {
            "key": self.key,
            "start": [[x, y, v] for (x, y), v in sorted(self.start.items())],
            "end": [[x, y, v] for (x, y), v in sorted(self.end.items())],
            "drag_start": list(self.drag_start) if self.drag_start else None,
        }
        write_text(self.entry.partial_path, json.dumps(data) + "\n")

    def discard(self) -> None:
        self.entry.partial_path.unlink(missing_ok=True)


def _in_view(p: Point) -> bool:
    return 0 <= p[0] < 1280 and 0 <= p[1] < 720


def start_window(geometry: dict[str, Any], grid: int) -> list[Point]:
    """Grid points around the dragged block (its own box plus a margin)."""
    box = geometry["source_full_box"]
    m = MARGIN_STEPS * grid
    x0, y0 = box["x"] - m, box["y"] - m
    x1, y1 = box["x"] + box["w"] + m, box["y"] + box["h"] + m
    xs = range(snap_to(x0, grid), snap_to(x1, grid) + 1, grid)
    ys = range(snap_to(y0, grid), snap_to(y1, grid) + 1, grid)
    return [(x, y) for y in ys for x in xs if _in_view((x, y))]


def owner_matches(owner: dict[str, Any], spec: dict[str, Any]) -> bool:
    if spec["source"] == "flyout":
        return (
            owner.get("kind") == "flyout"
            and owner.get("opcode") == spec["target_opcode"]
            and owner.get("index") == spec["flyout_index"]
        )
    return owner.get("kind") == "canvas" and owner.get("id") == spec["target_id"]


async def predict_start(pages: TrialPages, grid: int) -> set[Point]:
    points = start_window(pages.geometry, grid)
    lead = pages.lead()
    owners = await lead.ask("ownersAt", [list(p) for p in points])
    spec = lead.spec  # the page's: a palette variable block's index is found there
    return {p for p, o in zip(points, owners, strict=True) if owner_matches(o, spec)}


def predict_end(
    geometry: dict[str, Any],
    snap: dict[str, Any] | None,
    start: Grab,
    grid: int,
    steps: int = DRAG_STEPS,
) -> tuple[set[Point], Point]:
    """End points predicted to connect, and the point where the connections meet exactly."""
    aim, dragged = geometry["aim_point"], geometry["dragged_point"]
    cx = start[0] + aim["x"] - dragged["x"]
    cy = start[1] + aim["y"] - dragged["y"]
    centre = (snap_to(cx, grid), snap_to(cy, grid))
    fly = geometry.get("flyout_box") or {"x": 0, "w": 0}
    left = fly["x"] + fly["w"]  # a drop over the palette deletes the block

    def droppable(p: Point) -> bool:
        return _in_view(p) and p[0] > left

    if not snap or not snap.get("connections"):
        radius = geometry["snap_radius"] * geometry["scale"]
        return {p for p in disc((cx, cy), radius, grid) if droppable(p)}, centre
    reach = snap["connecting"] + 2 * grid
    window = window_points(cx - reach, cy - reach, cx + reach, cy + reach, grid)
    region = {p for p in window if droppable(p) and simulate_drop(snap, start, p, steps)}
    return region, centre


def seed_order(candidates: set[Point], aim: tuple[float, float]) -> list[Point]:
    return sorted(candidates, key=lambda p: (math.hypot(p[0] - aim[0], p[1] - aim[1]), p))


async def choose_destination(pages: TrialPages, geometry: dict[str, Any]) -> tuple[float, float]:
    """An empty spot of the code area far from the dragged block, to drop it on."""
    spots = await pages.lead().ask("emptySpots")
    if not spots:
        raise DragItemError("the code area has no empty spot to drop a block on")
    box = geometry["source_full_box"]
    cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
    far = [s for s in spots if math.hypot(s[0] - cx, s[1] - cy) >= 150] or spots
    far.sort(key=lambda s: (abs(math.hypot(s[0] - cx, s[1] - cy) - 220), s[1], s[0]))
    return float(far[0][0]), float(far[0][1])


class RegionComputer:
    """Computes both regions of one item on `pages` trial pages (see the module doc)."""

    def __init__(
        self,
        context: Any,
        server: EditorServer,
        entry: ItemFolder,
        grid: int | None = None,
        pages: int = DEFAULT_PAGES,
        progress: Progress | None = None,
        resume: bool = True,
        windows: list[Any] | None = None,
        start_at: tuple[float, float] | None = None,
        edition: Edition | None = None,
    ) -> None:
        self.windows = windows
        self.edition = edition  # None: the one the item's library records
        # the end region's grab point: `start_at`, else the item's own (None: chosen here)
        self.start_at = start_at if start_at is not None else item_grab(entry)
        self.context = context
        self.server = server
        self.entry = entry
        self.grid = grid or entry.item.evaluation_config.grid
        self.page_count = pages
        self.progress = progress or (lambda phase, done, asked: None)
        self.state = PartialState(entry, self.grid)
        self.resumed = self.state.load() if resume else 0

    async def compute(self) -> RegionResult:
        t0 = time.perf_counter()
        async with TrialPages(
            self.context, self.server, self.entry, self.page_count, self.windows, self.edition
        ) as pages:
            if not self.entry.screenshot_path.is_file():  # a published item comes without one
                shot = await pages.lead().screenshot()
                write_bytes(self.entry.screenshot_path, shot)
            try:
                result = await self._compute(pages)
            except DragItemError:
                raise
            except BaseException as exc:
                self.state.save()
                done = len(self.state.start) + len(self.state.end)
                raise RegionInterrupted(
                    f"item {self.entry.item.id}: region computation interrupted after {done} "
                    f"verified points ({type(exc).__name__}: {exc}); the partial result is in "
                    f"{self.entry.partial_path}, run again to resume"
                ) from exc
            result.seconds = time.perf_counter() - t0
            result.drags = pages.drags
        self.state.discard()
        return result

    async def _compute(self, pages: TrialPages) -> RegionResult:
        geometry = pages.geometry
        dest = await choose_destination(pages, geometry)
        predicted = await predict_start(pages, self.grid)
        box = geometry["source_box"]
        heuristic = (box["x"] + SEED_DX, box["y"] + min(SEED_DY, box["h"] / 2))
        start_scan = BoundaryScan(
            predicted, self.grid, best_axis(predicted), self.state.start, sample_every=5
        )

        async def start_jobs(points: list[Point]) -> dict[Point, bool]:
            verdicts = await pages.run([(p, dest, start_steps(pages)) for p in points])
            return {p: v.moved for p, v in zip(points, verdicts, strict=True)}

        grab = self.state.drag_start or await self._fixed_start(pages, start_jobs)
        aim = grab or heuristic  # the start region is the component holding the grab point
        seed = await self._seed(start_scan, predicted, aim, start_jobs, "start seed")
        drag_start: Grab = grab or (float(seed[0]), float(seed[1]))
        self.state.drag_start = drag_start
        lead = pages.lead()
        await lead.at_baseline()  # the seed's last drag may still be undoing
        snap = await lead.ask("snapTargets", lead.spec)
        end_pred, centre = predict_end(geometry, snap, drag_start, self.grid, pages.steps)
        end_scan = BoundaryScan(end_pred, self.grid, best_axis(end_pred), self.state.end)
        steps_snap = snap if geometry.get("loose") else None

        def end_job(p: Point) -> Job:
            return (drag_start, p, needed_steps(steps_snap, drag_start, p, pages.steps))

        async def end_jobs(points: list[Point]) -> dict[Point, bool]:
            verdicts = await pages.run([end_job(p) for p in points])
            return {p: v.connected for p, v in zip(points, verdicts, strict=True)}

        await self._seed(end_scan, end_pred, centre, end_jobs, "end seed")
        await self._scan_both(pages, start_scan, end_scan, dest, end_job)
        start_region = start_scan.region()
        return RegionResult(
            start_points=sorted(start_region),
            end_points=sorted(end_scan.region()),
            drag_start_point=drag_start,
            destination=dest,
            seconds=0.0,
            drags=0,
            resumed_drags=self.resumed,
            evidence={"start": start_scan.evidence(), "end": end_scan.evidence()},
        )

    async def _fixed_start(
        self, pages: TrialPages, jobs: Callable[[list[Any]], Any]
    ) -> Grab | None:
        """`start_at` exactly (off the grid too), once a real drag from it moved the block."""
        if self.start_at is None:
            return None
        point = (float(self.start_at[0]), float(self.start_at[1]))
        verdicts = await jobs([point])
        if verdicts[point]:
            return point
        owner = await pages.lead().ask("ownersAt", [list(point)])
        raise DragItemError(
            f"item {self.entry.item.id}: a drag from the item's drag start point "
            f"({point[0]:g}, {point[1]:g}) does not move the block on the screen its set-up "
            f"made ({_set_up_steps(self.entry)}); a press there takes {_owner_text(owner[0])}"
        )

    async def _seed(
        self,
        scan: BoundaryScan,
        predicted: set[Point],
        aim: tuple[float, float],
        jobs: Callable[[list[Point]], Any],
        phase: str,
    ) -> Point:
        """A verified point of the region, nearest to `aim` (the paper's expanding search)."""
        known = [p for p in seed_order(set(scan.verified), aim) if scan.verified[p]]
        if known:
            scan.candidate.add(known[0])
            return known[0]
        order = seed_order(predicted, aim) or seed_order(
            {(snap_to(aim[0], self.grid), snap_to(aim[1], self.grid))}, aim
        )
        batch = max(1, self.page_count)
        for i in range(0, min(len(order), 12 * batch), batch):
            points = [p for p in order[i : i + batch] if p not in scan.verified]
            self.progress(phase, self._done(), len(points))
            verdicts = await jobs(points)
            scan.record(verdicts)
            self.state.save()
            hits = [p for p in points if verdicts[p]]
            if hits:
                scan.candidate.add(hits[0])
                return hits[0]
        raise DragItemError(
            f"item {self.entry.item.id}: {phase}: no drag near ({aim[0]:.0f}, {aim[1]:.0f}) "
            "did what the item asks; check the item's blocks and connection"
        )

    async def _scan_both(
        self,
        pages: TrialPages,
        start_scan: BoundaryScan,
        end_scan: BoundaryScan,
        dest: tuple[float, float],
        end_job: Callable[[Point], Job],
    ) -> None:
        """Verify both boundaries; the drags of both regions share each batch of pages."""
        while True:
            need_start, need_end = start_scan.needed(), end_scan.needed()
            if not need_start and not need_end:
                return
            self.progress("regions", self._done(), len(need_start) + len(need_end))
            jobs: list[Job] = [(p, dest, start_steps(pages)) for p in need_start]
            jobs += [end_job(p) for p in need_end]
            verdicts = await pages.run(jobs, self._drag_progress(len(jobs)))
            cut = len(need_start)
            start_scan.record({p: v.moved for p, v in zip(need_start, verdicts[:cut], strict=True)})
            end_scan.record({p: v.connected for p, v in zip(need_end, verdicts[cut:], strict=True)})
            self.state.save()

    def _drag_progress(self, total: int) -> Callable[[int], None]:
        """Progress within a batch of `total` drags: n done of it."""
        before = self._done()
        return lambda n: self.progress("regions", before + n, total - n)

    def _done(self) -> int:
        return len(self.state.start) + len(self.state.end)


def _set_up_steps(entry: ItemFolder) -> str:
    cfg = entry.item.evaluation_config
    extra = cfg.model_extra or {}
    steps = [f"{k} ({len(extra[k])})" for k in SETUP_KEYS if extra.get(k)]
    return ", ".join([*steps, "workspace_state"])


def _owner_text(owner: dict[str, Any]) -> str:
    kind = owner.get("kind")
    if kind == "canvas":
        return f"block {owner.get('id')} ({owner.get('opcode')}) of the code area"
    if kind in ("flyout", "flyout-inner"):
        return f"the palette's {owner.get('opcode')} block #{owner.get('index', '?')}"
    return "no block"


async def verify_points(
    pages: TrialPages,
    points: list[Point],
    kind: str,
    drag_start: Grab,
    destination: tuple[float, float],
) -> set[Point]:
    """Exhaustive verification: a real drag for every point; the ones that succeed."""
    if kind == "start":
        verdicts = await pages.run([(p, destination) for p in points])
        return {p for p, v in zip(points, verdicts, strict=True) if v.moved}
    verdicts = await pages.run([(drag_start, p) for p in points])
    return {p for p, v in zip(points, verdicts, strict=True) if v.connected}
