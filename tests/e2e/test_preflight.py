"""`studio run` on broken tasks: each is named as the task's problem before any agent plays,
recorded as such (not the agent's failure), and the run exits 1. The scripts are parsed in a
blank page of the session's browser, as the run parses them in its own."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from studio.cli import build_parser
from studio.cli.run import run_campaign
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.runs.preflight import task_problems
from studio.services.runs.reports import format_table, report_for
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser


def _library(root: Path) -> Path:
    """Three copies of a bundled task: one sound, one whose script has a syntax error, one
    whose initial project is not a zip."""
    for name in ("create_cat_walk", "syntax_task", "corrupt_task"):
        shutil.copytree(paths.BUNDLED_TASKS / "create_cat_walk", root / name)
        task_json = root / name / "task.json"
        task_json.write_text(
            task_json.read_text().replace('"create_cat_walk"', f'"{name}"', 1), encoding="utf-8"
        )
    script = root / "syntax_task" / "evaluate.js"
    script.write_text(script.read_text() + "\nfunction broken( {\n", encoding="utf-8")
    (root / "corrupt_task" / "initial.sb3").write_bytes(b"this is no zip")
    return root


def test_scripts_that_do_not_parse_are_found_without_running_them(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    root = _library(tmp_path / "lib")
    tasks = [load_task(root / n) for n in ("create_cat_walk", "syntax_task", "corrupt_task")]
    problems = loop_thread.run(task_problems(tasks, browser_pool.context))
    found = {p.task.task.id: p.message for p in problems}
    assert set(found) == {"syntax_task", "corrupt_task"}
    assert found["syntax_task"].startswith("evaluate.js does not parse: SyntaxError: ")
    assert "initial project" in found["corrupt_task"] and "initial.sb3" in found["corrupt_task"]


def test_studio_run_reports_broken_tasks_as_task_problems_and_exits_1(
    tmp_path: Path,
    loop_thread: LoopThread,
    browser_pool: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import studio.app.campaigns.play as play

    root = _library(tmp_path / "lib")
    shutil.rmtree(root / "create_cat_walk")  # only broken tasks: no agent plays at all

    class Home:
        """The run's episode home, with the session's browser; no episode may start."""

        pool = browser_pool

        async def create(self, *_: Any, **__: Any) -> Any:
            raise AssertionError("an agent played a broken task")

    @contextlib.asynccontextmanager
    async def episodes(*_: Any) -> AsyncIterator[Home]:
        yield Home()

    monkeypatch.setattr(play, "episode_home", episodes)
    args = build_parser().parse_args(
        ["run", str(root), "--agent", "oracle", "--epochs", "2", "--out", str(tmp_path / "runs")]
    )
    code = loop_thread.run(run_campaign(args))
    out = capsys.readouterr().out
    assert code == 1
    assert "TASK PROBLEM corrupt_task: initial project" in out
    assert "TASK PROBLEM syntax_task: evaluate.js does not parse: SyntaxError" in out
    assert "2 task(s) not played (the task's problem, not the agent's)" in out
    runs = sorted((tmp_path / "runs").rglob(RUN_FILE))
    assert len(runs) == 4  # two tasks, two epochs
    for path in runs:
        assert RunInfo.model_validate_json(path.read_text()).meta["failure"] == "task"
    text = format_table(report_for(tmp_path / "runs"))
    assert "not counted in SR: 4 task failures" in text
    assert "agent" not in {
        RunInfo.model_validate_json(p.read_text()).meta.get("failure") for p in runs
    }
