"""The oracle agent, in process, solves a task of each category in composite mode acting only
through the composite APIs, and the idle agent fails them. tests/e2e/test_api_e2e.py does the
same through the HTTP API on another task of each category, so that between them eight of the
twelve bundled tasks are solved in composite mode, each once."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.models.agent import Mode
from studio.models.evaluation import Clock
from studio.services import paths
from studio.services.agents import IdleAgent, OracleAgent, run_episode
from studio.services.env.episode import EpisodeManager
from studio.services.store import TaskFolder, scan_library
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

ONE_PER_CATEGORY = {"create_cat_walk", "debug_game_over", "extend_rain_clones", "compute_sum_to_n"}
TASKS = [t for t in scan_library(paths.BUNDLED_TASKS).tasks if t.task.id in ONE_PER_CATEGORY]
IDS = [t.task.id for t in TASKS]


@pytest.fixture(scope="module")
def manager(loop_thread: LoopThread, session_cache: Path) -> Iterator[EpisodeManager]:
    os.environ["XDG_CACHE_HOME"] = str(session_cache)
    m = EpisodeManager(eval_spares=1)
    loop_thread.run(m.start())
    yield m
    loop_thread.run(m.close())


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_oracle_solves_the_task(
    task: TaskFolder, manager: EpisodeManager, loop_thread: LoopThread
) -> None:
    agent = OracleAgent(task)
    # judged on the virtual clock, as `studio run` judges: a real-time verdict on a loaded
    # machine would measure the machine (the clocks agree on every bundled task)
    result, folder = loop_thread.run(
        run_episode(manager, task, Mode.COMPOSITE, agent, clock=Clock.VIRTUAL)
    )
    assert result.success, [d for d in result.details if not d.passed] or result.error
    assert result.clock is Clock.VIRTUAL
    assert agent.errors == []  # no action of the oracle was refused
    assert folder is None


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_idle_agent_fails_the_task(
    task: TaskFolder, manager: EpisodeManager, loop_thread: LoopThread
) -> None:
    agent = IdleAgent()  # judged on the virtual clock: an unchanged program fails there too
    result, _ = loop_thread.run(
        run_episode(manager, task, Mode.COMPOSITE, agent, clock=Clock.VIRTUAL)
    )
    assert result.error is None, result.error
    assert not result.success and result.passed_tests < result.total_tests
