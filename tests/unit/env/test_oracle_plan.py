"""The oracle's planning, run against a pure-Python editor stand-in on every bundled task."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import BlockInfo, Mode
from studio.services.core import paths
from studio.services.core.blocks import target_name
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder, scan_library
from studio.services.episodes.agents.oracle import OracleAgent, data_actions, targets_to_edit
from studio.services.episodes.agents.oracle_plan import (
    expand_reporters,
    golden_order,
    live_blocks,
    pair_blocks,
)
from tests.unit.env.composite_sim import EditorSim, templates

TASKS = scan_library(paths.BUNDLED_TASKS).tasks


@cache
def _projects(task_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    entry = next(t for t in TASKS if t.task.id == task_id)
    assert entry.golden_path is not None
    return load_sb3(entry.initial_path)[1], load_sb3(entry.golden_path)[1]


@cache
def _templates() -> dict[str, Any]:
    return templates([p for t in TASKS for p in _projects(t.task.id)])


def _solve(task: TaskFolder) -> tuple[EditorSim, list[dict[str, Any]]]:
    initial, _ = _projects(task.task.id)
    sim = EditorSim(initial, _templates())
    agent = OracleAgent(task)
    actions: list[dict[str, Any]] = []

    async def loop() -> None:
        for step in range(200):
            obs = sim.observe(step)
            action, _why = await agent.act(obs)
            parse_action(action, Mode.COMPOSITE)
            actions.append(action)
            if action["api"] in ("done", "failed"):
                return
            sim.apply(action, obs)
        raise AssertionError("the oracle did not finish in 200 steps")

    asyncio.run(loop())
    return sim, actions


@pytest.mark.parametrize("task", TASKS, ids=[t.task.id for t in TASKS])
def test_oracle_rebuilds_the_golden_program(task: TaskFolder) -> None:
    sim, actions = _solve(task)
    assert actions[-1]["api"] == "done"
    golden = EditorSim(_projects(task.task.id)[1], _templates())
    for name in golden.order:
        assert sim.scripts_text(name) == golden.scripts_text(name), name


def test_oracle_fixes_a_flipped_comparator_by_replacing_the_block() -> None:
    task = next(t for t in TASKS if t.task.id == "debug_rocket_comparator")
    _sim, actions = _solve(task)
    apis = [a["api"] for a in actions]
    assert apis[0] == "add_block" and actions[0]["args"]["blockType"] == "operator_gt"
    assert "delete_block" in apis and apis[-1] == "done"
    assert len(actions) < 10


def test_oracle_creates_missing_variables_first() -> None:
    task = next(t for t in TASKS if t.task.id == "compute_sum_to_n")
    sim, actions = _solve(task)
    assert [a["api"] for a in actions[:2]] == ["add_variable", "add_variable"]
    assert {a["args"]["name"] for a in actions[:2]} == {"total", "counter"}
    assert all(a["args"]["scope"] == "all" for a in actions[:2])
    assert ("variable", "total") in sim.data


def test_data_actions_and_targets_to_edit() -> None:
    initial, golden = _projects("extend_balloon_pops")
    assert data_actions(initial, golden) == {
        None: [{"api": "add_variable", "args": {"name": "pops", "scope": "all"}}]
    }
    assert targets_to_edit(initial, golden) == ["Balloon"]
    initial, golden = _projects("extend_rain_clones")
    assert targets_to_edit(initial, golden) == ["Cloud", "Drop"]


def test_oracle_says_failed_without_a_golden_project(tmp_path: Any) -> None:
    task = TASKS[0]
    bare = TaskFolder(task.task.model_copy(update={"golden_project": None}), task.folder)
    agent = OracleAgent(bare)
    sim = EditorSim(_projects(task.task.id)[0], _templates())
    action, why = asyncio.run(agent.act(sim.observe()))
    assert action["api"] == "failed" and "golden" in why


def test_expand_reporters_turns_compact_variables_into_blocks() -> None:
    blocks: dict[str, Any] = {
        "say": {
            "opcode": "looks_say",
            "next": None,
            "parent": None,
            "inputs": {"MESSAGE": [3, [12, "score", "v1"], [10, "hi"]]},
            "fields": {},
            "shadow": False,
            "topLevel": True,
        },
        "loose": [13, "items", "l1", 10, 20],
    }
    out = expand_reporters(blocks)
    assert out["say"]["inputs"]["MESSAGE"] == [3, "say.MESSAGE", [10, "hi"]]
    assert out["say.MESSAGE"]["opcode"] == "data_variable"
    assert out["say.MESSAGE"]["fields"]["VARIABLE"] == ["score", "v1"]
    assert out["say.MESSAGE"]["parent"] == "say"
    assert out["loose"]["opcode"] == "data_listcontents" and out["loose"]["topLevel"]
    assert blocks["say"]["inputs"]["MESSAGE"][1] == [12, "score", "v1"]  # input left alone


def test_live_blocks_rebuild_links_from_an_observation() -> None:
    infos = [
        BlockInfo(index=1, id="a", opcode="event_whenflagclicked"),
        BlockInfo(
            index=2,
            id="b",
            opcode="control_repeat",
            parent=1,
            slot="next",
            inputs={"TIMES": "10", "SUBSTACK": None},
        ),
        BlockInfo(
            index=3,
            id="c",
            opcode="motion_movesteps",
            parent=2,
            slot="SUBSTACK",
            inputs={"STEPS": "5"},
        ),
    ]
    live = live_blocks(infos)
    assert live["a"]["next"] == "b" and live["b"]["parent"] == "a"
    assert live["b"]["inputs"]["SUBSTACK"] == [2, "c"]
    assert live["b"]["inputs"]["TIMES"] == [1, [10, "10"]]
    assert live["c"]["parent"] == "b" and live["a"]["topLevel"]


def test_pairing_keeps_unchanged_blocks_and_skips_opcode_swaps() -> None:
    initial, golden = _projects("debug_rocket_comparator")
    names = [target_name(t) for t in golden["targets"]]
    rocket = golden["targets"][names.index("Rocket")]
    g = expand_reporters(rocket["blocks"])
    sim = EditorSim(initial, _templates())
    sim.current = "Rocket"
    live = live_blocks(sim.observe().blocks)
    pairs = pair_blocks(live, g)
    opcodes = {g[k]["opcode"] for k in pairs}
    assert "operator_gt" not in opcodes  # the flipped comparator is replaced, not kept
    assert {"event_whenflagclicked", "control_repeat_until", "motion_yposition"} <= opcodes
    order = [g[b]["opcode"] for b in golden_order(g)]
    assert order[:3] == ["event_whenflagclicked", "motion_gotoxy", "control_repeat_until"]
