"""Drag item files: bad input is named, screens are checked, two labelers agree or not.

(The published ScratchWorld layout of drag and QA items: tests/unit/test_scratchworld_checkout.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.drag_item import Box, ConnectionType, DragItem, EvaluationConfig
from studio.models.items import ReviewState
from studio.services.core.errors import TaskFileError
from studio.services.diagnostics.drag.agreement import blind_copy, region_agreement
from studio.services.diagnostics.drag.item import (
    DragItemError,
    ItemFolder,
    check_screenshot,
    load_item,
    scan_items,
    write_item,
)
from studio.services.diagnostics.drag.review import approve, record_label

PNG = (
    b"\x89PNG\r\n\x1a\n"
    + b"\x00\x00\x00\rIHDR"
    + (1280).to_bytes(4, "big")
    + (720).to_bytes(4, "big")
    + b"rest"
)


def drag_item(item_id: str = "d1") -> DragItem:
    cfg = EvaluationConfig(
        target_block_opcode="looks_say",
        target_block_id="S-1",
        reference_block_id="R-1",
        reference_block_opcode="control_repeat",
        connection_type=ConnectionType.SUBSTACK_1,
        drag_start_point=[460.0, 415.0],
        feasible_start_points=[[455, 410], [460, 410]],
        feasible_points=[[340, 390]],
        target_box=Box(x=450, y=400, w=70, h=30),
        custom_key={"kept": True},  # a field the studio does not know
    )
    return DragItem(id=item_id, category="T2", instruction="Drag it.", evaluation_config=cfg)


def test_bad_item_files_and_screens(tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match=r"item\.json is missing"):
        load_item(tmp_path)
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "item.json").write_text('{"id": "d", "category": "T3"}')
    with pytest.raises(TaskFileError, match="category"):
        load_item(folder)
    entry = write_item(
        tmp_path / "ok",
        drag_item(),
        b"x",
        PNG[:16] + (640).to_bytes(4, "big") + (480).to_bytes(4, "big"),
    )
    with pytest.raises(DragItemError, match="640x480 but the stored viewport is 1280x720"):
        check_screenshot(entry)
    assert [e.item.id for e in scan_items(tmp_path / "ok")] == ["d1"]


def test_two_labelers_blind_agreement_and_approval() -> None:
    item = drag_item()
    item = record_label(item, "ann", [[455, 410], [460, 410]], [[340, 390], [345, 390]])
    assert blind_copy(item, "bob").labels == []
    assert blind_copy(item, "bob", hide_computed=True).evaluation_config.feasible_points == []
    item = record_label(item, "bob", [[455, 410], [460, 410]], [[340, 390]])
    out = region_agreement(item, "ann", "bob")
    assert out["start_iou"] == 1.0 and out["end_iou"] == 0.5
    done = approve(item, "rev", labeler="bob")
    assert done.review.state is ReviewState.APPROVED and done.review.reviewer == "rev"
    assert done.evaluation_config.feasible_points == [[340, 390]]
    assert isinstance(ItemFolder(Path("."), done).item, DragItem)
