"""Composite-mode episodes on the real editor: observe, act through Blockly, the VM follows.

One EpisodeManager, on the session's shared browser, serves the whole module; each test opens
its own episodes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import ActionError, EpisodeStatus, Mode, Observation
from studio.models.trajectory import RunInfo
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.episodes.episode import Episode
from studio.services.episodes.manager import EpisodeManager
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

GAME_OVER = load_task(paths.BUNDLED_TASKS / "debug_game_over")  # Bug and Banner, scripts
CAT_WALK = load_task(paths.BUNDLED_TASKS / "create_cat_walk")  # one sprite Cat, no blocks
VM_BLOCK = (
    "(id) => { const b = vm.editingTarget.blocks.getBlock(id); return b ? "
    "{opcode: b.opcode, parent: b.parent, next: b.next, fields: b.fields} : null; }"
)


class Env:
    """Synchronous calls into one episode."""

    def __init__(self, loop: LoopThread, episode: Episode) -> None:
        self.loop, self.episode = loop, episode
        self.obs: Observation | None = None

    def observe(self) -> Observation:
        self.obs = self.loop.run(self.episode.observe())
        return self.obs

    def step(self, api: str, **args: Any) -> Any:
        return self.loop.run(self.episode.step({"api": api, "args": args}))

    def refused(self, api: str, match: str, **args: Any) -> None:
        with pytest.raises(ActionError, match=match):
            self.step(api, **args)

    def js(self, expr: str, arg: Any = None) -> Any:
        return self.loop.run(self.episode.page.evaluate(expr, arg))

    def index(self, opcode: str, nth: int = 0) -> int:
        assert self.obs is not None
        return [b.index for b in self.obs.blocks if b.opcode == opcode][nth]

    def block_id(self, index: int) -> str:
        assert self.obs is not None
        return next(b.id for b in self.obs.blocks if b.index == index)


@pytest.fixture
def open_env(manager: EpisodeManager, loop_thread: LoopThread) -> Iterator[Any]:
    opened: list[Episode] = []

    def make(task: Any = GAME_OVER, **kw: Any) -> Env:
        episode = loop_thread.run(manager.create(task, Mode.COMPOSITE, **kw))
        opened.append(episode)
        return Env(loop_thread, episode)

    yield make
    for episode in opened:
        if episode.id in {e.id for e in manager.list()}:
            loop_thread.run(manager.delete(episode.id))


def test_fix_a_task_step_by_step_and_evaluate(open_env: Any, tmp_path: Path) -> None:
    env = open_env(GAME_OVER, record_to=tmp_path / "traj", agent_name="test")
    obs = env.observe()
    assert obs.editing_target == "Bug" and obs.text is not None
    assert obs.text.startswith("## Current Editing Target\nBug\n")
    assert "## All Available Targets\nStage, Bug, Banner\n" in obs.text
    assert "#5 [top] event_whenthisspriteclicked\n#6 data_changevariableby\n" in obs.text
    assert '- input BROADCAST_INPUT: "game over" (event_broadcast_menu)' in obs.text

    added = env.step("add_block", blockType="event_broadcast")
    assert len(added.change.added) == 1 and added.change.added[0].startswith("Bug: broadcast")
    env.refused("set_block_field", "observe again", blockIndex=13, fieldName="X", value=1)

    env.observe()
    new = env.index("event_broadcast", 1)
    assert new == 13 and env.obs is not None and env.obs.blocks[-1].parent is None
    changed = env.step(
        "set_block_field", blockIndex=new, fieldName="BROADCAST_INPUT", value="game over"
    )
    assert changed.change.fields_changed == [
        "Bug: broadcast game over (input BROADCAST_INPUT: check lives -> game over)"
    ]
    env.observe()
    env.step("set_block_field", blockIndex=new, fieldName="BROADCAST_INPUT", value="check lives")
    env.observe()
    moved = env.step(
        "connect_blocks",
        sourceBlockIndex=new,
        targetBlockIndex=6,
        placement={"kind": "stack_after"},
    )
    assert moved.change.moved == ["Bug: broadcast check lives"]
    vm_block = env.js(VM_BLOCK, env.block_id(new))
    assert vm_block["parent"] == env.block_id(6) and vm_block["opcode"] == "event_broadcast"
    obs = env.observe()
    assert "#6 data_changevariableby" in (obs.text or "")
    assert "#7 event_broadcast" in (obs.text or "")

    done = env.step("done")
    assert done.status_after is EpisodeStatus.DONE and env.episode.status is EpisodeStatus.DONE
    env.refused("add_block", "has ended", blockType="looks_show")
    result = env.loop.run(env.episode.evaluate())
    assert result.success, result.details

    folder = tmp_path / "traj"
    lines = (folder / "steps.jsonl").read_text().splitlines()
    assert [json.loads(line)["ok"] for line in lines] == [True, False, True, True, True, True]
    assert all((folder / f"step_{i:04d}.png").is_file() for i in range(1, 7))
    run = RunInfo.model_validate_json((folder / "run.json").read_text())
    assert run.status is EpisodeStatus.DONE and run.steps == 6 and run.agent == "test"
    assert run.eval is not None and run.eval.success and run.ended_at is not None
    assert (folder / "final.sb3").read_bytes()[:2] == b"PK" and (folder / "final.png").is_file()


def test_bad_actions_are_refused_and_the_episode_stays_usable(open_env: Any) -> None:
    env = open_env(GAME_OVER, step_limit=40)
    env.refused("delete_block", "observe first", blockIndex=1)
    env.refused("click", "unknown api 'click' in composite mode", x=1, y=2)
    env.refused("connect_blocks", "placement", sourceBlockIndex=1, targetBlockIndex=2)
    env.refused("add_block", "did you mean control_forever", blockType="control_forevr")
    env.observe()
    hat, if_block = env.index("event_whenbroadcastreceived"), env.index("control_if")
    env.refused(
        "delete_block",
        r"no block #99 in the last observation \(it showed #1 to #12\)",
        blockIndex=99,
    )
    env.refused(
        "set_block_field",
        'no field or input "FOO"; fields: BROADCAST_OPTION',
        blockIndex=hat,
        fieldName="FOO",
        value=1,
    )
    env.refused(
        "set_block_field",
        "give the name of a broadcast_msg",
        blockIndex=hat,
        fieldName="BROADCAST_OPTION",
        value=None,
    )
    env.refused(
        "set_block_field",
        "is not a number",
        blockIndex=env.index("motion_gotoxy"),
        fieldName="X",
        value="far",
    )
    env.refused(
        "set_block_field",
        "holds a data_variable block",
        blockIndex=env.index("operator_equals"),
        fieldName="OPERAND1",
        value=3,
    )
    env.refused(
        "connect_blocks",
        'has no value input "NOPE"; its value inputs: CONDITION',
        sourceBlockIndex=env.index("operator_equals"),
        targetBlockIndex=if_block,
        placement={"kind": "value_into", "inputName": "NOPE"},
    )
    env.refused(
        "connect_blocks",
        "cannot go below another block",
        sourceBlockIndex=hat,
        targetBlockIndex=env.index("looks_show"),
        placement={"kind": "stack_after"},
    )
    env.refused(
        "connect_blocks",
        "part of the source block's own stack",
        sourceBlockIndex=if_block,
        targetBlockIndex=env.index("looks_hide"),
        placement={"kind": "stack_after"},
    )
    env.refused(
        "add_block",
        'no variable named "nope"',
        blockType="data_variable",
        creation={"variableName": "nope"},
    )
    env.refused("select_sprite", "sprites: Bug, Banner", name="Dog")
    env.refused("add_variable", "already exists", name="lives", scope="sprite")

    env.step("add_block", blockType="motion_xposition")
    env.observe()
    env.refused(
        "connect_blocks",
        "takes only a boolean",
        sourceBlockIndex=env.index("motion_xposition"),
        targetBlockIndex=if_block,
        placement={"kind": "value_into", "inputName": "CONDITION"},
    )
    env.refused(
        "connect_blocks",
        "no statement input",
        sourceBlockIndex=env.index("looks_show"),
        targetBlockIndex=env.index("looks_hide"),
        placement={"kind": "statement_into", "inputName": "SUBSTACK"},
    )
    ok = env.step("delete_block", blockIndex=env.index("motion_xposition"))
    assert ok.ok and ok.change.removed == ["Bug: x position"]
    assert env.episode.running and env.episode.step_count == 19


def test_the_step_limit_ends_an_episode(open_env: Any) -> None:
    env = open_env(CAT_WALK, step_limit=2)
    env.step("add_block", blockType="looks_show")
    last = env.step("add_block", blockType="looks_hide")
    assert last.status_after is EpisodeStatus.STEP_LIMIT
    env.refused("done", "has ended")
    assert len(env.observe().blocks) == 2  # observing after the end is allowed


def test_layout_targets_data_and_the_stage(open_env: Any) -> None:
    env = open_env(GAME_OVER)
    layout = env.js(
        """() => { const ws = window.workspace; const tb = ws.getToolbox();
        const first = ws.getTopBlocks(false)[0].getSvgRoot().getBoundingClientRect();
        const fly = document.querySelector('.blocklyFlyout').getBoundingClientRect();
        return {target: vm.editingTarget.getName(), category: tb.getSelectedItem().getId(),
                dx: first.left - fly.right, dy: first.top - fly.top}; }"""
    )
    assert layout["target"] == "Bug" and layout["category"] == "motion"
    assert 0 <= layout["dx"] < 120 and 0 <= layout["dy"] < 120, layout

    env.step("select_sprite", name="Banner")
    obs = env.observe()
    assert obs.editing_target == "Banner"
    assert (obs.text or "").count("[top]") == 2
    env.step("add_variable", name="speed", scope="sprite")
    env.step("add_list", name="items", scope="all")
    obs = env.observe()
    assert "name: lives, scope: all\nname: speed, scope: sprite\n" in (obs.text or "")
    assert "## Target Lists In Scope\nname: items, scope: all\n" in (obs.text or "")
    env.step("add_block", blockType="data_listcontents", creation={"listName": "items"})
    env.step("add_block", blockType="data_addtolist")
    obs = env.observe()
    assert [b.opcode for b in obs.blocks][-2:] == ["data_listcontents", "data_addtolist"]
    variables = env.js(
        "() => Object.values(vm.editingTarget.variables).map((v) => [v.name, v.type])"
    )
    assert ["speed", ""] in variables

    env.step("select_stage")
    obs = env.observe()
    assert obs.editing_target == "Stage" and obs.blocks == []
    assert "name: speed" not in (obs.text or "")
    env.refused("add_block", "not available for the Stage", blockType="motion_movesteps")
    env.step("add_block", blockType="event_whenstageclicked")
    assert env.js("() => vm.runtime.getTargetForStage().blocks.getScripts().length") == 1


def test_wrap_detach_and_delete_heal_the_stack(open_env: Any) -> None:
    env = open_env(GAME_OVER)
    env.step("add_block", blockType="control_repeat")
    env.observe()
    repeat, goto = env.index("control_repeat"), env.index("motion_gotoxy")
    env.step(
        "connect_blocks", sourceBlockIndex=repeat, targetBlockIndex=goto, placement={"kind": "wrap"}
    )
    text = env.observe().text or ""
    assert (
        "#3 control_repeat\n- input TIMES: 10 (math_whole_number)\n- SUBSTACK:\n"
        "  #4 motion_gotoxy\n" in text
    )
    assert "  #5 looks_show\n" in text
    env.step("detach_blocks", blockIndex=env.index("looks_show"))
    env.observe()
    assert env.obs is not None and env.obs.blocks[-1].opcode == "looks_show"
    assert env.obs.blocks[-1].parent is None
    env.step("delete_block", blockIndex=env.index("control_repeat"))  # takes the goto with it
    env.observe()
    setter = env.index("data_setvariableto")
    assert [b.opcode for b in env.obs.blocks][:3] == [
        "event_whenflagclicked",
        "data_setvariableto",
        "event_whenthisspriteclicked",
    ]
    env.step("delete_block", blockIndex=setter)  # the blocks below close up (none here)
    env.observe()
    env.step(
        "connect_blocks",
        sourceBlockIndex=env.index("looks_show"),
        targetBlockIndex=env.index("event_whenflagclicked"),
        placement={"kind": "stack_after"},
    )
    text = env.observe().text or ""
    assert text.split("## Blocks Pseudocode\n")[1].startswith(
        "#1 [top] event_whenflagclicked\n#2 looks_show\n\n#3 [top] event_whenthisspriteclicked"
    )
    assert env.js("() => Object.keys(vm.editingTarget.blocks._blocks).length") > 0


def test_episodes_side_by_side(open_env: Any, manager: EpisodeManager) -> None:
    a, b = open_env(CAT_WALK), open_env(CAT_WALK)
    a.step("add_block", blockType="looks_show")
    assert len(a.observe().blocks) == 1 and b.observe().blocks == []
    assert {a.episode.id, b.episode.id} <= {e.id for e in manager.list()}
    assert manager.get(b.episode.id) is b.episode
    a.loop.run(manager.delete(a.episode.id))
    with pytest.raises(KeyError):
        manager.get(a.episode.id)
    assert a.episode.status is EpisodeStatus.CLOSED
    b.step("add_block", blockType="looks_hide")
    assert [x.opcode for x in b.observe().blocks] == ["looks_hide"]
