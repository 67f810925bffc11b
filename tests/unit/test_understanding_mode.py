"""Understanding items as episodes (no browser): the agent names a forged bug's triggers and
mechanism; the answer is scored when the episode ends and reported per agent and mode.

The page stands in for the editor's program read (tests/unit/test_patch_mode.py's fake); the
task is tests.helpers.tasks' with a bug record whose triggers are green_flag and key:space.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, EpisodeStatus, Mode
from studio.models.evaluation import EvalResult
from studio.models.patch_action import ExplainBug
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, STEPS_FILE, RunInfo
from studio.services.core.store import load_task
from studio.services.episodes.agents.oracle import OracleAgent
from studio.services.episodes.agents.random_agent import RandomAgent
from studio.services.episodes.handlers import make_handler
from studio.services.episodes.understand_mode import UnderstandMode
from studio.services.forge.episode_measures import EpisodeMeasures
from studio.services.runs.reports import format_table, report_for
from tests.helpers.program_page import FakeEditorPage
from tests.helpers.tasks import cat_project, make_task

MECHANISM = "missing_initialization"
REPORT = {"symptom": "the Cat stops at x 10", "expected": "the Cat walks to x 100",
          "trigger": "green flag, then space"}  # fmt: skip


def _forged(folder: Path) -> Path:
    task = make_task(folder, category="debug")
    record = {
        "golden_task": "cat_walks", "mechanism": MECHANISM, "operator": "MIR",
        "description": "the start position is gone", "site": {"sprite": "Cat",
        "block_ids": ["goto"]}, "inverse_patch": [], "failing_tests": [], "tests_from": "own",
        "reruns": 5, "golden_pass_rate": 1.0, "bugged_pass_rate": 0.0,
        "report": {**REPORT, "triggers": ["green_flag", "key:space"]},
    }  # fmt: skip
    (task / "bug.json").write_text(json.dumps(record), encoding="utf-8")
    return task


def _episode(root: Path, name: str, task: Path, answers: list[dict[str, Any]]) -> Path:
    """A recorded understanding episode whose steps gave `answers` (explain_bug args)."""
    folder = root / "runs" / name
    folder.mkdir(parents=True)
    now = datetime.now(UTC)
    run = RunInfo(
        episode_id=name, task_id="cat_walks", task_folder=str(task), mode=Mode.UNDERSTAND,
        agent=name.rstrip("0123456789"), started_at=now, ended_at=now,
        status=EpisodeStatus.DONE,
        eval=EvalResult(task_id="cat_walks", project="final.sb3", success=False),
    )  # fmt: skip
    (folder / RUN_FILE).write_text(run.model_dump_json())
    (folder / FINAL_PROJECT).write_bytes(cat_project(10))
    steps = [
        {"index": i, "at": now.isoformat(), "action": {"api": "explain_bug", "args": a}}
        for i, a in enumerate(answers, 1)
    ]
    (folder / STEPS_FILE).write_text("".join(json.dumps(s) + "\n" for s in steps))
    return folder


def test_the_answer_action_and_the_mode() -> None:
    action = parse_action(
        {"api": "explain_bug", "args": {"triggers": ["green_flag"], "mechanism": MECHANISM}},
        Mode.UNDERSTAND,
    )
    assert isinstance(action, ExplainBug) and action.args.triggers == ["green_flag"]
    with pytest.raises(ActionError, match="unknown api 'apply_patch' in understand mode"):
        parse_action({"api": "apply_patch", "args": {"edits": [{}]}}, Mode.UNDERSTAND)
    with pytest.raises(ActionError, match=r"explain_bug: args\.mechanism"):
        parse_action({"api": "explain_bug", "args": {"triggers": []}}, Mode.UNDERSTAND)


def test_the_observation_shows_the_symptom_and_hides_trigger_and_mechanism(
    tmp_path: Path,
) -> None:
    handler = make_handler(Mode.UNDERSTAND, task=load_task(_forged(tmp_path / "t")))
    assert isinstance(handler, UnderstandMode)
    obs = asyncio.run(handler.observe(FakeEditorPage(cat_project(10)), 0))
    assert obs.report == {"symptom": REPORT["symptom"]}
    text = obs.text or ""
    assert "Symptom: the Cat stops at x 10" in text and "Trigger:" not in text
    assert "[move]" in text and "Mechanism, one of: missing_initialization," in text
    assert "key:space" not in text.split("Question:")[0]  # the record's triggers are not shown


def test_the_oracle_answers_from_the_bug_record_and_scores_1(tmp_path: Path) -> None:
    task = _forged(tmp_path / "t")
    obs = asyncio.run(UnderstandMode(load_task(task)).observe(FakeEditorPage(cat_project()), 0))
    oracle = OracleAgent(load_task(task))
    answer, _ = asyncio.run(oracle.act(obs))
    assert answer["api"] == "explain_bug"
    assert asyncio.run(oracle.act(obs))[0]["api"] == "done"
    random_answer, _ = asyncio.run(RandomAgent(seed=1).act(obs))
    assert parse_action(random_answer, Mode.UNDERSTAND).api == "explain_bug"
    folder = _episode(tmp_path, "oracle", task, [answer["args"]])
    figures = asyncio.run(EpisodeMeasures(None).measure(folder))
    assert figures == {"trigger_f1": 1.0, "mechanism_correct": True, "answered": True}


def test_answers_are_scored_by_trigger_f1_and_mechanism_and_reported(tmp_path: Path) -> None:
    task = _forged(tmp_path / "t")
    cases = [
        ("guess1", [{"triggers": ["green_flag"], "mechanism": "desynchronization"},
                    {"triggers": ["GREEN_FLAG"], "mechanism": "Missing Initialization"}]),
        ("guess2", [{"triggers": ["click:Cat"], "mechanism": "clone_management"}]),
        ("guess3", []),
    ]  # fmt: skip
    scored = []
    for name, answers in cases:
        folder = _episode(tmp_path, name, task, answers)
        scored.append(asyncio.run(EpisodeMeasures(None).measure(folder)))
        kept = RunInfo.model_validate_json((folder / RUN_FILE).read_text())
        assert kept.meta["understanding"] == scored[-1] and "repair" not in kept.meta
    assert scored[0] == {"trigger_f1": pytest.approx(2 / 3), "mechanism_correct": True,
                         "answered": True}  # fmt: skip  # the last answer counts
    assert scored[1] is not None and scored[1]["trigger_f1"] == 0.0
    assert scored[2] == {"trigger_f1": 0.0, "mechanism_correct": False, "answered": False}
    (row,) = report_for(tmp_path / "runs").rows
    cell = row.overall
    assert (row.mode, cell.understanding_runs, cell.d_edit_runs) == ("understand", 3, 0)
    assert cell.trigger_f1_mean == pytest.approx(2 / 9) and cell.mechanism_accuracy == 1 / 3
    assert cell.mechanism_ci95 is not None and cell.trigger_f1_ci95 is not None
    line = "trigger F1 0.222 95% CI [0.000, "
    assert line in format_table(report_for(tmp_path / "runs"))
    assert "mechanism accuracy 0.333 95% CI [" in format_table(report_for(tmp_path / "runs"))
