"""Report grid maths on synthetic run folders: SR, PSR, categories, repeats, time, HTML, JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from studio.models.agent import EpisodeStatus, Mode
from studio.models.errors import StudioError
from studio.models.evaluation import ErrorKind, EvalError, EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.runs.report_html import render_html
from studio.services.runs.reports import format_table, report_for

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def write_run(
    root: Path,
    agent: str,
    mode: str,
    task: str,
    passed: int,
    total: int,
    seconds: float = 10.0,
    category: str | None = None,
    evaluated: bool = True,
    **extra: Any,
) -> Path:
    """One run.json as the episode recorder writes it."""
    folder = root / f"{agent}-{mode}" / f"{task}-{len(list(root.rglob(RUN_FILE)))}"
    folder.mkdir(parents=True)
    result = EvalResult(
        task_id=task,
        project="final.sb3",
        success=passed == total and total > 0,
        passed_tests=passed,
        total_tests=total,
        partial_success_rate=passed / total if total else 0.0,
        **extra,
    )
    run = RunInfo(
        episode_id="e",
        task_id=task,
        mode=Mode(mode),
        agent=agent,
        started_at=T0,
        ended_at=T0 + timedelta(seconds=seconds),
        status=EpisodeStatus.DONE,
        eval=result if evaluated else None,
        meta={"category": category} if category else {},
    )
    (folder / RUN_FILE).write_text(run.model_dump_json(), encoding="utf-8")
    return folder


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    # llm, composite: create 2/2 tasks pass; debug 1 of 2; extend 0/1 with PSR 0.5; compute none
    write_run(root, "llm", "composite", "create_a", 3, 3, seconds=10)
    write_run(root, "llm", "composite", "create_b", 2, 2, seconds=20)
    write_run(root, "llm", "composite", "debug_a", 1, 1, seconds=30)
    write_run(root, "llm", "composite", "debug_b", 0, 4, seconds=40)
    write_run(root, "llm", "composite", "extend_a", 1, 2, seconds=50)
    write_run(root, "idle", "composite", "create_a", 0, 3, seconds=1)
    write_run(root, "idle", "composite", "create_b", 0, 2, seconds=1, evaluated=False)
    # human, primitive: the same task twice (two participants): one pass, one 1/2
    write_run(root, "human", "primitive", "my_task", 2, 2, seconds=100, category="Compute")
    write_run(root, "human", "primitive", "my_task", 1, 2, seconds=300, category="compute")
    return root


def test_grid_maths(runs: Path) -> None:
    report = report_for(runs)
    assert [(r.mode, r.agent) for r in report.rows] == [
        ("composite", "idle"),
        ("composite", "llm"),
        ("primitive", "human"),
    ]
    idle, llm, human = report.rows
    assert llm.categories["create"].sr == 1.0 and llm.categories["create"].tasks == 2
    assert llm.categories["debug"].sr == 0.5 and llm.categories["debug"].psr == 0.5
    assert llm.categories["extend"].sr == 0.0 and llm.categories["extend"].psr == 0.5
    assert llm.categories["compute"].sr is None and llm.categories["compute"].tasks == 0
    assert llm.overall.sr == pytest.approx(3 / 5)
    assert llm.overall.psr == pytest.approx((1 + 1 + 1 + 0 + 0.5) / 5)
    assert llm.mean_seconds == pytest.approx(30)
    # the episode without a verdict is not the agent's 0: counted apart, named
    assert idle.overall.sr == 0.0 and idle.overall.psr == 0.0 and idle.overall.tasks == 1
    assert idle.overall.unfinished == 1 and idle.overall.episodes == 1
    assert idle.not_counted == ["create_b: unfinished: not evaluated (status done)"]
    assert human.overall.tasks == 1 and human.overall.runs == 2
    assert human.categories["compute"].sr == 0.5
    assert human.categories["compute"].psr == pytest.approx(0.75)
    assert human.mean_seconds == pytest.approx(200)


def test_category_from_task_folder_then_prefix(tmp_path: Path) -> None:
    task = tmp_path / "task"
    task.mkdir()
    (task / "task.json").write_text(json.dumps({"id": "zzz", "category": "debug"}))
    folder = write_run(tmp_path / "runs", "a", "composite", "zzz", 1, 1)
    data = json.loads((folder / RUN_FILE).read_text())
    data["task_folder"] = str(task)
    (folder / RUN_FILE).write_text(json.dumps(data))
    write_run(tmp_path / "runs", "a", "composite", "compute_x", 0, 1)
    write_run(tmp_path / "runs", "a", "composite", "weird", 0, 1)
    report = report_for(tmp_path / "runs")
    assert report.categories == ["create", "debug", "extend", "compute", "other"]
    row = report.rows[0]
    assert row.categories["debug"].sr == 1.0
    assert row.categories["compute"].tasks == 1 and row.categories["other"].tasks == 1


def test_eval_error_counts_as_failure(tmp_path: Path) -> None:
    error = EvalError(kind=ErrorKind.TIMEOUT, message="too slow")
    write_run(tmp_path, "a", "composite", "create_a", 2, 2, error=error)
    row = report_for(tmp_path).rows[0]
    assert row.overall.sr == 0.0 and row.overall.psr == 0.0


def test_bad_and_unfinished_files_are_named(tmp_path: Path) -> None:
    write_run(tmp_path, "a", "composite", "create_a", 1, 1)
    bad = tmp_path / "broken" / RUN_FILE
    bad.parent.mkdir()
    bad.write_text('{"task_id": 3}')
    unfinished = RunInfo(episode_id="e", task_id="t", mode=Mode.COMPOSITE, started_at=T0)
    (tmp_path / "live").mkdir()
    (tmp_path / "live" / RUN_FILE).write_text(unfinished.model_dump_json())
    report = report_for(tmp_path)
    assert len(report.rows) == 1
    assert any("broken" in p and "field" in p for p in report.problems)
    assert any("in progress" in p for p in report.problems)
    with pytest.raises(StudioError, match="no finished runs"):
        report_for(tmp_path / "broken")
    with pytest.raises(StudioError, match="does not exist"):
        report_for(tmp_path / "nothing")


def test_text_table(runs: Path) -> None:
    text = format_table(report_for(runs))
    lines = text.splitlines()
    assert lines[0] == "Composite mode (success rate %)"
    assert lines[1].split() == [
        "Agent", "Create", "(2)", "Debug", "(2)", "Extend", "(1)", "Compute", "(0)",
        "SR", "(5)", "PSR", "(5)", "Time/task",
    ]  # fmt: skip
    llm = next(line for line in lines if line.startswith("llm"))
    assert llm.split() == ["llm", "100.00", "50.00", "0.00", "-", "60.00", "70.00", "30.0", "s"]
    idle = next(line for line in lines if line.startswith("idle"))
    assert idle.split()[1:3] == ["0.00", "(1)"]  # 1 create task finished of the column's 2
    assert idle.count("0.00 (1)") == 3  # and only 1 of the 5 overall tasks
    assert "  idle: 1 episodes" in text and "not counted in SR: 1 unfinished" in text
    assert "    not counted: create_b: unfinished: not evaluated (status done)" in lines
    assert "Primitive mode (success rate %)" in text
    human = next(line for line in lines if line.startswith("human"))
    assert human.split()[-2:] == ["3.3", "min"]


def test_html_is_self_contained_with_charts(runs: Path, tmp_path: Path) -> None:
    html = render_html(report_for(runs))
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")
    assert html.count("<svg") == 2 and "<table>" in html
    assert "Composite mode" in html and "Primitive mode" in html
    for svg in html.split("<svg")[1:]:
        ElementTree.fromstring("<svg" + svg.split("</svg>")[0] + "</svg>")  # well-formed
    assert ">100.00<" in html and "60.00" in html


def test_json_round_trip(runs: Path) -> None:
    report = report_for(runs)
    data = json.loads(report.model_dump_json())
    assert data["rows"][1]["overall"]["sr"] == pytest.approx(0.6)
    assert {"agent", "mode", "categories", "overall", "mean_seconds", "tasks"} <= set(
        data["rows"][0]
    )


def _campaign(root: Path, name: str, wins: dict[tuple[str, int], bool]) -> None:
    """A campaign with epochs as studio.services.runs.campaign records it (<task>/epoch-<e>)."""
    for (task, epoch), ok in wins.items():
        folder = root / name / task / f"epoch-{epoch}"
        folder.mkdir(parents=True)
        result = EvalResult(task_id=task, project="final.sb3", success=ok, passed_tests=int(ok),
                            total_tests=1, partial_success_rate=float(ok))  # fmt: skip
        run = RunInfo(episode_id=f"{name}-{task}-{epoch}", task_id=task, mode=Mode.COMPOSITE,
                      agent="oracle", started_at=T0, ended_at=T0 + timedelta(seconds=5),
                      status=EpisodeStatus.DONE, eval=result, meta={"epoch": epoch})  # fmt: skip
        (folder / RUN_FILE).write_text(run.model_dump_json(), encoding="utf-8")


def test_epochs_in_text_json_html_and_two_campaigns_compared(tmp_path: Path) -> None:
    """Two campaigns of one agent, 2 tasks x 2 epochs: the row splits SR by epoch, each task
    lists its episodes in epoch order, the HTML has an Epochs column, and the campaigns (same
    agent, so one row) compare task by task when named by their folders."""
    from studio.services.runs.compare import compare_rows

    _campaign(tmp_path, "first", {("create_a", 1): True, ("create_a", 2): False,
                                  ("debug_b", 1): True, ("debug_b", 2): True})  # fmt: skip
    _campaign(tmp_path, "second", {("create_a", 1): False, ("create_a", 2): False,
                                   ("debug_b", 1): True, ("debug_b", 2): True})  # fmt: skip
    report = report_for(tmp_path / "first")
    (row,) = report.rows
    assert [(f.epoch, f.tasks, f.sr) for f in row.epochs] == [(1, 2, 1.0), (2, 2, 0.5)]
    create = next(t for t in row.tasks if t.task_id == "create_a")
    assert [(e.epoch, e.success) for e in create.episodes] == [(1, True), (2, False)]
    assert "oracle: by epoch: 1 SR 100.00 PSR 100.00 (2 tasks); 2 SR 50.00" in format_table(report)
    assert json.loads(report.model_dump_json())["rows"][0]["epochs"][1]["sr"] == 0.5
    page = render_html(report)
    assert "<th>Epochs</th>" in page and "e1 pass 100.00 · e2 fail 0.00" in page
    both = report_for(tmp_path)
    assert len(both.rows) == 1  # one agent: only the folders tell the campaigns apart
    cells = {c.category: c for c in compare_rows(both, "first", "second").cells}
    assert (cells["overall"].tasks, cells["overall"].a_only, cells["overall"].both) == (2, 1, 1)
    with pytest.raises(StudioError, match="several agents or modes"):
        write_run(tmp_path / "mixed", "random", "composite", "create_a", 1, 1)
        write_run(tmp_path / "mixed", "human", "composite", "create_a", 1, 1)
        compare_rows(report_for(tmp_path), "mixed", "first")
