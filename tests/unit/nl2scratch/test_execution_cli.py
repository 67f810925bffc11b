"""`studio nl2scratch score --tasks LIBRARY` where the library holds no task of the set: the
metrics as before, no verdict, no browser, and the library named in the problems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main

ROOT = Path(__file__).resolve().parents[3]
GOLD = ["when flag clicked", "move (10) steps"]


def test_a_library_without_the_sets_tasks_gives_no_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = tmp_path / "preds.jsonl"
    row = {"key": "a", "gold_pseudocode": GOLD, "predicted_pseudocode": GOLD}
    preds.write_text(json.dumps(row) + "\n", "utf-8")
    library = ROOT / "tasks"  # bundled tasks: none imported from NL2Scratch
    assert main(["nl2scratch", "score", str(preds), "--tasks", str(library), "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["exact_match"] == 1.0 and out["scored"] == 1
    assert out["executed"] == 0 and out["execution_pass_rate"] == 0.0
    assert "execution" not in out["rows"][0]
    assert any("no imported NL2Scratch task has a predicted key" in p for p in out["problems"])


def test_without_tasks_the_totals_are_the_metrics_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = tmp_path / "preds.jsonl"
    row = {"key": "a", "gold_pseudocode": GOLD, "predicted_pseudocode": GOLD[:1]}
    preds.write_text(json.dumps(row) + "\n", "utf-8")
    assert main(["nl2scratch", "score", str(preds)]) == 0
    text = capsys.readouterr().out
    assert "exact_match" in text and "execution_pass_rate" not in text
