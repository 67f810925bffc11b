"""The oracle in primitive mode: it rebuilds the golden program with real drags from the
palette, typed values and dropdown choices, seeing only screenshots' element lists, and the
final program passes the task's evaluation. The idle agent fails the same task."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import PRIMITIVE_APIS, Mode
from studio.models.evaluation import Clock
from studio.services.core import paths
from studio.services.core.blocks import block_items
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.agents import IdleAgent, OracleAgent, run_episode
from studio.services.episodes.manager import EpisodeManager
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

# the bar (the create tasks), and the task with the most kinds of placement: variables
# made through the dialog, reporters in slots, a condition, an if inside a repeat
TASK_IDS = ["create_cat_walk", "create_arrow_keys", "create_button_click", "compute_count_vowels"]


@pytest.fixture(scope="module")
def manager(loop_thread: LoopThread, browser_pool: Any) -> Iterator[EpisodeManager]:
    """Episodes in the session's shared browser."""
    os.environ["STUDIO_OCR"] = "off"  # the oracle reads the DOM elements; OCR only costs time
    m = EpisodeManager(server=browser_pool.server, pool=browser_pool)
    loop_thread.run(m.start())
    yield m
    loop_thread.run(m.close())
    os.environ.pop("STUDIO_OCR", None)


def _steps(folder: Path) -> list[dict[str, object]]:
    lines = (folder / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_solves_the_task_with_real_drags(
    task_id: str, manager: EpisodeManager, loop_thread: LoopThread, tmp_path: Path
) -> None:
    task: TaskFolder = load_task(paths.BUNDLED_TASKS / task_id)
    agent = OracleAgent(task)
    result, folder = loop_thread.run(
        run_episode(manager, task, Mode.PRIMITIVE, agent, tmp_path / "run", clock=Clock.VIRTUAL)
    )
    assert folder is not None
    steps = _steps(folder)
    last = steps[-1]
    assert last["action"] == {"api": "done", "args": {}}, last["reasoning"]
    assert result.success, result.summary_line()
    apis = [s["action"]["api"] for s in steps]  # type: ignore[index]
    assert set(apis) <= set(PRIMITIVE_APIS)
    assert golden_block_count(task) <= apis.count("drag_and_drop")
    assert all(s["ok"] for s in steps), [s["error"] for s in steps if not s["ok"]]


def golden_block_count(task: TaskFolder) -> int:
    """Non-shadow blocks of the golden project (every one is dragged from the palette)."""
    assert task.golden_path is not None
    project = load_sb3(task.golden_path)[1]
    count = 0
    for target in project["targets"]:
        blocks = target.get("blocks") or {}
        count += sum(1 for _, b in block_items(blocks) if not b.get("shadow"))
    return count


def test_idle_agent_fails_in_primitive_mode(
    manager: EpisodeManager, loop_thread: LoopThread
) -> None:
    task = load_task(paths.BUNDLED_TASKS / "create_cat_walk")
    result, _ = loop_thread.run(
        run_episode(manager, task, Mode.PRIMITIVE, IdleAgent(), clock=Clock.VIRTUAL)
    )
    assert not result.success and result.passed_tests < result.total_tests
