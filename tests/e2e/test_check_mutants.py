"""`studio check` with mutants and reruns, as a user runs it (the command line, in the test's
process: `python -m studio check` as a process of its own is run in tests/e2e/test_cli.py's
first test and tests/e2e/test_published_set.py).

That the next check honours a mark made with `studio equivalent` is shown on the checker in
tests/unit/test_check_logic.py (a second browser run here would show nothing more).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.services.core.store import load_task
from tests.helpers.cli import studio_here
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

WEAK_SCRIPT = """module.exports = async (vm, config, cleanup) => EvaluationUtils.runTests(vm, [
  { name: 'Cat exists', run: async () => { EvaluationUtils.requireSprite(vm, 'Cat'); } },
], { cleanup });
"""

COIN_SCRIPT = """module.exports = async (vm) => {
  const heads = Math.random() < 0.5;
  return { success: heads, details: [{ name: 'coin', passed: heads }] };
};
"""


def test_weak_script_lists_survivors_and_equivalence_is_kept(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "weak", task_id="weak", script=WEAK_SCRIPT)
    out = studio_here("check", str(folder), "--json", "--mutants", "3", "--reruns", "1")
    assert out.returncode == 1, out.stderr
    task = json.loads(out.stdout)["tasks"][0]
    assert task["verdict"] == "weak" and task["golden_passed"]
    assert task["mutants_total"] == 3 and task["mutants_killed"] == 0
    assert task["mutants_equivalent"] == 0
    survivor = task["survivors"][0]
    assert {"operator", "block_id", "description", "equivalent_reason"} <= set(survivor)
    assert survivor["description"] and survivor["equivalent_reason"] is None

    mark = studio_here(
        "equivalent",
        str(folder),
        survivor["id"],
        "--reason",
        "only position differs",
        "--by",
        "tester",
    )
    assert mark.returncode == 0, mark.stderr
    saved = load_task(folder).task.equivalent_mutants
    assert [(m.mutant_id, m.reason, m.by) for m in saved] == [
        (survivor["id"], "only position differs", "tester")
    ]


def test_reruns_expose_a_flaky_script(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "coin", task_id="coin", script=COIN_SCRIPT)
    # reruns are seeded (seed + i): seeds 0 and 1 throw different coins, every time
    out = studio_here("check", str(folder), "--json", "--mutants", "0", "--reruns", "2")
    assert out.returncode == 1
    task = json.loads(out.stdout)["tasks"][0]
    flaky = {(f["project"], f["test"]) for f in task["flaky"]}
    assert ("golden", "coin") in flaky
    assert task["verdict"] in {"invalid", "flaky"}


def test_good_script_kills_its_mutants_in_text_output(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "good", task_id="good")
    out = studio_here("check", str(folder), "--mutants", "3", "--reruns", "2")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "mutants 3/3 killed" in out.stdout
    assert "mutation kill rate 100%" in out.stdout
