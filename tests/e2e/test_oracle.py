"""The issue's bar: the oracle agent solves every bundled task in composite mode (SR 100%),
acting only through the composite APIs, and the idle agent fails every one of them."""

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

TASKS = scan_library(paths.BUNDLED_TASKS).tasks
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
    result, folder = loop_thread.run(run_episode(manager, task, Mode.COMPOSITE, agent))
    assert result.success, [d for d in result.details if not d.passed] or result.error
    assert result.clock is Clock.REAL
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
