"""Patch mode (the repair track) without a browser: actions, observation, all-or-nothing apply.

The page is a stand-in (tests.helpers.program_page) that answers the three calls patch mode
makes of the editor: the VM's program, `saveProjectBase64` and `loadProjectBase64` (which it can
be told to refuse, as the VM does a project it cannot load). The task is tests.helpers.tasks': the
Cat's move block changes x by 10 where the golden changes it by 100.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Mode
from studio.models.patch_action import ApplyPatch
from studio.services.core.errors import TaskFileError
from studio.services.core.store import load_task
from studio.services.episodes.agents.oracle import OracleAgent
from studio.services.episodes.agents.random_agent import RandomAgent
from studio.services.episodes.handlers import make_handler, observation_summary
from studio.services.episodes.mode_registry import MODES
from studio.services.episodes.patch_mode import PatchMode
from tests.helpers.program_page import FakeEditorPage
from tests.helpers.tasks import cat_project, make_task

FIX = {"op": "change", "sprite": "Cat", "block_id": "move", "what": "input:DX",
       "value": [1, [4, "100"]]}  # fmt: skip
REPORT = {"symptom": "the Cat stops at x 10", "expected": "the Cat walks to x 100",
          "trigger": "green flag", "triggers": ["green_flag"]}  # fmt: skip


def _record(folder: Path, inverse: list[dict[str, Any]]) -> None:
    record = {
        "golden_task": "cat_walks", "mechanism": "incorrect_conditional_logic",
        "operator": "CNT", "description": "the step changed", "site": {"sprite": "Cat",
        "block_ids": ["move"]}, "inverse_patch": inverse, "failing_tests": [], "tests_from": "own",
        "reruns": 5, "golden_pass_rate": 1.0, "bugged_pass_rate": 0.0, "report": REPORT,
    }  # fmt: skip
    (folder / "bug.json").write_text(json.dumps(record), encoding="utf-8")


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_patch_is_a_registered_mode_with_its_own_actions() -> None:
    assert "patch" in MODES.names() and Mode("patch") is Mode.PATCH
    action = parse_action({"api": "apply_patch", "args": {"edits": [FIX]}}, Mode.PATCH)
    assert isinstance(action, ApplyPatch) and action.args.edits == [FIX]
    assert parse_action({"api": "done"}, Mode.PATCH).api == "done"
    with pytest.raises(ActionError, match="unknown api 'delete_block' in patch mode"):
        parse_action({"api": "delete_block", "args": {"blockIndex": 1}}, Mode.PATCH)
    with pytest.raises(ActionError, match=r"apply_patch: args\.edits: List should have at least 1"):
        parse_action({"api": "apply_patch", "args": {"edits": []}}, Mode.PATCH)


def test_the_observation_is_the_program_with_block_ids_and_the_bug_report(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t", category="debug")
    _record(folder, [FIX])
    handler = make_handler(Mode.PATCH, task=load_task(folder))
    assert isinstance(handler, PatchMode)
    obs = _run(handler.observe(FakeEditorPage(cat_project(10)), 0))
    assert obs.mode is Mode.PATCH and obs.report == REPORT
    assert obs.program is not None and obs.program["Cat"]["move"]["opcode"] == "motion_changexby"
    text = obs.text or ""
    assert text.startswith("Bug report\n  Symptom: the Cat stops at x 10")
    assert "== Cat ==\n[flag] when flag clicked\n[goto] go to x: (0) y: (0)\n[move]" in text
    assert "mechanism" not in text and "incorrect" not in text  # the ground truth stays hidden
    assert observation_summary(obs) == "2 targets, 3 blocks, bug report"
    bare = make_handler(Mode.PATCH, task=load_task(make_task(tmp_path / "plain")))
    plain = _run(bare.observe(FakeEditorPage(cat_project(10)), 0))
    assert plain.report is None and (plain.text or "").startswith("Program")


def test_a_patch_that_applies_replaces_the_program_through_the_vm_load(tmp_path: Path) -> None:
    page = FakeEditorPage(cat_project(10))
    handler = PatchMode(load_task(make_task(tmp_path / "t")))
    action = parse_action({"api": "apply_patch", "args": {"edits": [FIX]}}, Mode.PATCH)
    outcome = _run(handler.execute(page, action))
    assert page.loads == 1 and outcome.detail == {"edits": 1, "sprites": ["Cat"]}
    cat = next(t for t in page.project["targets"] if t["name"] == "Cat")
    assert cat["blocks"]["move"]["inputs"]["DX"] == [1, [4, "100"]]


@pytest.mark.parametrize(
    ("second", "named"),
    [
        ({"op": "remove", "sprite": "Cat", "block_id": "nope"}, "edit 2 .*no block 'nope'"),
        ({"op": "remove", "sprite": "Dog", "block_id": "move"}, "edit 2 .*no sprite named 'Dog'"),
        (
            {"op": "change", "sprite": "Cat", "block_id": "move", "what": "opcode", "value": "x_y"},
            "edit 2 .*x_y",
        ),
        ({"op": "swap", "sprite": "Cat", "block_id": "move"}, "edit 2"),
    ],
)
def test_a_patch_that_does_not_apply_is_a_named_failure_and_changes_nothing(
    tmp_path: Path, second: dict[str, Any], named: str
) -> None:
    page = FakeEditorPage(cat_project(10))
    before = page.sb3
    handler = PatchMode(load_task(make_task(tmp_path / "t")))
    action = parse_action({"api": "apply_patch", "args": {"edits": [FIX, second]}}, Mode.PATCH)
    with pytest.raises(ActionError, match=named):
        _run(handler.execute(page, action))
    assert page.loads == 0 and page.sb3 == before  # the first edit was not applied either


def test_a_patched_program_the_vm_refuses_leaves_the_program_as_it_was(tmp_path: Path) -> None:
    page = FakeEditorPage(cat_project(10))
    page.refuse = "the Scratch VM refused the project"
    handler = PatchMode(load_task(make_task(tmp_path / "t")))
    action = parse_action({"api": "apply_patch", "args": {"edits": [FIX]}}, Mode.PATCH)
    with pytest.raises(ActionError, match=r"refused the patched program .*nothing was applied"):
        _run(handler.execute(page, action))
    assert page.loads == 0


def test_a_broken_bug_record_is_named(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t", category="debug")
    (folder / "bug.json").write_text('{"report": 1}', encoding="utf-8")
    with pytest.raises(TaskFileError, match=r"bug\.json: not a valid bug record"):
        make_handler(Mode.PATCH, task=load_task(folder))


def test_the_oracle_answers_with_the_inverse_patch_or_the_initial_to_golden_patch(
    tmp_path: Path,
) -> None:
    forged = make_task(tmp_path / "forged", category="debug")
    inverse = {**FIX, "value": [1, [4, "55"]]}  # the record wins over initial -> golden
    _record(forged, [inverse])
    page = FakeEditorPage(cat_project(10))
    obs = _run(PatchMode(load_task(forged)).observe(page, 0))
    oracle = OracleAgent(load_task(forged))
    first, _ = _run(oracle.act(obs))
    assert first == {"api": "apply_patch", "args": {"edits": [inverse]}}
    assert _run(oracle.act(obs))[0]["api"] == "done"
    plain = OracleAgent(load_task(make_task(tmp_path / "plain", category="debug")))
    (edit,) = _run(plain.act(obs))[0]["args"]["edits"]
    assert (edit["op"], edit["block_id"], edit["what"]) == ("change", "move", "input:DX")
    refused = OracleAgent(load_task(forged))
    _run(refused.act(obs))
    refused.feedback("apply_patch: edit 1: no block")
    assert _run(refused.act(obs))[0]["api"] == "failed"


def test_the_random_agent_sends_one_edit_patches(tmp_path: Path) -> None:
    obs = _run(PatchMode().observe(FakeEditorPage(cat_project(10)), 0))
    agent = RandomAgent(seed=3)
    for _ in range(5):
        action, _why = _run(agent.act(obs))
        parsed = parse_action(action, Mode.PATCH)
        assert isinstance(parsed, ApplyPatch) and len(parsed.args.edits) == 1
