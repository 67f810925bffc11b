"""Proposed scripts for real tasks, checked as `studio check` checks any script.

One shared browser (the session's pool). debug_score_reset, its own script removed: the
proposed script passes the golden program on 3 seeded reruns, fails the initial program and
kills mutants; a task whose programs behave the same gets a clear refusal and no script.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from studio.services.checking.checker import CheckOptions, TaskChecker
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.propose.model import ProposalError
from studio.services.propose.pipeline import ProposeOptions, propose, write_script
from studio.services.runtime.evaluator import Evaluator
from tests.helpers.tasks import cat_project, make_task

pytestmark = pytest.mark.browser
MUTANTS = 3
LIMIT_S = 900  # the machine the suite runs on may be loaded: a check is many evaluations


@pytest.fixture(scope="module")
def evaluator(browser_pool: Any) -> Evaluator:
    return Evaluator(browser_pool)


def test_a_debug_task_gets_a_script_that_catches_the_bug_and_kills_mutants(
    tmp_path: Path, loop_thread: Any, evaluator: Evaluator
) -> None:
    folder = tmp_path / "debug_score_reset"
    shutil.copytree(paths.BUNDLED_TASKS / "debug_score_reset", folder)
    (folder / "evaluate.js").write_text("", encoding="utf-8")  # the task's own script removed
    entry = load_task(folder)
    report = loop_thread.run(
        propose(evaluator, entry, ProposeOptions(mutants=MUTANTS)), timeout=LIMIT_S
    )
    data = report.to_json()
    assert data["golden_passed"] and data["initial_failed"]
    assert data["mutants_total"] == MUTANTS and data["mutants_killed"] >= 1
    assert all(t["words"] and t["kills"] >= 0 for t in data["tests"])
    assert sum(t["fails_initial"] for t in data["tests"]) >= 1

    written = write_script(entry, report.script, None, replace=False)
    assert written == folder / "evaluate.proposed.js"
    assert (folder / "evaluate.js").read_text() == ""
    shutil.copy(written, folder / "evaluate.js")
    checker = TaskChecker(evaluator, CheckOptions(mutants=MUTANTS, reruns=3))
    check = loop_thread.run(checker.check(load_task(folder)), timeout=LIMIT_S)
    assert check.golden_passed and check.initial_failed, check.errors
    assert not check.flaky
    assert check.mutants_killed == data["mutants_killed"]


def test_programs_that_behave_the_same_get_no_script(
    tmp_path: Path, loop_thread: Any, evaluator: Evaluator
) -> None:
    folder = make_task(tmp_path / "same")
    (folder / "initial.sb3").write_bytes(cat_project(100))
    with pytest.raises(ProposalError, match="behave the same under every scenario"):
        loop_thread.run(
            propose(evaluator, load_task(folder), ProposeOptions(mutants=0)), timeout=LIMIT_S
        )
    assert not (folder / "evaluate.proposed.js").exists()
