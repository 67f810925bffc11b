"""d_edit of recorded debug episodes on hand-made cases, and in `studio report`.

The task (tests.helpers.tasks): the golden Cat moves 100, the initial one 10; the minimal fix
is one change of the move block's input. Each case is a run folder with its final program.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import EvalResult
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, RunInfo
from studio.services.core.gold_fix import gold_fix
from studio.services.core.sb3 import read_project_json
from studio.services.runs.repair_measures import run_d_edit
from studio.services.runs.reports import format_table, report_for
from tests.helpers.tasks import cat_project, make_task


def _run(root: Path, name: str, task: Path, final: bytes, agent: str = "oracle") -> Path:
    folder = root / "runs" / name
    folder.mkdir(parents=True)
    now = datetime.now(UTC)
    run = RunInfo(
        episode_id=name,
        task_id="cat_walks",
        task_folder=str(task),
        mode=Mode.COMPOSITE,
        agent=agent,
        started_at=now,
        ended_at=now,
        status=EpisodeStatus.DONE,
        eval=EvalResult(task_id="cat_walks", project="final.sb3", success=True),
    )
    (folder / RUN_FILE).write_text(run.model_dump_json())
    (folder / FINAL_PROJECT).write_bytes(final)
    return folder


def _info(folder: Path) -> RunInfo:
    return RunInfo.model_validate_json((folder / RUN_FILE).read_text())


def test_d_edit_is_0_for_the_minimal_fix_and_counts_missing_and_extra_edits(
    tmp_path: Path,
) -> None:
    task = make_task(tmp_path / "task", category="debug")
    (gold,) = gold_fix(task) or []
    assert (gold.op, gold.block_id) == ("change", "move")
    fixed = _run(tmp_path, "fixed", task, cat_project(100))
    idle = _run(tmp_path, "idle", task, cat_project(10))
    overdone = json.loads(json.dumps(read_project_json(cat_project(100), "p")))
    cat = next(t for t in overdone["targets"] if t["name"] == "Cat")
    cat["blocks"]["goto"]["inputs"]["X"] = [1, [4, "5"]]
    from tests.helpers.sample_task import sb3_bytes

    extra = _run(tmp_path, "extra", task, sb3_bytes(overdone))
    assert run_d_edit(_info(fixed), fixed) == 0
    assert run_d_edit(_info(idle), idle) == 1  # the gold edit missing
    assert run_d_edit(_info(extra), extra) == 1  # the gold edit and one more
    report = report_for(tmp_path / "runs")
    (row,) = report.rows
    assert row.overall.d_edit_runs == 3
    assert abs((row.overall.d_edit_mean or 0) - 2 / 3) < 1e-9
    assert "d_edit 0.67 (mean over 3 debug episodes" in format_table(report)


def test_the_bug_record_gives_the_gold_fix_when_there_is_one(tmp_path: Path) -> None:
    task = make_task(tmp_path / "task", category="debug")
    edit = {
        "op": "change",
        "sprite": "Cat",
        "block_id": "goto",
        "what": "input:X",
        "value": [1, [4, "5"]],
    }
    (task / "bug.json").write_text(json.dumps({"inverse_patch": [edit]}))
    (gold,) = gold_fix(task) or []
    assert gold.block_id == "goto"
    fixed = _run(tmp_path, "fixed", task, cat_project(100))
    assert run_d_edit(_info(fixed), fixed) == 2  # the record's edit missed, another made


def test_no_d_edit_without_a_final_program_or_outside_debug_tasks(tmp_path: Path) -> None:
    task = make_task(tmp_path / "task", category="debug")
    folder = _run(tmp_path, "gone", task, cat_project(100))
    (folder / FINAL_PROJECT).unlink()
    assert run_d_edit(_info(folder), folder) is None
    create = make_task(tmp_path / "create", category="create")
    _run(tmp_path / "c", "made", create, cat_project(100))
    (row,) = report_for(tmp_path / "c" / "runs").rows
    assert row.overall.d_edit_runs == 0 and row.overall.d_edit_mean is None


def test_a_block_deleted_and_readded_in_place_counts_as_the_change_it_makes(
    tmp_path: Path,
) -> None:
    from tests.helpers.sample_task import sb3_bytes

    task = make_task(tmp_path / "task", category="debug")
    project = read_project_json(cat_project(100), "p")
    cat = next(t for t in project["targets"] if t["name"] == "Cat")
    cat["blocks"]["move-again"] = cat["blocks"].pop("move")  # as the editor re-adds a block
    cat["blocks"]["goto"]["next"] = "move-again"
    redone = _run(tmp_path, "redone", task, sb3_bytes(project))
    assert run_d_edit(_info(redone), redone) == 0
