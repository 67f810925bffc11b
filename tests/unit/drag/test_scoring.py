"""Scoring drag predictions: Pass@k, component accuracy, spatial error, by interaction type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.drag_item import ConnectionType, DragItem, EvaluationConfig, category_of
from studio.services.core.errors import TaskFileError
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.scoring import read_predictions, report, score_items


def make_item(item_id: str, connection: ConnectionType) -> ItemFolder:
    cfg = EvaluationConfig(
        target_block_opcode="looks_say",
        target_block_id="a",
        reference_block_id="b",
        reference_block_opcode="control_repeat",
        connection_type=connection,
        target_input_name="TIMES" if connection is ConnectionType.INPUT else None,
        drag_start_point=[100.0, 100.0],
        feasible_start_points=[[x, y] for x in range(90, 125, 5) for y in range(95, 110, 5)],
        feasible_points=[[x, y] for x in range(300, 320, 5) for y in range(200, 215, 5)],
    )
    item = DragItem(
        id=item_id, category=category_of(connection), instruction="x", evaluation_config=cfg
    )
    return ItemFolder(Path("."), item)


@pytest.fixture
def items() -> dict[str, ItemFolder]:
    return {
        "a": make_item("a", ConnectionType.NEXT),
        "b": make_item("b", ConnectionType.INPUT),
    }


def write_preds(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_pass_at_k_components_and_errors(tmp_path: Path, items: dict[str, ItemFolder]) -> None:
    rows = [
        {  # a: first attempt ends 20 px off, second succeeds -> pass@2
            "id": "a",
            "attempts": [
                {"start": [100, 100], "end": [335, 205]},
                {"start": [110, 100], "end": [320, 205]},  # end shifted with the start
            ],
        },
        {"id": "b", "start_x": 50, "start_y": 100, "end_x": 305, "end_y": 205},  # bad start
    ]
    groups = score_items(items, read_predictions(write_preds(tmp_path, rows)))
    out = report(groups)["all"]
    assert out["overall"]["pass@1"] == 0.0
    assert out["overall"]["pass@2"] == 50.0
    assert out["T1"]["pass@2"] == 100.0 and out["T2"]["pass@3"] == 0.0
    assert out["overall"]["start_acc"] == pytest.approx(66.67)
    assert out["overall"]["end_acc"] == 50.0  # of the attempts whose start was right
    assert out["overall"]["start_error_px"] == 40.0
    assert out["overall"]["end_error_px"] == 20.0  # b: its end is right, a bad start aside


def test_groups_and_bad_lines(tmp_path: Path, items: dict[str, ItemFolder]) -> None:
    rows = [
        {"id": "a", "model": "m1", "start": [100, 100], "end": [300, 200]},
        {"id": "a", "model": "m2", "start": [100, 100], "end": [0, 0]},
    ]
    out = report(score_items(items, read_predictions(write_preds(tmp_path, rows))))
    assert out["m1"]["overall"]["pass@1"] == 100.0 and out["m2"]["overall"]["pass@1"] == 0.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "start": [1]}\n')
    with pytest.raises(TaskFileError, match="line 1"):
        read_predictions(bad)
    with pytest.raises(TaskFileError, match="no drag item"):
        unknown = [{"id": "zz", "start": [0, 0], "end": [0, 0]}]
        score_items(items, read_predictions(write_preds(tmp_path, unknown)))
