"""The regions use case (`studio.app.regions`), which both `studio regions compute` and the drag
items tab call: items checked before a browser opens; a computation on a borrowed pool's kept
windows (closed ones dropped) or on windows of its own; the one rule for the result (stored as
the item's regions, or compared and kept as the "computed" label); an interruption keeps the
verified points and the next computation resumes from them.

The trial pages are the fake world of tests/helpers/drag_world (no browser); the real editor
computes through the same use case in tests/e2e/test_drag_regions.py and the published ones.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from studio.app.regions import (
    COMPUTED_LABEL,
    RegionInterrupted,
    RegionOptions,
    RegionWorkshop,
    prepare,
)
from studio.models.errors import StudioError
from studio.models.items import ReviewState
from studio.services.diagnostics.drag.item import ItemFolder, load_item
from studio.services.diagnostics.drag.review import approve
from studio.services.runtime.editions import Edition
from tests.helpers.drag_world import FakeTrialPages, connects, install, make_entry, png_head

GRAB = (410.0, 315.0)  # the verified seed nearest the left-edge heuristic (see test_grab_point)


def _pool() -> Any:
    """What the use case takes of a started BrowserPool: its context and editor server."""
    return SimpleNamespace(context="the-context", server="the-server")


def _compute(workshop: RegionWorkshop, entry: ItemFolder, **options: Any) -> Any:
    return asyncio.run(workshop.compute(entry, RegionOptions(**options)))


def test_a_computed_result_becomes_the_items_regions_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch)
    entry = make_entry(tmp_path, None)
    outcome = _compute(RegionWorkshop(_pool()), entry, grid=5, pages=2)
    assert outcome.stored and outcome.compared is None
    result = outcome.result
    assert result.drag_start_point == GRAB
    assert result.end_points and all(connects(GRAB, p) for p in result.end_points)
    saved = load_item(entry.path).item
    cfg = saved.evaluation_config
    assert {tuple(p) for p in cfg.feasible_start_points} == set(result.start_points)
    assert {tuple(p) for p in cfg.feasible_points} == set(result.end_points)
    assert cfg.drag_start_point == list(GRAB) and cfg.grid == 5
    assert saved.region_stats is not None
    assert (saved.region_stats.pages, saved.region_stats.drags) == (2, result.drags)
    row = outcome.as_json()
    assert row["item"] == "g1" and row["drag_start_point"] == list(GRAB)
    assert "compare" not in row
    assert not entry.partial_path.exists()


def test_a_comparison_keeps_the_result_as_a_label_and_leaves_the_item_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch)
    stored_start, stored_end = [[410, 315], [415, 315]], [[640, 470]]
    entry = make_entry(
        tmp_path, list(GRAB), feasible_start_points=stored_start, feasible_points=stored_end
    )
    entry.item = approve(entry.item, "rev")
    entry.save()
    outcome = _compute(RegionWorkshop(_pool()), entry, compare=True)
    assert not outcome.stored
    result = outcome.result
    assert outcome.compared["start"]["stored"] == 2
    assert outcome.compared["end"]["computed"] == len(result.end_points)
    assert 0 < outcome.compared["end"]["iou"] < 1
    saved = load_item(entry.path).item
    assert saved.evaluation_config.feasible_start_points == stored_start
    assert saved.evaluation_config.feasible_points == stored_end
    assert saved.review.state is ReviewState.APPROVED  # a comparison reviews nothing
    label = [lab for lab in saved.labels if lab.labeler == COMPUTED_LABEL]
    assert len(label) == 1 and label[0].drag_start_point == list(GRAB)
    assert {tuple(p) for p in label[0].end_points} == set(result.end_points)
    assert outcome.as_json()["compare"] == outcome.compared


def test_kept_windows_are_shared_across_items_and_closed_ones_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch)
    closed, open_ = (
        SimpleNamespace(is_closed=lambda: True),
        SimpleNamespace(is_closed=lambda: False),
    )
    windows: list[Any] = [closed, open_]
    kept = RegionWorkshop(_pool(), windows)
    _compute(kept, make_entry(tmp_path / "a", None))
    _compute(kept, make_entry(tmp_path / "b", None))
    assert FakeTrialPages.given == [windows, windows]  # the caller's list, both times
    assert windows == [open_]
    _compute(RegionWorkshop(_pool()), make_entry(tmp_path / "c", None))
    assert FakeTrialPages.given[-1] is None  # windows of its own, closed after


def test_an_interrupted_computation_keeps_its_points_and_the_next_one_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch)
    entry = make_entry(tmp_path, None)
    workshop = RegionWorkshop(_pool())

    def stop_after_first_batch(phase: str, done: int, asked: int) -> None:
        if done > 0:
            raise RuntimeError("the labeler closed the window")

    with pytest.raises(RegionInterrupted, match="run again to resume") as caught:
        asyncio.run(workshop.compute(entry, RegionOptions(), stop_after_first_batch))
    assert isinstance(caught.value, StudioError)
    partial = json.loads(entry.partial_path.read_text())
    kept = len(partial["start"]) + len(partial["end"])
    assert kept > 0
    assert load_item(entry.path).item.evaluation_config.feasible_points == []  # nothing stored
    outcome = _compute(workshop, entry)
    assert outcome.result.resumed_drags == kept
    assert outcome.stored and not entry.partial_path.exists()
    fresh = _compute(workshop, make_entry(tmp_path / "fresh", None), resume=False)
    assert outcome.result.drags < fresh.result.drags  # the verified points were not redone
    assert outcome.result.end_points == fresh.result.end_points


def test_items_are_checked_before_a_browser_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch)
    good = make_entry(
        tmp_path / "good", None, feasible_start_points=[[1, 1]], feasible_points=[[2, 2]]
    )
    bare = make_entry(tmp_path / "bare", None)
    plan = prepare([good.path, bare.path])
    assert [e.item.id for e in plan.entries] == ["g1", "g1"] and plan.edition is Edition.CURRENT
    with pytest.raises(StudioError, match=r"bare/g1: comparing needs stored regions"):
        prepare([good.path, bare.path], compare=True)
    bare.screenshot_path.write_bytes(png_head(640, 360))
    with pytest.raises(StudioError, match=r"the screenshot is 640x360 .* 1280x720"):
        prepare([bare.path])
    with pytest.raises(StudioError, match="the screenshot is 640x360"):
        _compute(RegionWorkshop(_pool()), bare)  # the tab's Compute checks it too
    assert FakeTrialPages.jobs == []  # no drag was made for a refused item


def test_a_pool_without_an_editor_server_is_refused() -> None:
    with pytest.raises(StudioError, match="no editor server"):
        RegionWorkshop(SimpleNamespace(context=None, server=None))  # type: ignore[arg-type]
