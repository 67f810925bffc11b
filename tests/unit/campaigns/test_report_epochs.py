"""`studio report` over repeated episodes: intervals, pass@k, per-task variance, JSON, HTML."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from studio import cli
from studio.services.runs.report_html import render_html
from studio.services.runs.reports import format_table, report_for
from tests.unit.test_reports import write_run


@pytest.fixture
def epochs(tmp_path: Path) -> Path:
    """llm, composite, 3 epochs: create_a 3/3 passes, create_b 1/3 (PSR 1, .5, .5), debug_a 0/3
    (PSR 0); a single-run agent beside it."""
    root = tmp_path / "runs"
    for _ in range(3):
        write_run(root, "llm", "composite", "create_a", 2, 2)
        write_run(root, "llm", "composite", "debug_a", 0, 2)
    write_run(root, "llm", "composite", "create_b", 2, 2)
    write_run(root, "llm", "composite", "create_b", 1, 2)
    write_run(root, "llm", "composite", "create_b", 1, 2)
    write_run(root, "one", "composite", "create_a", 1, 2)
    return root


def test_overall_cell_has_intervals_and_pass_at_k(epochs: Path) -> None:
    row = next(r for r in report_for(epochs).rows if r.agent == "llm")
    cell = row.overall
    assert (cell.tasks, cell.episodes, cell.successes) == (3, 9, 4)
    assert cell.sr == pytest.approx((1 + 1 / 3 + 0) / 3)  # the mean over tasks, as published
    # Wilson 4/9: p = .44444, centre (.44444 + .21341) / 1.42683 = .46106, half .27229
    assert cell.sr_ci95 == pytest.approx((0.18878, 0.73335), abs=1e-4)
    # task PSR means 1, 2/3, 0: mean .5556, s = .5092, se .2940, t(2) 4.3027 -> clipped low
    assert cell.psr_ci95 == pytest.approx((0.0, 1.0), abs=1e-4)
    # pass@2 per task: 1, 1 - C(2,2)/C(3,2) = 2/3, 0; pass^2: 1, 0, 0; pass@3: 1, 1, 0
    assert cell.pass_at_k == pytest.approx({1: 4 / 9, 2: (1 + 2 / 3) / 3, 3: 2 / 3})
    assert cell.pass_hat_k == pytest.approx({1: 4 / 9, 2: 1 / 3, 3: 1 / 3})
    create = row.categories["create"]
    assert create.psr_ci95 is not None and create.pass_at_k[2] == pytest.approx(5 / 6)
    b = next(t for t in row.tasks if t.task_id == "create_b")
    assert b.sr_var == pytest.approx(1 / 3) and b.psr_var == pytest.approx(1 / 12)


def test_single_run_numbers_stay_and_json_carries_the_fields(
    epochs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["report", str(epochs), "--json"]) == 0
    rows = {r["agent"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    one = rows["one"]["overall"]
    assert one["sr"] == 0.0 and one["psr"] == 0.5 and one["episodes"] == 1
    assert one["psr_ci95"] is None and one["pass_at_k"] == {"1": 0.0}
    assert one["sr_ci95"] == pytest.approx([0.0, 0.7935], abs=1e-4)
    for cell in [rows["llm"]["overall"], *rows["llm"]["categories"].values()]:
        assert {"episodes", "sr", "sr_ci95", "psr", "psr_ci95", "pass_at_k"} <= set(cell)
    text = format_table(report_for(epochs))
    assert "llm: 9 episodes; SR 95% CI [18.88, 73.33] (Wilson)" in text
    assert "pass@3 66.67" in text and "pass^2 33.33" in text


def test_html_draws_error_bars(epochs: Path) -> None:
    html = render_html(report_for(epochs))
    (svg,) = html.split("<svg")[1:]
    ElementTree.fromstring("<svg" + svg.split("</svg>")[0] + "</svg>")
    assert svg.count("<title>95% CI") >= 4  # SR and PSR of both rows, and category SR
    assert '<span class="ci">[18.88, 73.33]</span>' in html


def test_drag_and_qa_scores_carry_wilson_intervals() -> None:
    from studio.services.diagnostics.report import format_diagnostics, row_from_summary

    drag = {"kind": "drag", "agent": "m", "items": 60, "k": 1, "pass@1": 23.33}
    drag["T1"] = {"items": 30, "pass@1": 0.0}
    row = row_from_summary(drag, Path("d"))
    # 14/60: centre .26535 / 1.06402 = .24938, half .11171 / 1.06402 = .10499
    assert row.ci95["pass@1"] == pytest.approx((14.44, 35.44), abs=0.01)
    assert row.ci95["T1 pass@1"] == pytest.approx((0.0, 11.35), abs=0.01)  # 3.8415 / 33.8415
    assert "T2 pass@1" not in row.ci95
    qa = {"kind": "qa", "agent": "m", "items": 10, "overall": 80.0, "connection": 0.0}
    qa["counts"] = {"connection": 10}
    row = row_from_summary(qa, Path("q"))
    assert row.ci95["overall"] == pytest.approx((49.02, 94.33), abs=0.01)
    assert row.ci95["connection"] == pytest.approx((0.0, 27.75), abs=0.01)
    assert any("overall [49.02, 94.33]" in line for line in format_diagnostics([row]))
