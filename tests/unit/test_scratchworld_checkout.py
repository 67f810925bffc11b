"""A whole ScratchWorld checkout (tasks, single-step drag items, perception QA items) in the
published layout: import, export back byte for byte, the mapping, bad input named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.models.drag_item import Box, ConnectionType, DragItem, EvaluationConfig
from studio.models.errors import StudioError
from studio.models.items import ReviewState
from studio.models.qa_item import QaItem, QaType, Subject
from studio.services.core.store import scan_library
from studio.services.diagnostics.drag.item import load_item, write_item
from studio.services.diagnostics.drag.review import approve, record_label
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.review import confirm
from studio.services.diagnostics.qa.scoring import record_answer
from studio.services.formats.scratchworld.checkout import export_checkout, import_checkout
from studio.services.formats.scratchworld.items import common as diagnostics_common
from studio.services.formats.scratchworld.items import drag_record as diagnostics_drag_record
from tests.helpers.scratchworld_fixture import build_set
from tests.helpers.tasks import cat_project


def png(width: int = 1280, height: int = 720, tag: bytes = b"") -> bytes:
    """Enough of a PNG for the studio: signature and IHDR size (plus bytes to tell them apart)."""
    head = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    return head + width.to_bytes(4, "big") + height.to_bytes(4, "big") + b"rest" + tag


WORKSPACE = {
    "tx": 114.5,
    "ty": -38.0,
    "scale": 0.675,
    "scrollX": -114.5,
    "scrollY": 38.0,
    "transform": "translate(114.5,-38) scale(0.675)",
}
PAN = [
    {
        "api": "custom_js",
        "args": {"fn": "async ({ws, payload}) => ws.scroll(0, 0)", "payload": {"dx": 0, "dy": 0}},
    }
]


def _config(**over: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "target_block_opcode": "motion_changexby",
        "target_block_id": "Ball-7",
        "reference_block_id": "Ball-3",
        "reference_block_opcode": "looks_show",
        "connection_type": "next",
        "target_input_name": None,
        "description": "Drag the 'change x by' block below 'show'.",
        "seed_point": [612.0, 402.5],
        "drag_start_point": [612.0, 402.5],
        "first_valid_point": [560, 330],
        "feasible_points": [[555, 330], [560, 330], [560, 335]],
        "feasible_start_points": [[605, 400], [610, 400], [610, 405]],
        "workspace_state": dict(WORKSPACE),
        "pan_canvas_actions": PAN,
    }
    cfg.update(over)
    return cfg


# (file, record, json.dumps options, final newline)
DRAG: list[tuple[str, dict[str, Any], dict[str, Any], bool]] = [
    (
        "T1_001.json",
        {
            "id": "T1_001",
            "category": "T1",
            "instruction": "Drag the 'change x by' block so it attaches below the 'show' block.",
            "init_project": "T1_001.sb3",
            "evaluation_config": _config(
                locate_target_actions=[
                    {"api": "click", "args": {"x": 64, "y": 180}},
                    {"api": "scroll", "args": {"direction": "down", "amount": 300}},
                ],
                switch_sprite_actions=[{"api": "click", "args": {"x": 1130, "y": 560}}],
            ),
            "sprite": "Ball",
        },
        {"indent": 2},
        True,
    ),
    (
        "T1_002.json",
        {
            "id": "T1_002",
            "category": "T1",
            "instruction": "Ziehe den Block „ändere Punkte um“ unter „warte“ – aus der Palette.",
            "init_project": "T1_002.sb3",
            "evaluation_config": _config(
                target_block_opcode="data_changevariableby",
                target_block_id=None,
                reference_block_id="Cat-5",
                reference_block_opcode="control_wait",
                use_flyout=True,
                variable_name="Punkte",
                description="Palette → Code",
            ),
        },
        {"indent": 4, "ensure_ascii": False},
        False,
    ),
    (
        "T2_001.json",
        {
            "id": "T2_001",
            "category": "T2",
            "instruction": "Put the ‘touching’ block into the ‘if’ block’s condition.",
            "init_project": "default_project.sb3",  # a task project, the same bytes
            "evaluation_config": _config(
                target_block_opcode="sensing_touchingobject",
                target_block_id="T-1",
                reference_block_id="If-1",
                reference_block_opcode="control_if",
                connection_type="input",
                target_input_name="CONDITION",
                target_stack_tail_block_id=None,
                reference_block_structure={"opcode": "control_if", "inputs": ["CONDITION"]},
            ),
        },
        {"indent": 2, "ensure_ascii": True},
        True,
    ),
    (
        "T2_002.json",
        {
            "id": "T2_002",
            "category": "T2",
            "instruction": "Put the 'say' stack into the repeat block.",
            "init_project": "T1_001.sb3",  # shared with T1_001
            "evaluation_config": _config(
                target_block_opcode="looks_say",
                target_block_id="Say-1",
                reference_block_id="Rep-1",
                reference_block_opcode="control_repeat",
                connection_type="substack_1",
                target_stack_tail_block_id="Say-2",
            ),
        },
        {"indent": 2},
        True,
    ),
]


def _qa(n: int, task_id: Any, shot: str, kind: str, tag: str, truth: str) -> dict[str, Any]:
    question = {
        "existence": "Is there a ‘glide’ block in the code area?",
        "connection": "Is 'show' attached directly below 'go to x: y:'?",
        "field": "What number is in the input of the 'repeat' block?",
    }[kind]
    answer = json.dumps({"question": question, "answer": truth})
    return {
        "task_id": task_id,
        "instruction": question,
        "screenshot": shot,
        "task_type": kind,
        "tag": tag,
        "ground_truth": truth,
        "focus_hint": "repeat / glide",
        "prompt": f"Write a {kind} question about the code area.",
        "response_content": answer,
        "full_response": {
            "id": f"resp-{n}",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}],
        },
    }


QA: list[tuple[str, dict[str, Any], dict[str, Any], bool]] = [
    (
        "1.json",
        _qa(1, "vp_001", "ws_a.png", "existence", "existence_no", "NO"),
        {"indent": 2},
        True,
    ),
    (
        "2.json",
        _qa(2, "vp_002", "ws_a.png", "connection", "connection_yes", "YES"),
        {"indent": 2, "ensure_ascii": True},
        True,
    ),
    (
        "10.json",
        _qa(10, "vp_010", "ws_b.png", "field", "field_number", "10"),
        {"indent": 4, "ensure_ascii": False},
        False,
    ),
    ("11.json", _qa(11, 11, "ws_b.png", "existence", "existence_yes", "YES"), {"indent": 2}, True),
]
SHOTS = {"ws_a.png": png(tag=b"a"), "ws_b.png": png(tag=b"b")}
PROJECTS = {"T1_001.sb3": cat_project(1), "T1_002.sb3": cat_project(2)}


def _write(path: Path, record: Any, options: dict[str, Any], newline: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, **options) + ("\n" if newline else "")
    path.write_text(text, encoding="utf-8")


def build_checkout(root: Path, tasks: bool = True) -> Path:
    if tasks:
        build_set(root)
    static = root / "scratch-gui/static"
    static.mkdir(parents=True, exist_ok=True)
    for name, data in PROJECTS.items():
        (static / name).write_bytes(data)
    if not tasks:
        (static / "default_project.sb3").write_bytes(cat_project(0))
    for file, record, options, newline in DRAG:
        _write(root / "single_step_drag_benchmark/tasks" / file, record, options, newline)
    for file, record, options, newline in QA:
        _write(root / "visual_perception_benchmark/tasks" / file, record, options, newline)
    for name, data in SHOTS.items():
        shot = root / "visual_perception_benchmark/screenshots_final" / name
        shot.parent.mkdir(parents=True, exist_ok=True)
        shot.write_bytes(data)
    return root


def own_warnings(report: Any) -> list[str]:
    """Warnings but the one the task fixture always gives (a timeout in milliseconds)."""
    return [w for w in report.warnings if "read as milliseconds" not in w]


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    return build_checkout(tmp_path / "sw")


@pytest.fixture
def lib(checkout: Path, tmp_path: Path) -> Path:
    report = import_checkout(checkout, tmp_path / "lib")
    assert report.ok, report.skipped
    return tmp_path / "lib"


# ---- import: counts and mapping -----------------------------------------------------------


def test_import_counts_and_places(checkout: Path, tmp_path: Path) -> None:
    report = import_checkout(checkout, tmp_path / "lib")
    assert report.ok and own_warnings(report) == []
    counts = report.to_json()["counts"]
    assert counts == {"tasks": 6, "drag_items": 4, "qa_items": 4}
    assert report.drag_items == ["T1_001", "T1_002", "T2_001", "T2_002"]
    assert report.qa_items == ["vp_001", "vp_002", "vp_010", "11"]
    lib = tmp_path / "lib"
    assert sorted(p.name for p in (lib / "diagnostics/drag").iterdir()) == report.drag_items
    assert (lib / "diagnostics/drag/T1_001/T1_001.sb3").read_bytes() == PROJECTS["T1_001.sb3"]
    assert (lib / "diagnostics/drag/T2_002/T1_001.sb3").read_bytes() == PROJECTS["T1_001.sb3"]
    qa = QaSet(lib / "diagnostics/qa")
    assert sorted(p.name for p in (lib / "diagnostics/qa/screenshots").iterdir()) == sorted(SHOTS)
    assert qa.screenshot_path("ws_b.png").read_bytes() == SHOTS["ws_b.png"]
    scan = scan_library(lib)  # the item folders are not taken for tasks
    assert len(scan.tasks) == 6 and scan.errors == []


def test_drag_mapping_keeps_every_published_key(lib: Path) -> None:
    item = load_item(lib / "diagnostics/drag/T1_001").item
    raw = DRAG[0][1]
    cfg = item.evaluation_config
    assert item.init_project == "T1_001.sb3" and item.sw_extra == {"sprite": "Ball"}
    assert cfg.source == "canvas" and cfg.target_block_id == "Ball-7"
    assert cfg.connection_type is ConnectionType.NEXT
    extra = cfg.model_extra or {}
    for key in ("locate_target_actions", "switch_sprite_actions", "pan_canvas_actions"):
        assert extra[key] == raw["evaluation_config"][key]
    assert extra["description"] == raw["evaluation_config"]["description"]
    assert extra["first_valid_point"] == [560, 330]
    ws = cfg.workspace_state
    assert ws.scale == 0.675
    assert {k: (ws.model_extra or {})[k] for k in WORKSPACE if k != "scale"} == {
        k: v for k, v in WORKSPACE.items() if k != "scale"
    }
    assert cfg.feasible_points == [[555, 330], [560, 330], [560, 335]]
    assert cfg.drag_start_point == [612.0, 402.5]
    assert item.sw_source is not None and item.sw_source.file == "T1_001.json"

    palette = load_item(lib / "diagnostics/drag/T1_002").item
    pcfg = palette.evaluation_config
    assert pcfg.source == "flyout" and pcfg.target_block_id is None
    assert (pcfg.model_extra or {})["use_flyout"] is True
    assert (pcfg.model_extra or {})["variable_name"] == "Punkte"
    assert palette.sw_extra == {}
    slot = load_item(lib / "diagnostics/drag/T2_001").item.evaluation_config
    assert slot.target_input_name == "CONDITION"
    assert (slot.model_extra or {})["reference_block_structure"]["opcode"] == "control_if"
    tail = load_item(lib / "diagnostics/drag/T2_002").item.evaluation_config
    assert (tail.model_extra or {})["target_stack_tail_block_id"] == "Say-2"


def test_qa_mapping(lib: Path) -> None:
    qa = QaSet(lib / "diagnostics/qa")
    item = qa.load("vp_010")
    raw = QA[2][1]
    assert item.task_type is QaType.FIELD and item.ground_truth == "10"
    assert item.focus_hint == raw["focus_hint"] and item.screenshot == "ws_b.png"
    assert item.sw_extra == {k: raw[k] for k in ("prompt", "response_content", "full_response")}
    assert item.sw_source is not None and item.sw_source.file == "10.json"
    assert qa.load("11").sw_source is not None  # a number task_id becomes the text "11"


# ---- round trips --------------------------------------------------------------------------


def test_import_export_is_byte_identical(checkout: Path, lib: Path, tmp_path: Path) -> None:
    report = export_checkout(lib, tmp_path / "out")
    assert report.ok and report.warnings == []
    assert (report.exported, len(report.drag_items), len(report.qa_items)) == (
        sorted(report.exported),
        4,
        4,
    )
    assert tree(tmp_path / "out") == tree(checkout)
    assert set(report.files) == set(tree(checkout))


def test_studio_only_data_does_not_leak(checkout: Path, lib: Path, tmp_path: Path) -> None:
    entry = load_item(lib / "diagnostics/drag/T1_001")
    item = record_label(entry.item, "ann", [[605, 400]], [[555, 330]])
    entry.item = item.model_copy(
        update={"review": item.review.move(ReviewState.REJECTED, "rev", "too small")}
    )
    entry.item.evaluation_config.grid = 10  # studio-only config
    entry.item.evaluation_config.workspace_state.viewport = {"width": 1280, "height": 720}
    entry.save()
    qa = QaSet(lib / "diagnostics/qa")
    q = record_answer(qa.load("vp_001"), "ann", "NO")
    qa.save(q.model_copy(update={"subject": Subject(opcode="motion_glidesecstoxy")}))
    export_checkout(lib, tmp_path / "out")
    assert tree(tmp_path / "out") == tree(checkout)


def test_export_then_import_gives_the_same_items(lib: Path, tmp_path: Path) -> None:
    export_checkout(lib, tmp_path / "out")
    again = import_checkout(tmp_path / "out", tmp_path / "lib2")
    assert again.ok and own_warnings(again) == []
    assert tree(tmp_path / "lib2") == tree(lib)


def test_changed_published_fields_are_written(lib: Path, tmp_path: Path) -> None:
    entry = load_item(lib / "diagnostics/drag/T1_001")
    entry.item.instruction = "Attach 'change x by' below 'show'."
    entry.item.evaluation_config.feasible_points = [[550, 330], [555, 330]]
    entry.item.evaluation_config.drag_start_point = [610.0, 400.0]
    entry.save()
    qa = QaSet(lib / "diagnostics/qa")
    qa.save(confirm(qa.load("vp_002"), "ann", "no"))
    report = export_checkout(lib, tmp_path / "out")
    out = tmp_path / "out/single_step_drag_benchmark/tasks/T1_001.json"
    record = json.loads(out.read_text())
    original = DRAG[0][1]
    assert list(record) == list(original)
    assert record["instruction"] == "Attach 'change x by' below 'show'."
    # regions of an item that is not approved stay the published ones
    assert record["evaluation_config"] == original["evaluation_config"]
    assert any(
        "T1_001: drag_start_point, feasible_points changed but the item is not approved" in w
        for w in report.warnings
    )
    q = json.loads((tmp_path / "out/visual_perception_benchmark/tasks/2.json").read_text())
    assert q == {**QA[1][1], "ground_truth": "NO"}
    assert (tmp_path / "out/visual_perception_benchmark/tasks/2.json").read_text().isascii()

    entry = load_item(lib / "diagnostics/drag/T1_001")
    entry.item = record_label(entry.item, "ann", [[605, 400]], [[550, 330], [555, 330]])
    entry.item = approve(entry.item, "rev", labeler="ann")
    entry.save()
    export_checkout(lib, tmp_path / "out2")
    out = tmp_path / "out2/single_step_drag_benchmark/tasks/T1_001.json"
    record = json.loads(out.read_text())
    cfg = record["evaluation_config"]
    assert cfg["feasible_points"] == [[550, 330], [555, 330]]
    assert cfg["feasible_start_points"] == [[605, 400]]
    assert cfg["drag_start_point"] == [610.0, 400.0]
    assert list(cfg) == list(original["evaluation_config"])
    assert "review" not in record and "labels" not in record and "studio" not in record
    text = out.read_text()
    assert text.startswith('{\n  "id": "T1_001"') and text.endswith("}\n")


def test_odd_spelling_and_point_objects_round_trip(checkout: Path, tmp_path: Path) -> None:
    record = {
        **DRAG[3][1],
        "evaluation_config": _config(
            seed_point={"x": 612, "y": 402},
            drag_start_point={"x": 612, "y": 402},
            feasible_points=[{"x": 555, "y": 330}, {"x": 560, "y": 330}],
            scale_hint=1e-05,
        ),
    }
    path = checkout / "single_step_drag_benchmark/tasks/T2_002.json"
    text = json.dumps(record, indent=2, separators=(", ", " : ")) + "\n"  # no style gives this
    path.write_text(text, encoding="utf-8")
    report = import_checkout(checkout, tmp_path / "lib")
    assert report.ok
    entry = load_item(tmp_path / "lib/diagnostics/drag/T2_002")
    cfg = entry.item.evaluation_config
    assert cfg.seed_point == [612.0, 402.0] and cfg.feasible_points == [[555, 330], [560, 330]]
    assert entry.item.sw_source is not None and entry.item.sw_source.text == text
    export_checkout(tmp_path / "lib", tmp_path / "out")
    assert tree(tmp_path / "out") == tree(checkout)
    cfg.feasible_points = [[550, 330]]
    cfg.drag_start_point = [610.0, 400.0]
    entry.item.review = entry.item.review.move(ReviewState.LABELED, "ann")
    entry.item.review = entry.item.review.move(ReviewState.APPROVED, "rev")
    entry.save()
    export_checkout(tmp_path / "lib", tmp_path / "out2")
    out = json.loads((tmp_path / "out2/single_step_drag_benchmark/tasks/T2_002.json").read_text())
    assert out["evaluation_config"]["feasible_points"] == [{"x": 550, "y": 330}]
    assert out["evaluation_config"]["drag_start_point"] == {"x": 610, "y": 400}
    assert out["evaluation_config"]["seed_point"] == {"x": 612, "y": 402}
    assert out["evaluation_config"]["scale_hint"] == 1e-05


def studio_drag_item(item_id: str = "studio_1") -> DragItem:
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
        custom_key={"kept": True},
    )
    return DragItem(id=item_id, category="T2", instruction="Drag it.", evaluation_config=cfg)


def test_items_made_in_the_studio_round_trip(tmp_path: Path) -> None:
    src = tmp_path / "lib"
    item = record_label(studio_drag_item(), "ann", [[455, 410]], [[340, 390]])
    write_item(src / "diagnostics/drag/studio_1", item, cat_project(5), png())
    palette = studio_drag_item("studio_2")
    palette.evaluation_config.target_block_id = None
    palette.evaluation_config.source = "flyout"
    write_item(src / "diagnostics/drag/studio_2", palette, cat_project(6), None)
    q = QaItem(
        task_id="q1",
        instruction="Is it connected?",
        screenshot="shot.png",
        task_type=QaType.CONNECTION,
        tag="connection_no_hard",
        ground_truth="NO",
        subject=Subject(block_id="S-1"),
    )
    QaSet(src / "diagnostics/qa").save(q, png())
    report = export_checkout(src, tmp_path / "sw")
    assert report.ok and report.exported == [] and len(report.drag_items) == 2
    sw = tmp_path / "sw"
    record = json.loads((sw / "single_step_drag_benchmark/tasks/studio_1.json").read_text())
    assert tuple(record)[:5] == diagnostics_drag_record.DRAG_FIELDS
    assert record["init_project"] == "studio_1.sb3"
    assert record["studio"]["local_project"] == "project.sb3"
    assert record["evaluation_config"]["custom_key"] == {"kept": True}
    palette_record = json.loads((sw / "single_step_drag_benchmark/tasks/studio_2.json").read_text())
    assert palette_record["evaluation_config"]["target_block_id"] is None
    assert (sw / "scratch-gui/static/studio_1.sb3").read_bytes() == cat_project(5)
    assert (sw / "single_step_drag_benchmark/screenshots/studio_1.png").read_bytes() == png()
    qa_record = json.loads((sw / "visual_perception_benchmark/tasks/q1.json").read_text())
    assert qa_record["studio"]["subject"] == {"block_id": "S-1"}
    back = import_checkout(sw, tmp_path / "back")
    assert back.ok and back.warnings == []
    assert tree(tmp_path / "back/diagnostics") == tree(src / "diagnostics")
    export_checkout(tmp_path / "back", tmp_path / "sw2")
    assert tree(tmp_path / "sw2") == tree(sw)


def test_diagnostics_only_checkout(tmp_path: Path) -> None:
    root = build_checkout(tmp_path / "sw", tasks=False)
    report = import_checkout(root, tmp_path / "lib")
    assert report.ok and report.imported == [] and len(report.drag_items) == 4
    out = export_checkout(tmp_path / "lib", tmp_path / "out")
    assert out.ok and out.exported == []
    assert tree(tmp_path / "out") == tree(root)
    with pytest.raises(StudioError, match="tasks folder"):
        import_checkout(tmp_path / "nothing", tmp_path / "lib2")


# ---- bad input ----------------------------------------------------------------------------


def _problems(report: Any) -> dict[str, Any]:
    return {p.file.name: p for p in report.skipped}


def _drag_variant(folder: Path, item_id: str, **over: Any) -> None:
    _write(folder / f"{item_id}.json", {**DRAG[0][1], "id": item_id, **over}, {}, True)


def _qa_variant(folder: Path, n: int, **over: Any) -> None:
    record = {**QA[0][1], "task_id": f"vp_{n:03d}", **over}
    _write(folder / f"{n}.json", {k: v for k, v in record.items() if v is not None}, {}, True)


def test_bad_records_are_named_and_the_rest_imported(checkout: Path, tmp_path: Path) -> None:
    drag = checkout / "single_step_drag_benchmark/tasks"
    (drag / "T9_bad_json.json").write_text('{"id": "T9_bad_json", ', encoding="utf-8")
    no_config = {k: v for k, v in DRAG[0][1].items() if k != "evaluation_config"}
    _write(drag / "T9_no_config.json", {**no_config, "id": "T9_no_config"}, {}, True)
    _drag_variant(drag, "T9_no_project", init_project="gone.sb3")
    bad_type = {**DRAG[0][1]["evaluation_config"], "connection_type": "sideways"}
    _drag_variant(drag, "T9_type", evaluation_config=bad_type)
    _write(drag / "T9_dup.json", DRAG[0][1], {}, True)
    (checkout / "scratch-gui/static/broken.sb3").write_bytes(b"not a zip")
    _drag_variant(drag, "T9_broken", init_project="broken.sb3")
    qa = checkout / "visual_perception_benchmark/tasks"
    (qa / "50.json").write_text("[1, 2", encoding="utf-8")
    _qa_variant(qa, 51, ground_truth=None)
    _qa_variant(qa, 52, screenshot="gone.png")
    _write(qa / "53.json", QA[0][1], {}, True)  # task_id of 1.json again
    _qa_variant(qa, 54, task_type="colour")
    report = import_checkout(checkout, tmp_path / "lib")
    assert report.imported and report.drag_items == ["T1_001", "T1_002", "T2_001", "T2_002"]
    assert report.qa_items == ["vp_001", "vp_002", "vp_010", "11"]
    found = _problems(report)
    assert "invalid JSON at line 1" in found["T9_bad_json.json"].problem
    assert found["T9_no_config.json"].field == "evaluation_config"
    assert "item T9_no_config" in found["T9_no_config.json"].problem
    assert found["T9_no_project.json"].field == "init_project"
    assert "item T9_no_project: names gone.sb3" in found["T9_no_project.json"].problem
    assert found["T9_type.json"].field == "evaluation_config.connection_type"
    assert "also the id of T1_001.json" in found["T9_dup.json"].problem
    assert "item T9_broken" in found["broken.sb3"].problem
    assert "not a zip" in found["broken.sb3"].problem
    assert "T9_broken.json" in found["broken.sb3"].problem
    assert "invalid JSON" in found["50.json"].problem
    assert found["51.json"].field == "ground_truth" and "item vp_051" in found["51.json"].problem
    assert found["52.json"].field == "screenshot" and "gone.png" in found["52.json"].problem
    assert "also the task_id of 1.json" in found["53.json"].problem
    assert found["54.json"].field == "task_type"
    assert len(report.skipped) == 11
    assert not (tmp_path / "lib/diagnostics/drag/T9_type").exists()
    data = report.to_json()
    assert data["counts"] == {"tasks": 6, "drag_items": 4, "qa_items": 4}
    assert len(data["problems"]) == 11


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("init_project", "../../outside.sb3"),
        ("init_project", "/etc/passwd"),
        ("init_project", "..\\evil.sb3"),
        ("init_project", "item.json"),
        ("id", "../escape"),
        ("id", ".."),
    ],
)
def test_drag_names_from_records_are_plain(
    checkout: Path, tmp_path: Path, key: str, value: str
) -> None:
    (tmp_path / "outside.sb3").write_bytes(cat_project(1))
    path = checkout / "single_step_drag_benchmark/tasks/T9_evil.json"
    _write(path, {**DRAG[0][1], "id": "T9_evil", key: value}, {}, True)
    report = import_checkout(checkout, tmp_path / "lib")
    problem = _problems(report)["T9_evil.json"]
    assert problem.field == key
    assert any(why in problem.problem for why in ("is not a plain file name", "cannot name"))
    assert "item T9_evil" in problem.problem or "item .." in problem.problem
    assert len(report.drag_items) == 4
    assert not (tmp_path / "escape").exists() and not (tmp_path / "lib/diagnostics/escape").exists()


@pytest.mark.parametrize(
    ("key", "value"),
    [("screenshot", "../../ws_a.png"), ("screenshot", "/tmp/x.png"), ("task_id", "../x")],
)
def test_qa_names_from_records_are_plain(
    checkout: Path, tmp_path: Path, key: str, value: str
) -> None:
    path = checkout / "visual_perception_benchmark/tasks/60.json"
    _write(path, {**QA[0][1], "task_id": "vp_060", key: value}, {}, True)
    report = import_checkout(checkout, tmp_path / "lib")
    problem = _problems(report)["60.json"]
    assert problem.field == key
    assert len(report.qa_items) == 4
    assert not (tmp_path / "lib/diagnostics/x.json").exists()


def test_oversized_files_are_refused(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(diagnostics_common, "MAX_SCREENSHOT_BYTES", 10)
    monkeypatch.setattr(diagnostics_common, "MAX_RECORD_BYTES", 1000)  # drag records are longer
    report = import_checkout(checkout, tmp_path / "lib")
    assert report.drag_items == [] and report.qa_items == []
    found = _problems(report)
    assert "more than the 1000 allowed for a record" in found["T1_001.json"].problem
    shots = [str(p) for p in report.skipped if p.file.name == "ws_a.png"]
    assert len(shots) == 2 and "item vp_001: 29 bytes, more than the 10 allowed" in shots[0]


def test_existing_items_are_kept_unless_overwrite(checkout: Path, lib: Path) -> None:
    entry = load_item(lib / "diagnostics/drag/T1_001")
    entry.item.instruction = "mine"
    entry.save()
    report = import_checkout(checkout, lib)
    assert not report.ok and "already exists" in str(report.skipped[-1])
    assert load_item(lib / "diagnostics/drag/T1_001").item.instruction == "mine"
    assert import_checkout(checkout, lib, overwrite=True).ok
    assert load_item(lib / "diagnostics/drag/T1_001").item.instruction == DRAG[0][1]["instruction"]
    assert [p.name for p in (lib / "diagnostics/drag").iterdir() if p.name.startswith(".")] == []


def test_export_names_a_project_clash(lib: Path, tmp_path: Path) -> None:
    # T2_001 uses the tasks' default_project.sb3; its copy changes: the name is taken
    (lib / "diagnostics/drag/T2_001/default_project.sb3").write_bytes(cat_project(9))
    report = export_checkout(lib, tmp_path / "out")
    problem = report.skipped[0]
    assert "item T2_001" in problem.problem and "default_project.sb3" in problem.problem
    assert problem.field == "init_project" and "T2_001" not in report.drag_items
    assert len(report.drag_items) == 3


# ---- command line -------------------------------------------------------------------------


def test_cli_whole_checkout(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib, out = tmp_path / "lib", tmp_path / "out"
    assert main(["import", "scratchworld", str(checkout), str(lib), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["counts"] == {"tasks": 6, "drag_items": 4, "qa_items": 4}
    assert data["problems"] == []
    assert main(["export", "scratchworld", str(lib), str(out)]) == 0
    text = capsys.readouterr().out
    assert "exported 6 tasks" in text and "exported 4 drag items and 4 QA items" in text
    assert tree(out) == tree(checkout)
    (checkout / "visual_perception_benchmark/tasks/9.json").write_text("{", encoding="utf-8")
    assert main(["import", "scratchworld", str(checkout), str(tmp_path / "lib2")]) == 1
    assert "9.json: invalid JSON" in capsys.readouterr().err
    assert main(["import", "scratchworld", str(tmp_path / "none"), str(lib)]) == 2


def test_cli_diagnostics_import_export(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = tmp_path / "lib"
    assert main(["diagnostics", "import", str(checkout), str(lib), "--json"]) == 0
    captured = capsys.readouterr()
    assert "`studio import scratchworld` does the whole checkout" in captured.err
    assert json.loads(captured.out)["counts"] == {"tasks": 0, "drag_items": 4, "qa_items": 4}
    assert not any(lib.glob("*/task.json"))  # no tasks: only the diagnostics part
    assert main(["diagnostics", "export", str(lib), str(tmp_path / "out")]) == 0
    assert "exported 4 drag items and 4 QA items" in capsys.readouterr().out
    projects = {"T1_001.sb3", "T1_002.sb3", "default_project.sb3"}
    want = {
        k: v
        for k, v in tree(checkout).items()
        if k.startswith(("single_step", "visual"))
        or k.removeprefix("scratch-gui/static/") in projects
    }
    assert tree(tmp_path / "out") == want
    assert main(["diagnostics", "export", str(lib / "diagnostics"), str(tmp_path / "o2")]) == 0
    assert tree(tmp_path / "o2") == want
    assert main(["diagnostics", "import", str(tmp_path / "none"), str(lib)]) == 2
    assert "no single_step_drag_benchmark/tasks/" in capsys.readouterr().err


def test_regions_compare_names_an_item_without_stored_regions_before_opening_a_browser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers.published_diag import FIXTURE

    import_checkout(FIXTURE, tmp_path / "lib")
    drag = tmp_path / "lib" / "diagnostics" / "drag"
    data = json.loads((drag / "T1_003" / "item.json").read_text())
    data["evaluation_config"]["feasible_points"] = []
    (drag / "T1_003" / "item.json").write_text(json.dumps(data))
    code = main(["regions", "compute", str(drag / "T1_001"), str(drag / "T1_003"), "--compare"])
    assert code == 2
    err = capsys.readouterr().err
    assert "T1_003" in err and "needs stored regions" in err


def test_qa_projects_go_out_and_come_back(lib: Path, tmp_path: Path) -> None:
    """The project a QA screen was taken of (what `studio qa recapture` loads) is exported
    beside the screens and imported back."""
    from studio.services.diagnostics.qa.screens import keep_project, project_path
    from studio.services.formats.scratchworld.items.qa import QA_PROJECTS

    qa = QaSet(lib / "diagnostics/qa")
    shot = qa.load("vp_010").screenshot
    keep_project(qa, shot, b"PK-the-project")
    report = export_checkout(lib, tmp_path / "out")
    assert report.ok, report.skipped
    exported = tmp_path / "out" / QA_PROJECTS / project_path(qa, shot).name
    assert exported.read_bytes() == b"PK-the-project"
    back = import_checkout(tmp_path / "out", tmp_path / "back")
    assert back.ok, back.skipped
    again = QaSet(tmp_path / "back" / "diagnostics/qa")
    assert project_path(again, shot).read_bytes() == b"PK-the-project"
