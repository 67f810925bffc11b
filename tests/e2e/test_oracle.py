"""The oracle agent, in process, solves a task of each category in composite mode acting only
through the composite APIs, and the idle agent fails a debug task. tests/e2e/test_api_e2e.py
does the same through the HTTP API on another task of each category, so that between them eight
of the twelve bundled tasks are solved in composite mode, each once. That every bundled task
fails its untouched initial project (what the idle agent leaves) is shown, an evaluation per
task, in tests/e2e/test_bundled_clock_agreement.py.

The episodes run in the session's shared browser (`browser_pool`)."""

from __future__ import annotations

import pytest

from studio.models.agent import Mode
from studio.models.evaluation import Clock
from studio.services.core import paths
from studio.services.core.store import TaskFolder, scan_library
from studio.services.episodes.agents import IdleAgent, OracleAgent, run_episode
from studio.services.episodes.manager import EpisodeManager
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

ONE_PER_CATEGORY = {"create_cat_walk", "debug_game_over", "extend_rain_clones", "compute_sum_to_n"}
TASKS = [t for t in scan_library(paths.BUNDLED_TASKS).tasks if t.task.id in ONE_PER_CATEGORY]
IDS = [t.task.id for t in TASKS]


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


def test_idle_agent_fails_a_debug_task(manager: EpisodeManager, loop_thread: LoopThread) -> None:
    # the debug task: its untouched program runs scripts of its own, and still fails
    (task,) = (t for t in TASKS if t.task.id == "debug_game_over")
    agent = IdleAgent()  # judged on the virtual clock: an unchanged program fails there too
    result, _ = loop_thread.run(
        run_episode(manager, task, Mode.COMPOSITE, agent, clock=Clock.VIRTUAL)
    )
    assert result.error is None, result.error
    assert not result.success and result.passed_tests < result.total_tests
