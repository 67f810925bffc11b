"""A drag run's figures without a browser: Pass@k from verdicts, point-based accuracy, files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.drag_item import ConnectionType, DragItem, EvaluationConfig, category_of
from studio.services.diagnostics.agents import DragDecision
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.page import Verdict
from studio.services.diagnostics.drag.run import (
    AttemptRecord,
    DragRun,
    ItemRun,
    failed_attempt,
    new_run_dir,
    run_dir_name,
)
from studio.services.diagnostics.drag.scoring import (
    Attempt,
    read_predictions,
    report,
    score_attempt,
    score_items,
)


def entry(item_id: str, connection: ConnectionType) -> ItemFolder:
    cfg = EvaluationConfig(
        target_block_opcode="looks_say",
        target_block_id="t",
        reference_block_id="r",
        reference_block_opcode="control_repeat",
        connection_type=connection,
        drag_start_point=[100.0, 100.0],
        feasible_start_points=[[x, y] for x in range(90, 125, 5) for y in range(95, 110, 5)],
        feasible_points=[[x, y] for x in range(300, 320, 5) for y in range(200, 215, 5)],
    )
    item = DragItem(
        id=item_id, category=category_of(connection), instruction="x", evaluation_config=cfg
    )
    return ItemFolder(Path("."), item)


def dragged(e: ItemFolder, start: tuple, end: tuple, connected: bool) -> AttemptRecord:
    score = score_attempt(e.item, Attempt(start, end))
    score.executed = connected
    return AttemptRecord(DragDecision(start, end, "why"), Verdict(True, connected), score)


@pytest.fixture
def run(tmp_path: Path) -> DragRun:
    a = entry("a", ConnectionType.NEXT)
    b = entry("b", ConnectionType.INPUT)
    c = entry("c", ConnectionType.SUBSTACK_1)
    run = DragRun(tmp_path / "run", "model-x", k=2, items_dir="items")
    run.items = [
        ItemRun(  # a: misses, then connects -> pass@2 only
            a,
            [
                dragged(a, (100, 100), (500, 500), False),
                dragged(a, (110, 100), (320, 205), True),  # the end moves with the grab point
            ],
        ),
        ItemRun(  # b: an unreadable reply, then right points that did not connect in the VM
            b,
            [
                failed_attempt(
                    b, DragDecision.refused("unusable reply: no JSON"), "unusable reply"
                ),
                dragged(b, (100, 100), (305, 205), False),
            ],
        ),
        ItemRun(  # c: the page could not be set up
            c,
            [
                failed_attempt(c, DragDecision.refused("boom"), "boom", crashed=True)
                for _ in range(2)
            ],
            error="boom",
        ),
    ]
    return run


def test_pass_at_k_comes_from_the_verdicts(run: DragRun) -> None:
    out = run.summary()
    assert (out["kind"], out["agent"], out["k"], out["items"], out["attempts"]) == (
        "drag",
        "model-x",
        2,
        3,
        6,
    )
    assert out["pass@1"] == 0.0 and out["pass@2"] == pytest.approx(33.33)
    assert "pass@3" not in out
    # point-based: starts right in 3 of 6 attempts; of those, ends right in 2
    assert out["start_acc"] == 50.0 and out["end_acc"] == pytest.approx(66.67)
    assert out["executed_success"] == pytest.approx(16.67)
    assert out["T1"]["items"] == 1 and out["T1"]["pass@2"] == 100.0
    assert out["T2"]["items"] == 2 and out["T2"]["pass@2"] == 0.0
    assert out["no_drag"] == 1
    assert out["errors"] == [{"id": "c", "error": "boom"}]
    assert [r.success for r in run.items] == [True, False, False]
    assert run.items[2].line() == "ERROR c: boom"
    assert run.items[0].line().startswith("PASS  a: attempts -+")


def test_written_predictions_rescore_the_same(run: DragRun) -> None:
    run.run_dir.mkdir(parents=True)
    run.write()
    summary = json.loads((run.run_dir / "summary.json").read_text())
    assert summary["pass@2"] == pytest.approx(33.33)
    lines = [json.loads(x) for x in (run.run_dir / "predictions.jsonl").read_text().splitlines()]
    assert lines[1]["attempts"][0] == {"error": "unusable reply"}
    assert lines[0]["model"] == "model-x" and lines[0]["attempts"][1]["connected"] is True
    items = {r.label: r.entry for r in run.items}
    preds = read_predictions(run.run_dir / "predictions.jsonl")
    again = report(score_items(items, preds), 2)["model-x"]["overall"]
    for key in ("start_acc", "end_acc", "start_error_px", "end_error_px"):
        assert again[key] == summary[key]
    # point-based success differs from the verdicts where the VM disagreed (b's second try)
    assert again["pass@2"] == pytest.approx(66.67)


def test_run_folder_names(tmp_path: Path) -> None:
    name = run_dir_name("my model/v1", "drag")
    assert name.startswith("my_model_v1-drag-")
    first = new_run_dir(tmp_path, "oracle", "qa")
    first.mkdir()
    second = new_run_dir(tmp_path, "oracle", "qa")
    assert second != first and not second.exists()  # `-2` within the same second
