"""The forge on a bundled golden in the real editor and VM, checked independently after.

One shared browser (the session's pool). debug_score_reset with R = 3: every kept bug is a
whole debug task whose initial program fails and whose golden passes an independent check
(`TaskChecker`, its own reruns, no mutants), with the same verdict on every rerun, and the
inverse patch applied to the bugged program passes the task's script; a golden
whose script cannot run is named and nothing is forged from it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import Clock
from studio.models.forge import BugRecord
from studio.services.checking.checker import CheckOptions, TaskChecker
from studio.services.checking.mutation import mutant_sb3
from studio.services.core import paths
from studio.services.core.patch import apply_patch, parse_patch
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task
from studio.services.forge.pipeline import ForgeOptions, forge_golden
from studio.services.runtime.evaluator import Evaluator

pytestmark = pytest.mark.browser
LIMIT_S = 900  # the machine the suite runs on may be loaded


@pytest.fixture(scope="module")
def evaluator(browser_pool: Any) -> Evaluator:
    return Evaluator(browser_pool)


def test_forged_tasks_pass_an_independent_check(
    tmp_path: Path, loop_thread: Any, evaluator: Evaluator
) -> None:
    golden = load_task(
        shutil.copytree(paths.BUNDLED_TASKS / "debug_score_reset", tmp_path / "debug_score_reset")
    )
    out = tmp_path / "forged"
    opts = ForgeOptions(reruns=3, per_golden=2, tries=4, derive=False)
    outcome = loop_thread.run(forge_golden(evaluator, golden, out, opts), timeout=LIMIT_S)
    assert outcome.error is None and outcome.kept == 2, outcome
    checker = TaskChecker(evaluator, CheckOptions(mutants=0, reruns=3))
    for task_id, record in outcome.records.items():
        assert BugRecord.model_validate_json((out / task_id / "bug.json").read_text()) == record
        check = loop_thread.run(checker.check(load_task(out / task_id)), timeout=LIMIT_S)
        assert check.golden_passed and check.initial_failed, (task_id, check.errors)
        assert not check.flaky, task_id
        # the inverse patch applied to the bugged program passes the task (the oracle's answer)
        entry = load_task(out / task_id)
        bugged = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
        fixed = apply_patch(bugged, parse_patch(record.inverse_patch))
        data = mutant_sb3(entry.initial_path.read_bytes(), fixed)
        result = loop_thread.run(
            evaluator.evaluate(entry, data, project_name="fixed.sb3", clock=Clock.VIRTUAL),
            timeout=LIMIT_S,
        )
        assert result.success, (task_id, result.details, result.error)


def test_a_golden_whose_script_cannot_run_is_named(
    tmp_path: Path, loop_thread: Any, evaluator: Evaluator
) -> None:
    folder = shutil.copytree(paths.BUNDLED_TASKS / "debug_score_reset", tmp_path / "broken")
    (folder / "evaluate.js").write_text("module.exports = async (vm) => {{ oops", "utf-8")
    opts = ForgeOptions(reruns=1, per_golden=1, tries=2, derive=False)
    outcome = loop_thread.run(
        forge_golden(evaluator, load_task(folder), tmp_path / "out", opts), timeout=LIMIT_S
    )
    assert "the script cannot run" in (outcome.error or ""), outcome
    assert outcome.kept == 0 and not list((tmp_path / "out").glob("*/task.json"))
