"""Execution verdicts of NL2Scratch predictions (`studio nl2scratch score --tasks`): each
prediction built into its imported task's project and judged by the task's own script in the
real editor VM; a right program passes, a wrong one fails, a line that cannot be placed is
a failure that names the line, and a key without a task gets no verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.services.formats.nl2scratch.execution import execute, imported_tasks
from studio.services.formats.nl2scratch.score import add_verdicts, score_pairs
from studio.services.runtime.evaluator import Evaluator

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
KEY = "cat_walk:sprite:Cat:0"
RIGHT = [
    "when flag clicked",
    "go to x: (-100) y: (0)",
    "repeat (10)",
    "    move (15) steps",
    "    wait (0.1) seconds",
    "end",
]
WRONG = ["when flag clicked", "go to x: (-100) y: (0)", "move (150) steps"]
BROKEN = ["when flag clicked", "fly (10) steps"]


def _library(tmp_path: Path) -> Path:
    """The bundled create_cat_walk as if imported from an NL2Scratch row keyed KEY."""
    folder = tmp_path / "lib" / "cat_walk"
    shutil.copytree(ROOT / "tasks" / "create_cat_walk", folder)
    task = json.loads((folder / "task.json").read_text("utf-8"))
    task["metadata"]["nl2scratch"] = {"key": KEY, "nl": task["instruction"], "sprite": "Cat",
                                      "pseudocode": RIGHT}  # fmt: skip
    (folder / "task.json").write_text(json.dumps(task), "utf-8")
    return tmp_path / "lib"


def test_predictions_are_judged_by_their_tasks_script(
    tmp_path: Path,
    loop_thread,  # type: ignore[no-untyped-def]
    browser_pool,  # type: ignore[no-untyped-def]
) -> None:
    tasks, unreadable = imported_tasks(_library(tmp_path))
    assert list(tasks) == [KEY] and unreadable == []
    evaluator = Evaluator(browser_pool)
    judged = {}
    for name, lines in (("right", RIGHT), ("wrong", WRONG), ("broken", BROKEN)):
        verdicts = loop_thread.run(execute(evaluator, [(KEY, lines), ("other", RIGHT)], tasks))
        assert set(verdicts) == {KEY}  # the key without a task gets no verdict
        judged[name] = verdicts[KEY]
    right, wrong, broken = judged["right"], judged["wrong"], judged["broken"]
    assert right.passed and right.error is None and right.passed_tests == right.total_tests > 0
    assert right.clock == "virtual"
    assert not wrong.passed and wrong.error is None and wrong.passed_tests < wrong.total_tests
    assert not broken.passed and broken.total_tests == 0
    assert broken.error is not None and broken.error.startswith("does not build: line 2")

    scores = score_pairs([(KEY, RIGHT, RIGHT), ("other", WRONG, RIGHT)])
    add_verdicts(scores, {KEY: right})
    assert scores.totals["executed"] == 1.0 and scores.totals["execution_pass_rate"] == 1.0
    first, other = scores.rows
    assert first.execution is not None and first.execution["passed"] is True
    assert other.execution is None
