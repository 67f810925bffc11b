"""Repair measures kept with a debug episode and read back by `studio report` (no browser).

The task (tests.helpers.tasks): the golden Cat changes x by 100, the initial one by 10; the
minimal fix is one change of the move block's input. Drift itself is measured in the real
editor (tests/e2e/test_patch_mode_e2e.py); here it is what run.json keeps.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import EvalResult
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, RunInfo
from studio.services.forge.episode_measures import EpisodeMeasures
from studio.services.runs.campaign import result_line
from studio.services.runs.report_html import render_html
from studio.services.runs.reports import format_table, report_for
from tests.helpers.tasks import cat_project, make_task


def _run(
    root: Path, name: str, task: Path, final: bytes | None, meta: dict[str, Any] | None = None
) -> Path:
    folder = root / "runs" / name
    folder.mkdir(parents=True)
    now = datetime.now(UTC)
    run = RunInfo(
        episode_id=name, task_id="cat_walks", task_folder=str(task), mode=Mode.PATCH,
        agent="oracle", started_at=now, ended_at=now, status=EpisodeStatus.DONE,
        eval=EvalResult(task_id="cat_walks", project="final.sb3", success=True),
        meta=meta or {},
    )  # fmt: skip
    (folder / RUN_FILE).write_text(run.model_dump_json())
    if final is not None:
        (folder / FINAL_PROJECT).write_bytes(final)
    return folder


def test_without_a_browser_d_edit_is_kept_and_drift_is_named_missing(tmp_path: Path) -> None:
    task = make_task(tmp_path / "task", category="debug")
    folder = _run(tmp_path, "idle", task, cat_project(10))
    figures = asyncio.run(EpisodeMeasures(None).measure(folder))
    assert figures is not None and (figures["d_edit"], figures["drift"]) == (1, None)
    assert "no browser" in figures["drift_error"]
    kept = RunInfo.model_validate_json((folder / RUN_FILE).read_text())
    assert kept.meta["repair"] == figures and kept.eval is not None and kept.eval.success
    assert result_line(kept, "cat_walks", 0, folder)["repair"] == figures


def test_other_categories_and_episodes_without_a_final_program_are_left_alone(
    tmp_path: Path,
) -> None:
    create = make_task(tmp_path / "create", category="create")
    made = _run(tmp_path / "c", "made", create, cat_project(100))
    debug = make_task(tmp_path / "debug", category="debug")
    crashed = _run(tmp_path / "d", "crashed", debug, None)
    for folder in (made, crashed):
        before = (folder / RUN_FILE).read_text()
        assert asyncio.run(EpisodeMeasures(None).measure(folder)) is None
        assert (folder / RUN_FILE).read_text() == before


def test_the_report_gives_the_kept_measures_per_agent_and_mode_with_intervals(
    tmp_path: Path,
) -> None:
    task = make_task(tmp_path / "task", category="debug")
    for name, d_edit, drift in (("a", 0, 0.0), ("b", 2, 0.5), ("c", 1, 0.25)):
        _run(tmp_path, name, task, cat_project(100), {"repair": {"d_edit": d_edit, "drift": drift}})
    report = report_for(tmp_path / "runs")
    (row,) = report.rows
    cell = row.overall
    assert (row.mode, cell.d_edit_runs, cell.drift_runs) == ("patch", 3, 3)
    assert cell.d_edit_mean == 1.0 and cell.drift_mean == 0.25
    assert cell.d_edit_ci95 is not None and cell.d_edit_ci95[0] == 0.0 < 1.0 < cell.d_edit_ci95[1]
    assert cell.drift_ci95 is not None and 0.0 <= cell.drift_ci95[0] < 0.25 < cell.drift_ci95[1]
    text = format_table(report)
    assert "d_edit 1.00 (mean over 3 debug episodes; 0 = exactly the minimal fix) 95% CI" in text
    assert "drift 0.250 (mean over 3 debug episodes; 0 = the golden's behaviour) 95% CI" in text
    html = render_html(report)
    assert "Repair measures (debug tasks)" in html and "drift 0.250" in html
    dumped = json.loads(report.model_dump_json())
    assert dumped["rows"][0]["overall"]["drift_ci95"] == list(cell.drift_ci95)  # --json, bundle


def test_an_episode_recorded_without_measures_still_gets_its_d_edit(tmp_path: Path) -> None:
    task = make_task(tmp_path / "task", category="debug")
    _run(tmp_path, "old", task, cat_project(100))
    (row,) = report_for(tmp_path / "runs").rows
    assert (row.overall.d_edit_mean, row.overall.drift_runs) == (0.0, 0)
