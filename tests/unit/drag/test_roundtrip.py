"""Drag and QA items to the ScratchWorld layout and back lose nothing; bad input is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.services.drag.agreement import approve, blind_copy, record_label, region_agreement
from studio.services.drag.item import (
    Box,
    ConnectionType,
    DragItem,
    DragItemError,
    EvaluationConfig,
    ItemFolder,
    check_screenshot,
    load_item,
    scan_items,
    write_item,
)
from studio.services.drag.review import ReviewState
from studio.services.errors import TaskFileError
from studio.services.qa.item import QaItem, QaSet, QaType, Subject
from studio.services.scratchworld.diagnostics import export_diagnostics, import_diagnostics

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


def make_sets(root: Path) -> None:
    item = record_label(drag_item(), "ann", [[455, 410]], [[340, 390]])
    write_item(root / "drag" / "d1", item, b"sb3-bytes", PNG)
    qa = QaSet(root / "qa")
    q = QaItem(
        task_id="q1",
        instruction="Is it connected?",
        screenshot="shot.png",
        task_type=QaType.CONNECTION,
        tag="connection_no_hard",
        ground_truth="NO",
        subject=Subject(block_id="S-1"),
    )
    qa.save(q, PNG)


def test_studio_to_scratchworld_and_back(tmp_path: Path) -> None:
    make_sets(tmp_path / "src")
    export_diagnostics(tmp_path / "src", tmp_path / "sw")
    record = json.loads((tmp_path / "sw/single_step_drag/tasks/d1.json").read_text())
    assert set(record) >= {"id", "category", "instruction", "init_project", "evaluation_config"}
    assert record["evaluation_config"]["connection_type"] == "substack_1"
    report = import_diagnostics(tmp_path / "sw", tmp_path / "back")
    assert report.drag_items == ["d1"] and report.qa_items == ["q1"] and not report.problems
    before, after = load_item(tmp_path / "src/drag/d1"), load_item(tmp_path / "back/drag/d1")
    assert after.item == before.item
    assert after.project_path.read_bytes() == b"sb3-bytes"
    assert after.screenshot_path.read_bytes() == PNG
    assert QaSet(tmp_path / "back/qa").items() == QaSet(tmp_path / "src/qa").items()
    export_diagnostics(tmp_path / "back", tmp_path / "sw2")
    for path in (tmp_path / "sw").rglob("*"):
        if path.is_file():
            assert (tmp_path / "sw2" / path.relative_to(tmp_path / "sw")).read_bytes() == (
                path.read_bytes()
            )


def test_published_record_without_studio_fields(tmp_path: Path) -> None:
    base = tmp_path / "sw/single_step_drag"
    (base / "tasks").mkdir(parents=True)
    (base / "projects").mkdir()
    (base / "projects/drag_3.sb3").write_bytes(b"x")
    rec = {
        "id": "drag_3",
        "category": "T1",
        "instruction": "Drag the block.",
        "init_project": "drag_3.sb3",
        "evaluation_config": {
            "target_block_opcode": "motion_movesteps",
            "target_block_id": "a",
            "reference_block_id": "b",
            "reference_block_opcode": "event_whenflagclicked",
            "connection_type": "next",
            "feasible_points": [[300, 200]],
        },
        "difficulty": "easy",
    }
    (base / "tasks/drag_3.json").write_text(json.dumps(rec, indent=2) + "\n")
    (base / "tasks/broken.json").write_text('{"id": "broken"}')
    report = import_diagnostics(tmp_path / "sw", tmp_path / "lib")
    assert report.drag_items == ["drag_3"] and len(report.problems) == 1
    assert "broken.json" in report.problems[0]
    export_diagnostics(tmp_path / "lib", tmp_path / "out")
    again = json.loads((tmp_path / "out/single_step_drag/tasks/drag_3.json").read_text())
    again.pop("studio")
    assert again == rec


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
