"""`studio report --json` and `--bundle` carry a study's human tables (per category, per
participant, per task), the same figures the text and the HTML report show."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.services.core import paths
from studio.services.studies.plan import StudyPlan, new_study, save_study
from tests.unit.studies.test_desk import _clicks, _desk, _end, _project, _skip_practice

IDS = ["create_cat_walk", "debug_score_reset"]


def _study_with_runs(tmp_path: Path) -> tuple[Path, StudyPlan]:
    """Participant 0 solves create_cat_walk (4 clicks) and gives up on debug_score_reset;
    participant 1 has not started."""
    folder = tmp_path / "study"
    plan = new_study(paths.BUNDLED_TASKS, folder, 2, seed=1, task_ids=IDS)
    plan.break_s = 0
    save_study(folder, plan)
    desk = _desk((folder, plan))
    desk.claim("tab-aaaaaaaa")
    desk.consent()
    _skip_practice((folder, plan), desk)
    for task_id in plan.participants[0].queue:
        desk.start()
        if task_id == "create_cat_walk":
            desk.events(_clicks(4))
            _end(desk, "done", _project((folder, plan), task_id))
        else:
            _end(desk, "give up", _project((folder, plan), task_id))
    return folder, plan


def _by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in rows}


def _check_tables(tables: dict[str, Any], folder: Path, plan: StudyPlan) -> None:
    assert tables["study"] == plan.name and tables["folder"] == str(folder)
    people = _by_name(tables["participants"])
    first, second = (people[p.code] for p in plan.participants)
    assert (first["ended"], first["solved"], first["sr"]) == (2, 1, 0.5)
    low, high = first["sr_ci95"]
    assert 0 < low < 0.5 < high < 1  # the Wilson interval of 1 in 2
    assert first["mean_seconds"] is not None and first["mean_actions"] == 2.0  # (4 + 0) / 2
    assert (second["ended"], second["sr"], second["sr_ci95"]) == (0, None, None)
    tasks = _by_name(tables["tasks"])  # SR per task: the share of participants who solved it
    assert (tasks["create_cat_walk"]["sr"], tasks["create_cat_walk"]["psr"]) == (1.0, 1.0)
    assert (tasks["debug_score_reset"]["sr"], tasks["debug_score_reset"]["ended"]) == (0.0, 1)
    categories = _by_name(tables["categories"])
    assert set(categories) == {"create", "debug"}
    assert (categories["create"]["solved"], categories["debug"]["solved"]) == (1, 0)
    assert categories["create"]["sr_ci95"] is not None


def test_report_json_carries_the_study_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, plan = _study_with_runs(tmp_path)
    capsys.readouterr()
    assert main(["report", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["studies"]) == 1
    _check_tables(report["studies"][0], folder, plan)


def test_the_bundle_carries_the_study_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, plan = _study_with_runs(tmp_path)
    site = tmp_path / "site"
    assert main(["report", str(folder), "--bundle", str(site)]) == 0
    assert "Human baseline study" in capsys.readouterr().out
    text = (site / "data.js").read_text(encoding="utf-8").split(" = ", 1)[1]
    data = json.loads(text.rstrip().rstrip(";"))
    assert len(data["report"]["studies"]) == 1
    _check_tables(data["report"]["studies"][0], folder, plan)
