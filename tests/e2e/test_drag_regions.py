"""Drag regions on the real editor: the fast computation against exhaustive verification.

One shipped item (a block dropped into a repeat's input) is computed on a 10 px grid,
interrupted after its first batch and resumed; then every grid point of a small window around
the end region's boundary is verified with a real drag each and compared with the fast region;
a predicted drag is executed for scoring; an item whose block is gone says so. For the palette
item, the predicted end region and the trial drags that leave out steps are checked against
full drags.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.app.regions import RegionInterrupted, RegionOptions, RegionWorkshop
from studio.services.core import paths
from studio.services.diagnostics.drag.grid import bbox, iou, window_points
from studio.services.diagnostics.drag.item import DragItemError, load_item
from studio.services.diagnostics.drag.page import TrialPages
from studio.services.diagnostics.drag.regions import START_STEPS, predict_end, verify_points
from studio.services.diagnostics.drag.replay import needed_steps
from studio.services.diagnostics.drag.scoring import execute, read_predictions, report, score_items
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

ITEM = paths.PROJECT_ROOT / "diagnostics" / "drag" / "t2_yposition_into_gt"
PALETTE_ITEM = paths.PROJECT_ROOT / "diagnostics" / "drag" / "t1_palette_move_below_wait"
GRID = 10


class Stop(Exception):
    """Raised by the progress callback to interrupt a computation."""


@pytest.fixture(scope="module")
def trial_windows(browser_pool: Any, loop_thread: LoopThread) -> Iterator[list[Any]]:
    """Editor windows kept across computations and items, as `studio regions compute` keeps
    them (a kept window sets an item up as a fresh one does: test_published_grab)."""
    windows: list[Any] = []
    yield windows
    for window in windows:
        loop_thread.run(window.close())


@pytest.fixture
def item_dir(tmp_path: Path) -> Path:
    dest = tmp_path / "item"
    shutil.copytree(ITEM, dest)
    (dest / "regions.partial.json").unlink(missing_ok=True)
    return dest


def test_fast_regions_match_exhaustive_and_resume(
    item_dir: Path, browser_pool: Any, loop_thread: LoopThread, trial_windows: list[Any]
) -> None:
    pool = browser_pool
    entry = load_item(item_dir)
    calls: list[str] = []

    def stop_after_first_batch(phase: str, done: int, asked: int) -> None:
        calls.append(phase)
        if done > 0:
            raise Stop("labeler closed the window")

    workshop = RegionWorkshop(pool, trial_windows)  # the resumed one in the same windows
    options = RegionOptions(grid=GRID, pages=2)
    with pytest.raises(RegionInterrupted, match="run again to resume"):
        loop_thread.run(workshop.compute(entry, options, stop_after_first_batch))
    partial = json.loads(entry.partial_path.read_text())
    assert partial["start"], "the verified points are kept"

    outcome = loop_thread.run(workshop.compute(entry, options))
    result = outcome.result
    assert result.resumed_drags == len(partial["start"]) + len(partial["end"])
    assert not entry.partial_path.exists()
    assert result.start_points and result.end_points
    assert outcome.stored  # the computed regions became the item's
    assert load_item(item_dir).item.evaluation_config.feasible_points

    # exhaustive verification of a window over the end region's lower right part
    box = bbox(result.end_points)
    assert box is not None
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    window = window_points(cx, cy, box[2] + GRID, box[3] + GRID, GRID)
    with_pages = TrialPages(pool.context, pool.server, entry, 2, trial_windows)

    async def exhaustive() -> set[tuple[int, int]]:
        async with with_pages as pages:
            return await verify_points(
                pages, window, "end", result.drag_start_point, result.destination
            )

    truth = loop_thread.run(exhaustive())
    fast = set(result.end_points) & set(window)
    assert truth, "the window holds feasible points"
    assert iou(fast, truth) >= 0.95


def test_executed_prediction_and_missing_block(
    item_dir: Path,
    tmp_path: Path,
    browser_pool: Any,
    loop_thread: LoopThread,
    trial_windows: list[Any],
) -> None:
    pool = browser_pool
    entry = load_item(item_dir)
    cfg = entry.item.evaluation_config
    start, end = cfg.drag_start_point, cfg.feasible_points[len(cfg.feasible_points) // 2]
    preds = tmp_path / "p.jsonl"
    rows = [
        {"id": entry.item.id, "attempts": [{"start": start, "end": end}]},
    ]
    preds.write_text("\n".join(json.dumps(r) for r in rows))
    items = {entry.item.id: entry}
    predictions = read_predictions(preds)
    groups = score_items(items, predictions)
    loop_thread.run(
        execute(pool.context, pool.server, items, groups, predictions, 1, trial_windows)
    )
    attempt = groups[""][0].attempts[0]
    assert attempt.start_ok and attempt.end_ok and attempt.executed is True
    assert report(groups)["all"]["overall"]["pass@1"] == 100.0

    cfg.target_block_id = "no-such-block"
    entry.save()
    broken = load_item(item_dir)

    async def setup() -> None:
        async with TrialPages(pool.context, pool.server, broken, 1, trial_windows):
            pass

    with pytest.raises(DragItemError, match="no-such-block"):
        loop_thread.run(setup())


def test_palette_prediction_and_left_out_steps_agree_with_full_drags(
    tmp_path: Path, browser_pool: Any, loop_thread: LoopThread, trial_windows: list[Any]
) -> None:
    """A block from the palette: its copy's connections count from its corner, and the
    insertion marker it shows on the way moves the blocks below; the predicted end region
    agrees with full 10-step drags on the rows through it, and so do the drags that leave
    out the steps the replay says cannot matter, and one-step start drags."""
    dest = tmp_path / "palette"
    shutil.copytree(PALETTE_ITEM, dest)
    (dest / "regions.partial.json").unlink(missing_ok=True)
    entry = load_item(dest)
    pool = browser_pool
    grid = entry.item.evaluation_config.grid

    async def check() -> None:
        async with TrialPages(pool.context, pool.server, entry, 2, trial_windows) as pages:
            page = pages.pages[0].page
            snap = await page.evaluate("(s) => window.studioDrag.snapTargets(s)", entry.item.spec)
            assert pages.geometry["loose"]
            start = (80, 135)
            predicted, centre = predict_end(pages.geometry, snap, start, grid)
            assert predicted
            box = bbox(predicted)
            assert box is not None
            rows = {centre[1], box[1], box[3]}
            line = [(x, y) for y in rows for x in range(box[0] - 2 * grid, box[2] + 3 * grid, grid)]
            full = await pages.run([(start, p, None) for p in line])
            truth = {p for p, v in zip(line, full, strict=True) if v.connected}
            assert truth == predicted & set(line)
            fewer = await pages.run([(start, p, needed_steps(snap, start, p)) for p in line])
            assert [v.connected for v in fewer] == [v.connected for v in full]
            assert any(len(needed_steps(snap, start, p)) < 10 for p in line)

            presses = [(x, 135) for x in range(60, 185, 10)]
            spot = (600.0, 500.0)
            one = await pages.run([(p, spot, START_STEPS) for p in presses])
            ten = await pages.run([(p, spot, None) for p in presses])
            assert [v.moved for v in one] == [v.moved for v in ten]
            assert any(v.moved for v in one) and not all(v.moved for v in one)

    loop_thread.run(check())


PROBE_JS = """([spec, point]) => ({
  opacity: getComputedStyle(document.documentElement).opacity,
  held: Boolean(window.studioTrialPaint) && window.studioTrialPaint.held(),
  geometry: window.studioDrag.geometry(spec),
  owner: window.studioDrag.ownersAt([point])[0],
})"""


def test_a_batch_of_drags_holds_painting_and_nothing_else(
    item_dir: Path, browser_pool: Any, loop_thread: LoopThread, trial_windows: list[Any]
) -> None:
    """While a batch runs, each trial page draws nothing (resources/js/trial-paint.js) and
    lays out and hit-tests as a drawing page: the item's geometry and the block a press would
    take are the same; the drags still connect; after the batch the pages draw again."""
    pool = browser_pool
    entry = load_item(item_dir)
    cfg = entry.item.evaluation_config
    start = (float(cfg.drag_start_point[0]), float(cfg.drag_start_point[1]))
    ends = [(int(p[0]), int(p[1])) for p in cfg.feasible_points[:3]]
    spec = entry.item.spec

    async def check() -> None:
        async with TrialPages(pool.context, pool.server, entry, 1, trial_windows) as pages:
            drawn = [await tp.page.evaluate(PROBE_JS, [spec, start]) for tp in pages.pages]
            seen: list[dict[str, Any]] = []
            for tp in pages.pages:
                real = tp.trial

                async def spy(*job: Any, _tp: Any = tp, _real: Any = real) -> Any:
                    assert await _tp.ready()  # the last drag undone, as the trial checks
                    seen.append(await _tp.page.evaluate(PROBE_JS, [spec, start]))
                    return await _real(*job)

                tp.trial = spy  # type: ignore[method-assign]
            verdicts = await pages.run([(start, end) for end in ends])
            after = [await tp.page.evaluate(PROBE_JS, [spec, start]) for tp in pages.pages]
        assert all(v.connected for v in verdicts)
        assert [d["opacity"] for d in drawn] == ["1"] * len(drawn)
        assert len(seen) == len(ends)
        for probe in seen:
            assert probe["held"] and probe["opacity"] == "0"
            assert probe["geometry"] == drawn[0]["geometry"]
            assert probe["owner"] == drawn[0]["owner"] and probe["owner"]["kind"] == "canvas"
        assert [(a["held"], a["opacity"]) for a in after] == [(False, "1")] * len(after)

    loop_thread.run(check())
