"""A browser that dies in an episode is relaunched for the retry, in the same batch.

A fake episode manager stands for the browser: once "crashed" (as a killed Chromium leaves
Playwright) every new episode fails with Playwright's "has been closed" error until
`ensure_alive` relaunches it. The real relaunch is tested in tests/e2e/test_browser_relaunch.py.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError

from studio.models.agent import Mode, Observation
from studio.models.evaluation import Clock, EvalResult
from studio.models.trajectory import RUN_FILE
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.agents.base import Agent
from studio.services.runs import campaign
from studio.services.runs.batch import run_batch
from tests.helpers.tasks import make_task

CLOSED = "Target page, context or browser has been closed"


class FakeEpisode:
    """Ends at once; its evaluation crashes the browser when told to."""

    def __init__(self, manager: FakeBrowserManager, task: TaskFolder, record_to: Path) -> None:
        self.id = f"e{manager.created}"
        self.manager, self.task, self.trajectory_dir = manager, task, record_to
        self.running = False

    async def evaluate(self, clock: Clock = Clock.REAL) -> EvalResult:
        if self.manager.crash_next:
            self.manager.crash_next = False
            self.manager.alive = False  # the browser process was killed mid-episode
            raise PlaywrightError(CLOSED)
        return EvalResult(task_id=self.task.task.id, project="final.sb3", total_tests=1)


class FakeBrowserManager:
    """The parts of an EpisodeManager a batch uses, over a browser that can die."""

    def __init__(self) -> None:
        self.alive, self.crash_next = True, True
        self.created = self.relaunches = 0

    async def ensure_alive(self) -> bool:
        if self.alive:
            return False
        self.alive = True
        self.relaunches += 1
        return True

    async def create(self, task: TaskFolder, mode: Mode, **kw: Any) -> FakeEpisode:
        if not self.alive:
            raise PlaywrightError(CLOSED)
        self.created += 1
        return FakeEpisode(self, task, kw["record_to"])

    async def delete(self, episode_id: str) -> None:
        return None


class IdleAgent(Agent):
    name = "idle"

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        raise AssertionError("the episode ends before any step")


def test_a_retry_after_the_browser_died_plays_in_a_relaunched_browser(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))
    run_dir = tmp_path / "run"
    manager = FakeBrowserManager()
    batch = asyncio.run(
        run_batch(
            manager,  # type: ignore[arg-type]
            [task],
            lambda t, p: IdleAgent(),
            Mode.COMPOSITE,
            run_dir,
            agent_name="idle",
            ledger=campaign.Ledger(run_dir),
            retries=1,
        )
    )
    assert manager.relaunches == 1
    (outcome,) = batch.outcomes
    assert outcome.failure == "agent" and outcome.result is not None, outcome.error
    assert (batch.env_retries, batch.env_failures) == (1, 0)
    run = json.loads((run_dir / "create_a" / RUN_FILE).read_text())
    assert run["eval"] is not None and run["meta"]["env_retries"] == 1
