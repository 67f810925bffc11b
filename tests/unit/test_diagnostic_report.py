"""Diagnostics runs in `studio report`: rows from summary.json, text and HTML tables, JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.models.errors import StudioError
from studio.models.report import RunReport
from studio.services.diagnostics.report import load_diagnostics, tables
from studio.services.runs.report_html import render_html
from studio.services.runs.reports import format_table, report_for
from tests.unit.test_reports import write_run


def summary(root: Path, name: str, data: dict[str, Any]) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps(data))
    return folder


DRAG3 = {
    "kind": "drag",
    "agent": "gpt-x",
    "k": 3,
    "items": 60,
    "started_at": "2026-11-23T10:00:00+00:00",
    "pass@1": 23.33,
    "pass@2": 40.0,
    "pass@3": 51.67,
    "start_acc": 80.5,
    "end_acc": 30.17,
    "T1": {"pass@1": 30.0},
    "T2": {"pass@1": 16.67},
    "errors": [{"id": "x", "error": "boom"}],
}
DRAG1 = {"kind": "drag", "agent": "oracle", "k": 1, "items": 12, "pass@1": 100.0,
         "start_acc": 100.0, "end_acc": 100.0, "T1": {"pass@1": 100.0}, "T2": {"pass@1": 100.0},
         "errors": []}  # fmt: skip
QA = {"kind": "qa", "agent": "random", "items": 22, "connection": 57.14, "existence": 62.5,
      "field": 0.0, "field_exact": 0.0, "overall": 40.91, "errors": []}  # fmt: skip


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    summary(root, "llm-drag-20261123-100000", DRAG3)
    summary(root, "oracle-drag-20261123-110000", DRAG1)
    summary(root, "random-qa-20261123-120000", QA)
    summary(root, "other-tool", {"kind": "bench", "whatever": 1})  # not ours: passed over
    broken = root / "broken-qa"
    broken.mkdir()
    (broken / "summary.json").write_text("{not json")
    return root


def test_rows_from_summaries(runs: Path) -> None:
    rows, problems = load_diagnostics(runs)
    assert [(r.kind, r.agent, r.items, r.k) for r in rows] == [
        ("drag", "gpt-x", 60, 3),
        ("drag", "oracle", 12, 1),
        ("qa", "random", 22, 1),
    ]
    assert rows[0].scores["pass@3"] == 51.67 and rows[0].scores["T2 pass@1"] == 16.67
    assert rows[0].errors == 1 and rows[2].scores["overall"] == 40.91
    assert len(problems) == 1 and "broken-qa/summary.json" in problems[0]
    drag, qa = tables(rows)
    assert drag[0] == "Single-step drag (%)"
    assert drag[1] == ["Agent", "Items", "Pass@1", "Pass@2", "Pass@3", "Start acc", "End acc",
                       "T1 Pass@1", "T2 Pass@1", "Errors", "Run"]  # fmt: skip
    assert drag[2][1][2:5] == ["100.00", "-", "-"]  # the oracle ran k=1
    assert qa[2][0][:7] == ["random", "22", "57.14", "62.50", "0.00", "0.00", "40.91"]


def test_report_with_only_diagnostics_runs(runs: Path) -> None:
    report = report_for(runs)
    assert report.rows == [] and len(report.diagnostics) == 3
    text = format_table(report)
    lines = text.splitlines()
    assert lines[0] == "Single-step drag (%)"
    heads = "Agent Items Pass@1 Pass@2 Pass@3 Start acc End acc T1 Pass@1 T2 Pass@1 Errors Run"
    assert lines[1].split() == heads.split()
    assert lines[2].split()[:5] == ["gpt-x", "60", "23.33", "40.00", "51.67"]
    assert "Perception QA (accuracy %)" in lines
    assert lines[-1].startswith("skipped: ") and "broken-qa" in lines[-1]
    again = RunReport.model_validate_json(report.model_dump_json())
    assert again.diagnostics == report.diagnostics
    html = render_html(report)
    assert "<h2>Single-step drag (%)</h2>" in html and "<td>51.67</td>" in html


def test_diagnostics_follow_the_task_table(runs: Path) -> None:
    write_run(runs, "oracle", "composite", "create_a", 3, 3, category="create")
    text = format_table(report_for(runs))
    assert (
        text.index("Composite mode") < text.index("Single-step drag") < text.index("Perception QA")
    )


def test_nothing_to_report(tmp_path: Path) -> None:
    summary(tmp_path, "x", {"kind": "bench"})
    with pytest.raises(StudioError, match="no finished runs"):
        report_for(tmp_path)
