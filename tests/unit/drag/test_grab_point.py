"""An end region is for one grab point (seed paper, appendix J: end points are found for one
fixed feasible start point): the item's own `drag_start_point`, exactly, when it has one; else
the one the computation chose, stored with the regions and with a label; scoring, labels and
their agreement measure end points against that grab point.

The trial pages are a fake world (no browser): a block whose box takes a press, and a drop
that connects when the block's connection, moved with the mouse from where the block was
held, ends within `REACH` px of the aim. The real editor's regions: tests/e2e.
"""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any, ClassVar

import pytest

from studio.app.regions import apply_result, keep_as_label
from studio.models.drag_item import ConnectionType, DragItem, EvaluationConfig
from studio.services.labeling.drag import regions
from studio.services.labeling.drag.agreement import region_agreement
from studio.services.labeling.drag.item import DragItemError, ItemFolder
from studio.services.labeling.drag.page import Verdict
from studio.services.labeling.drag.review import approve, record_label
from studio.services.labeling.drag.scoring import Attempt, score_attempt
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import DRAG
from tests.helpers.script_page import ScriptHost

BOX = {"x": 400.0, "y": 300.0, "w": 120.0, "h": 40.0}
DRAGGED = (400.0, 300.0)  # the block's connection when the drag begins
AIM = (640.0, 470.0)  # where that connection must go
REACH = 22.0


def _inside_box(p: tuple[float, float]) -> bool:
    return BOX["x"] <= p[0] <= BOX["x"] + BOX["w"] and BOX["y"] <= p[1] <= BOX["y"] + BOX["h"]


def connects(start: tuple[float, float], end: tuple[float, float]) -> bool:
    """The world's rule: the connection moves with the mouse from where the block was held."""
    x, y = DRAGGED[0] + end[0] - start[0], DRAGGED[1] + end[1] - start[1]
    return _inside_box(start) and math.hypot(x - AIM[0], y - AIM[1]) < REACH


class _Page(ScriptHost):
    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        if function == "emptySpots":
            return [[1000, 200]]
        if function == "ownersAt":
            return [
                {"kind": "canvas", "id": "S-1", "opcode": "looks_say"}
                if _inside_box((p[0], p[1]))
                else {"kind": "none"}
                for p in args[0]
            ]
        if function == "snapTargets":
            return None  # the prediction is a disc around the aim, checked by real drags
        raise AssertionError(f"unexpected call {name}.{function}({args})")

    async def screenshot(self) -> bytes:
        return b"png"


class _TrialPage:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.page = _Page()
        self.spec = spec

    async def ask(self, function: str, *args: Any) -> Any:
        return await page_scripts.call(self.page, DRAG, function, *args)

    async def screenshot(self) -> bytes:
        return await self.page.screenshot()

    async def at_baseline(self) -> None:
        return None


class FakeTrialPages:
    """What RegionComputer uses of TrialPages, over the fake world; every drag recorded."""

    jobs: ClassVar[list[tuple[Any, Any]]] = []

    def __init__(self, context: Any, server: Any, entry: ItemFolder, count: int, *_: Any) -> None:
        self.pages = [_TrialPage(entry.item.spec)]
        self.steps = 15
        self.drags = 0
        self.geometry = {
            "source_box": BOX,
            "source_full_box": BOX,
            "aim_point": {"x": AIM[0], "y": AIM[1]},
            "dragged_point": {"x": DRAGGED[0], "y": DRAGGED[1]},
            "snap_radius": 48,
            "scale": 1.0,
            "loose": True,
            "flyout_box": {"x": 0, "w": 250},
        }

    async def __aenter__(self) -> FakeTrialPages:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def lead(self) -> _TrialPage:
        return self.pages[0]

    async def at_baseline(self) -> None:
        return None

    async def run(self, jobs: list[Any], finished: Any = None) -> list[Verdict]:
        out = []
        for job in jobs:
            start, end = job[0], job[1]
            self.drags += 1
            FakeTrialPages.jobs.append((start, end))
            out.append(Verdict(_inside_box(start), connects(start, end)))
        return out


def _entry(tmp_path: Path, grab: list[float] | None, **extra: Any) -> ItemFolder:
    cfg = EvaluationConfig(
        target_block_opcode="looks_say",
        target_block_id="S-1",
        reference_block_id="R-1",
        reference_block_opcode="looks_show",
        connection_type=ConnectionType.NEXT,
        drag_start_point=grab,
        **extra,
    )
    item = DragItem(id="g1", category="T1", instruction="Drag it.", evaluation_config=cfg)
    folder = tmp_path / "g1"
    folder.mkdir()
    (folder / "project.sb3").write_bytes(b"sb3")
    entry = ItemFolder(folder, item)
    entry.save()
    return entry


def _compute(entry: ItemFolder, monkeypatch: pytest.MonkeyPatch) -> regions.RegionResult:
    monkeypatch.setattr(regions, "TrialPages", FakeTrialPages)
    FakeTrialPages.jobs = []
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
    assert _inside_box(grab) and grab == (410.0, 315.0)  # the verified seed nearest (412, 314)
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
