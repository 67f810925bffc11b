"""Text mode (the text track) without a browser: actions, observation, all-or-nothing building.

The page is a stand-in (tests.helpers.program_page) that answers the calls text mode makes of
the editor: the VM's program, `saveProjectBase64` and `loadProjectBase64` (which it can be told
to refuse). The texts are read by the real scratchblocks parser (Node), as in the episodes.
The task is tests.helpers.tasks': the Cat changes x by 10 where the golden changes it by 100.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Mode, Observation
from studio.models.patch import ChangeEdit
from studio.models.text_action import ApplyText
from studio.services.core.blocks import find_target
from studio.services.core.blocktext.writing import render_target
from studio.services.core.patch import patch_between
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task
from studio.services.episodes.agents.llm import LlmAgent, LlmSettings, parse_reply, system_prompt
from studio.services.episodes.agents.oracle import OracleAgent
from studio.services.episodes.agents.random_agent import RandomAgent
from studio.services.episodes.agents.scripted import IdleAgent
from studio.services.episodes.handlers import make_handler, observation_summary
from studio.services.episodes.mode_registry import MODES
from studio.services.episodes.text_mode import TextMode
from tests.helpers.fake_llm_server import FakeLlmServer
from tests.helpers.program_page import FakeEditorPage
from tests.helpers.sample_task import project_json, sb3_bytes
from tests.helpers.tasks import cat_project, make_task

FIXED = "// sprite: Cat\nwhen flag clicked\ngo to x: (0) y: (0)\nchange x by (100)\n"


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def _apply(handler: TextMode, page: FakeEditorPage, text: str, **args: Any) -> Any:
    action = parse_action({"api": "apply_text", "args": {"text": text, **args}}, Mode.TEXT)
    return _run(handler.execute(page, action))


def _cat_text(page: FakeEditorPage) -> str:
    return render_target(find_target(page.project, "Cat"))


def _two_sprites() -> bytes:
    project = project_json({})
    cat = find_target(project, "Cat")
    project["targets"].append({**cat, "name": "Dog", "blocks": {}, "layerOrder": 2})
    return sb3_bytes(project)


def test_text_is_a_registered_mode_with_its_own_actions() -> None:
    assert "text" in MODES.names() and Mode("text") is Mode.TEXT
    action = parse_action({"api": "apply_text", "args": {"text": FIXED}}, Mode.TEXT)
    assert isinstance(action, ApplyText) and action.args.sprite is None
    assert parse_action({"api": "done"}, Mode.TEXT).api == "done"
    with pytest.raises(ActionError, match="unknown api 'apply_patch' in text mode"):
        parse_action({"api": "apply_patch", "args": {"edits": [{}]}}, Mode.TEXT)
    with pytest.raises(ActionError, match=r"apply_text: args\.text: String should have at least 1"):
        parse_action({"api": "apply_text", "args": {"text": ""}}, Mode.TEXT)
    with pytest.raises(ActionError, match=r"apply_text: args\.colour: Extra inputs"):
        parse_action({"api": "apply_text", "args": {"text": "x", "colour": 1}}, Mode.TEXT)


def test_debug_and_extend_tasks_show_the_program_create_tasks_only_the_targets(
    tmp_path: Path,
) -> None:
    page = FakeEditorPage(cat_project(10))
    debug = make_handler(Mode.TEXT, task=load_task(make_task(tmp_path / "d", category="debug")))
    obs = _run(debug.observe(page, 0))
    text = obs.text or ""
    assert obs.mode is Mode.TEXT
    assert text.startswith("Task (debug)\n  Make the Cat walk to x 100.\n\nProgram")
    assert "// stage\n\n// sprite: Cat\nwhen @greenFlag clicked\ngo to x: (0) y: (0)\n" in text
    assert "change x by (10)\n" in text and "Answer with apply_text" in text
    assert observation_summary(obs).endswith("lines of text")
    create = TextMode(load_task(make_task(tmp_path / "c", category="create")))
    shown = _run(create.observe(page, 0)).text or ""
    assert "Targets (write each one's scripts under its marker)\n// stage\n// sprite: Cat\n" in (
        shown
    )
    assert "change x by" not in shown  # a create task is written from the instruction alone
    assert "Task (" not in (_run(TextMode().observe(page, 0)).text or "")


def test_an_answer_replaces_the_marked_targets_scripts_through_the_vm_load(
    tmp_path: Path,
) -> None:
    page = FakeEditorPage(cat_project(10))
    handler = TextMode(load_task(make_task(tmp_path / "t")))
    outcome = _apply(handler, page, FIXED + "\nwhen this sprite clicked\nsay [hi]\n")
    assert page.loads == 1
    assert outcome.detail == {"scripts": 2, "targets": ["Cat"], "created": []}
    assert _cat_text(page) == (
        "when @greenFlag clicked\ngo to x: (0) y: (0)\nchange x by (100)\n\n"
        "when this sprite clicked\nsay [hi]"
    )
    # a second answer replaces the first; a new variable and a new sprite are created
    text = "// sprite: Cat\nwhen flag clicked\nset [score v] to (0)\n\n// sprite: Bat\nshow\n"
    outcome = _apply(handler, page, text)
    assert _cat_text(page) == "when @greenFlag clicked\nset [score v] to (0)"
    assert render_target(find_target(page.project, "Bat")) == "show"
    assert outcome.detail["created"] == ["variable 'score'", "sprite 'Bat'"]
    _apply(handler, page, "// sprite: Bat\n")  # a marker alone empties its target
    assert render_target(find_target(page.project, "Bat")) == ""
    assert _cat_text(page) == "when @greenFlag clicked\nset [score v] to (0)"  # not marked: kept


def test_blocks_the_answer_keeps_keep_their_ids_so_the_answer_reads_as_its_edits() -> None:
    page = FakeEditorPage(cat_project(10))
    _apply(TextMode(), page, FIXED)
    assert sorted(find_target(page.project, "Cat")["blocks"]) == ["flag", "goto", "move"]
    before = read_project_json(cat_project(10), "initial")
    assert patch_between(before, page.project) == [
        ChangeEdit(sprite="Cat", block_id="move", what="input:DX", value=[1, [4, "100"]])
    ]


def test_unmarked_text_goes_to_the_only_sprite_or_the_one_named(tmp_path: Path) -> None:
    page = FakeEditorPage(cat_project(10))
    outcome = _apply(TextMode(), page, "when flag clicked\nhide")
    assert outcome.detail["targets"] == ["Cat"] and _cat_text(page).endswith("\nhide")
    two = FakeEditorPage(_two_sprites())
    with pytest.raises(ActionError, match=r"line 1: .*belongs to no target.*2 sprites \(Cat, Dog"):
        _apply(TextMode(), two, "when flag clicked\nhide")
    assert two.loads == 0
    _apply(TextMode(), two, "when flag clicked\nhide", sprite="Dog")
    assert render_target(find_target(two.project, "Dog")) == "when @greenFlag clicked\nhide"
    assert render_target(find_target(two.project, "Cat")) == ""  # not marked: kept (empty)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("// sprite: Cat\nwhen flag clicked\nmove (10) steps\nend\n", r"line 4: .*end"),
        ("// sprite: Cat\nwhen flag clicked\nfly to the moon\n", r"line 3: unknown block"),
        ("// sprite: Cat\nwhen flag clicked\n(x position)\n", r"line 3: a reporter"),
        (
            "// stage\nwhen flag clicked\n\n// sprite: Cat\nhide\n<mouse down?>\n",
            r"line 6: .*reporter",
        ),
        ("// sprite: Cat\nsay [" + "a" * 20_000 + "]\n", r"line 2: .*10000"),
        ("// sprite: Cat\n" + "repeat (2)\n" * 400, r"line 2: .*nest more than 300 levels"),
        ("\n   \n", r"holds no block and marks no target"),
    ],
)
def test_an_answer_with_a_line_that_cannot_be_placed_is_refused_whole(
    text: str, named: str
) -> None:
    page = FakeEditorPage(cat_project(10))
    before = page.sb3
    with pytest.raises(ActionError, match=named) as caught:
        _apply(TextMode(), page, text)
    assert page.loads == 0 and page.sb3 == before
    if "line" in named:
        assert "apply_text: the answer" in str(caught.value)
        assert "nothing was built" in str(caught.value)


def test_a_built_program_the_vm_refuses_leaves_the_program_as_it_was() -> None:
    page = FakeEditorPage(cat_project(10))
    page.refuse = "the Scratch VM refused the project"
    with pytest.raises(ActionError, match=r"refused the built program .*nothing was applied"):
        _apply(TextMode(), page, FIXED)
    assert page.loads == 0


def test_the_oracle_answers_with_the_goldens_text_and_fails_when_refused(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "t", category="debug"))
    page = FakeEditorPage(cat_project(10))
    handler = TextMode(task)
    obs = _run(handler.observe(page, 0))
    oracle = OracleAgent(task)
    action, _ = _run(oracle.act(obs))
    assert action["api"] == "apply_text" and "// sprite: Cat\n" in action["args"]["text"]
    _apply(handler, page, action["args"]["text"])
    assert _cat_text(page).endswith("change x by (100)")  # the golden's program
    assert _run(oracle.act(obs))[0]["api"] == "done"
    refused = OracleAgent(task)
    _run(refused.act(obs))
    refused.feedback("apply_text: the answer: 1 line(s) cannot be placed")
    assert _run(refused.act(obs))[0]["api"] == "failed"
    no_golden = make_task(tmp_path / "ng", golden_project=None)
    alone = OracleAgent(load_task(no_golden))
    action, why = _run(alone.act(obs))
    assert action["api"] == "failed" and "no golden project" in why


def test_idle_answers_nothing_and_random_answers_valid_text(tmp_path: Path) -> None:
    obs = Observation(mode=Mode.TEXT, step=0, text="Targets\n// stage\n// sprite: Cat\n")
    assert _run(IdleAgent().act(obs))[0]["api"] == "done"
    agent = RandomAgent(seed=5)
    action, _ = _run(agent.act(obs))
    assert isinstance(parse_action(action, Mode.TEXT), ApplyText)
    page = FakeEditorPage(cat_project(10))
    _apply(TextMode(), page, action["args"]["text"])  # random text the reader can place
    assert page.loads == 1 and _run(agent.act(obs))[0]["api"] == "done"


def test_the_llm_agent_has_a_text_prompt_and_reads_a_scratchblocks_answer() -> None:
    prompt = system_prompt(Mode.TEXT)
    assert "scratchblocks" in prompt and "// sprite: NAME" in prompt
    reply = "The Cat must walk.\n```scratchblocks\n" + FIXED + "```\n"
    action, reasoning = parse_reply(reply, Mode.TEXT)
    assert action == {"api": "apply_text", "args": {"text": FIXED}}
    assert reasoning == "The Cat must walk."
    done, _ = parse_reply('All set.\n```json\n{"api": "done", "args": {}}\n```', Mode.TEXT)
    assert done == {"api": "done", "args": {}}


def test_an_llm_agent_answer_in_text_mode_is_built_into_the_program(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "t", category="debug"))
    page = FakeEditorPage(cat_project(10))
    handler = TextMode(task)
    obs = _run(handler.observe(page, 0))
    reply = "The step is too short.\n```scratchblocks\n" + FIXED + "```"
    with FakeLlmServer([reply]) as llm:
        settings = LlmSettings(url=llm.url, model="fake-model", retries=0)
        agent = LlmAgent(settings, Mode.TEXT, task.task.instruction)
        action, _ = _run(agent.act(obs))
    system, user = llm.requests[0]["messages"]
    assert system["content"] == system_prompt(Mode.TEXT)
    assert "// sprite: Cat\nwhen @greenFlag clicked" in user["content"]
    _run(handler.execute(page, parse_action(action, Mode.TEXT)))
    assert _cat_text(page).endswith("change x by (100)")
