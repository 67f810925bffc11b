"""An end region is for one grab point (seed paper, appendix J: end points are found for one
fixed feasible start point): the item's own `drag_start_point`, exactly, when it has one; else
the one the computation chose, stored with the regions and with a label; scoring, labels and
their agreement measure end points against that grab point.

The trial pages are a fake world (tests/helpers/drag_world, no browser). The real editor's
regions: tests/e2e.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studio.app.regions import apply_result, keep_as_label
from studio.services.diagnostics.drag import regions
from studio.services.diagnostics.drag.agreement import region_agreement
from studio.services.diagnostics.drag.item import DragItemError, ItemFolder
from studio.services.diagnostics.drag.review import approve, record_label
from studio.services.diagnostics.drag.scoring import Attempt, score_attempt
from tests.helpers.drag_world import FakeTrialPages, connects, inside_box, install
from tests.helpers.drag_world import make_entry as _entry


def _compute(entry: ItemFolder, monkeypatch: pytest.MonkeyPatch) -> regions.RegionResult:
    install(monkeypatch)
    computer = regions.RegionComputer(None, None, entry, pages=1, resume=False)  # type: ignore[arg-type]
    return asyncio.run(computer.compute())


def test_the_end_region_is_for_the_items_own_grab_point_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grab = (497.3, 331.6)  # off the grid, far from the left-edge heuristic (412, 314)
    result = _compute(_entry(tmp_path, list(grab)), monkeypatch)
    assert result.drag_start_point == grab
    # every end trial dragged from the grab point itself, not a grid point near it
    end_starts = {s for s, e in FakeTrialPages.jobs if e != (1000.0, 200.0)}
    assert end_starts == {grab}
    truth = {(x, y) for x in range(0, 1280, 5) for y in range(0, 720, 5) if connects(grab, (x, y))}
    assert set(result.end_points) == truth
    # the heuristic grab (87 px to the left) would put the region 87 px to the left
    heuristic = (410.0, 315.0)
    other = {
        (x, y) for x in range(0, 1280, 5) for y in range(0, 720, 5) if connects(heuristic, (x, y))
    }
    assert not (set(result.end_points) & other)


def test_without_a_grab_point_the_chosen_one_is_stored_with_the_regions_and_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _entry(tmp_path, None)
    result = _compute(entry, monkeypatch)
    grab = result.drag_start_point
    assert inside_box(grab) and grab == (410.0, 315.0)  # the verified seed nearest (412, 314)
    apply_result(entry, result, 5, 1)
    cfg = entry.item.evaluation_config
    assert cfg.drag_start_point == [410.0, 315.0]
    assert {tuple(p) for p in cfg.feasible_points} == set(result.end_points)
    keep_as_label(entry, result)
    assert entry.item.labels[-1].drag_start_point == [410.0, 315.0]
    # scoring measures an end point against that grab point: held 30 px further right, the
    # block lands 30 px further right
    end = result.end_points[len(result.end_points) // 2]
    held = (grab[0] + 30, grab[1])
    score = score_attempt(entry.item, Attempt(held, (end[0] + 30, end[1])))
    assert score.start_ok and score.end_ok and connects(held, (end[0] + 30, end[1]))


def test_a_grab_point_that_takes_no_block_names_the_point_and_the_set_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pan = [{"api": "custom_js", "args": {"fn": "({ws}) => 0", "payload": {"dx": 40, "dy": 0}}}]
    entry = _entry(tmp_path, [380.5, 320.0], pan_canvas_actions=pan)
    with pytest.raises(DragItemError) as caught:
        _compute(entry, monkeypatch)
    text = str(caught.value)
    assert "item g1: a drag from the item's drag start point (380.5, 320)" in text
    assert "pan_canvas_actions (1), workspace_state" in text and "takes no block" in text
    assert len(FakeTrialPages.jobs) == 1  # nothing computed elsewhere


def test_labels_keep_their_grab_point_and_agreement_compares_for_one_grab(
    tmp_path: Path,
) -> None:
    item = _entry(tmp_path, [460.0, 315.0]).item
    item = record_label(item, "ann", [[455, 310]], [[700, 480], [705, 480]])
    assert item.labels[0].drag_start_point == [460.0, 315.0]
    # bob held the block 20 px to the left: his end region lies 20 px to the left
    item = record_label(item, "bob", [[455, 310]], [[680, 480], [685, 480]], grab=[440.0, 315.0])
    agreement = region_agreement(item, "ann", "bob")
    assert agreement["end_iou"] == 1.0
    approved = approve(item, "rev", labeler="bob")
    assert approved.evaluation_config.drag_start_point == [440.0, 315.0]
    assert approved.evaluation_config.feasible_points == [[680, 480], [685, 480]]
