"""Limits and prices of a campaign played on a cluster, without a cluster: the job a worker
receives (a pickled copy, as Ray carries it) holds the step limit, the limits and the price
table; the worker's episode (`StudioWorker.episode`, its episode manager faked) ends on the
token limit and prices each step; the run.json written on this machine holds the usage and the
limit, as a local episode's does, and the report counts them."""

from __future__ import annotations

import asyncio
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import Mode
from studio.services.core.store import TaskFolder, load_task
from studio.services.distributed.dispatch import Dispatcher
from studio.services.distributed.episodes import ClusterEpisodes
from studio.services.distributed.worker import EpisodeJob, StudioWorker
from studio.services.episodes.agents.llm import LlmAgent, LlmSettings
from studio.services.episodes.limits import Limits, PriceTable
from studio.services.runs.batch import run_batch
from studio.services.runs.campaign import Ledger
from studio.services.runs.reports import report_for
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.fake_llm_server import FakeLlmServer
from tests.helpers.tasks import make_task

ADD = '```json\n{"api": "add_block", "args": {"blockType": "looks_say"}}\n```'
# the fake endpoint reports 100 prompt and 20 completion tokens per reply
PRICES = {
    "currency": "EUR",
    "per_tokens": 1000,
    "models": {"m": {"prompt": 1.0, "completion": 2.0}},
}


class LlmFactory:
    """The agent factory a campaign sends along (picklable, as the CLI's is for Ray)."""

    def __init__(self, settings: LlmSettings) -> None:
        self.settings = settings

    def __call__(self, task: TaskFolder, position: int) -> LlmAgent:
        return LlmAgent(self.settings, Mode.COMPOSITE, task.task.instruction)


class FakeBrowserWorker(StudioWorker):
    """The real worker with its episode manager (its browser) faked."""

    def __init__(self) -> None:
        super().__init__(1)
        self.fake = FakeEpisodeManager()

    async def _manager(self, step_limit: int | None) -> Any:
        self.fake.max_steps = step_limit or self.fake.max_steps
        return self.fake


class WorkerSlot:
    name = "node-a"
    capacity = 1

    def __init__(self, worker: StudioWorker) -> None:
        self.worker = worker
        self.jobs: list[EpisodeJob] = []

    async def call(self, method: str, payload: Any) -> Any:
        assert method == "episode"
        job: EpisodeJob = pickle.loads(pickle.dumps(payload))  # as Ray would carry it
        self.jobs.append(job)
        back = await self.worker.episode(job)
        return pickle.loads(pickle.dumps(back))


def test_limits_and_prices_reach_the_worker_and_come_back_in_run_json(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))
    worker = FakeBrowserWorker()
    slot = WorkerSlot(worker)
    prices = PriceTable.model_validate(PRICES)
    run_dir = tmp_path / "run"
    with FakeLlmServer([ADD]) as llm:
        runner = ClusterEpisodes(Dispatcher([slot]), 7, Limits(tokens=250), prices)
        settings = LlmSettings(url=llm.url, model="m", retries=0)
        batch = asyncio.run(
            run_batch(
                runner, [task], LlmFactory(settings), Mode.COMPOSITE, run_dir,
                agent_name="llm", ledger=Ledger(run_dir),
            )
        )  # fmt: skip
    (job,) = slot.jobs
    assert (job.step_limit, job.limits, job.prices) == (7, Limits(tokens=250), prices)
    # 120 tokens a reply: after three replies (360) the limit of 250 ends the episode
    (episode,) = worker.fake.ended
    assert [r.usage for r in episode.records] == [
        {"prompt_tokens": 100, "completion_tokens": 20, "cost": pytest.approx(0.14)}
    ] * 3
    run = json.loads((run_dir / "create_a" / "run.json").read_text())
    assert run["task_folder"] == str(task.folder)  # this machine's, not the worker's copy
    assert run["meta"]["limit"] == "token limit: 360 of 250"
    assert run["meta"]["usage"] == {
        "prompt_tokens": 300, "completion_tokens": 60, "cost": pytest.approx(0.42),
        "calls": 3, "currency": "EUR",
    }  # fmt: skip
    assert batch.spent()["cost"] == pytest.approx(0.42)
    cell = report_for(run_dir).rows[0].overall
    assert (cell.prompt_tokens, cell.completion_tokens) == (300, 60)
