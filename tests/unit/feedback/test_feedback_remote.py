"""Feedback turns and repair measures of campaigns whose episodes play elsewhere (issue 42
point 6, issue 40 point 3), without a browser: `--api` against a real loopback agent API
(its episodes faked), `--ray` through the real worker code (its episode manager faked, jobs
pickled as Ray carries them). The campaign use case plays both; run.json on this machine holds
the budget and each turn as a local episode's does, and the report gives turn 1 -> final."""

from __future__ import annotations

import asyncio
import contextlib
import json
import pickle
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from ray import cloudpickle

import studio.app.campaigns.play as play
from studio.app.campaigns import CampaignRequest, open_campaign, plan_episodes, play_campaign
from studio.services import distributed
from studio.services.api.server import ApiServer
from studio.services.distributed.dispatch import Dispatcher
from studio.services.distributed.episodes import ClusterEpisodes
from studio.services.distributed.worker import EpisodeJob
from studio.services.forge.episode_measures import EpisodeMeasures
from studio.services.runs.reports import report_for
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.tasks import make_task
from tests.unit.distributed.test_episode_limits import FakeBrowserWorker
from tests.unit.test_api_routes import TOKEN

HAT = {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}}
MOVE = {"api": "add_block", "args": {"blockType": "motion_movesteps"}}
ASK = {"api": "request_feedback", "args": {}}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    make_task(lib / "a", task_id="create_a")
    make_task(lib / "b", task_id="debug_b", category="debug")
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    # a turn after the hat (1 of 2 tests), a second request beyond the budget of 1 (a
    # refused step), then the move: the result passes
    (scripts / "create_a.json").write_text(json.dumps([HAT, ASK, ASK, MOVE]))
    (scripts / "debug_b.json").write_text(json.dumps([ASK]))
    return lib


@pytest.fixture(autouse=True)
def sound_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tasks are found sound without a browser; drift needs one: left out here (it is
    measured on the real editor in tests/e2e/test_remote_feedback_e2e.py)."""

    async def no_problems(*_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(play, "check_tasks", no_problems)
    monkeypatch.setattr(play, "EpisodeMeasures", lambda *_a, **_k: EpisodeMeasures(None))


def _campaign(library: Path, tmp_path: Path, **where: Any) -> Path:
    request = CampaignRequest(
        tasks=[library], agent="scripted", actions=tmp_path / "scripts", feedback_turns=1,
        out=tmp_path / "runs", **where,
    )  # fmt: skip
    campaign = plan_episodes(open_campaign(request, print), request, print)
    result = asyncio.run(play_campaign(campaign, request))
    assert [o.error for o in result.batch.outcomes] == [None, None]
    return campaign.run_dir


def _meta(run_dir: Path, task: str) -> dict[str, Any]:
    return dict(json.loads((run_dir / task / "run.json").read_text())["meta"])


def _turn_one_to_final(run_dir: Path) -> None:
    """What both remote homes must record and report, as a local campaign does."""
    meta = _meta(run_dir, "create_a")
    assert meta["feedback_turns"] == 1 and meta["protocol"]["settings"]["feedback_turns"] == 1
    (turn,) = meta["feedback"]
    assert (turn["turn"], turn["after_step"], turn["passed"], turn["total"]) == (1, 1, 1, 2)
    assert turn["failing"] == [{"name": "has motion_movesteps", "message": ""}] and turn["at"]
    (row,) = report_for(run_dir).rows
    f = row.feedback
    assert (f["turns_used"], f["episodes_with_turns"], f["budget"]) == (2, 2, 1)
    # create_a: turn 1 at 0.5 -> final 1.0; debug_b: turn 1 at 0.0 -> final 0.0
    assert (f["turn1_psr"], f["final_psr"], f["improvement_psr"]) == (0.25, 0.5, 0.25)


@pytest.fixture
def served(loop_thread: LoopThread, library: Path) -> Iterator[tuple[str, FakeEpisodeManager]]:
    manager = FakeEpisodeManager()
    server = ApiServer(manager, TOKEN, library=library)
    loop_thread.run(server.start())
    yield server.url, manager
    loop_thread.run(server.close())
    loop_thread.run(manager.close())


def test_over_the_api_the_server_grants_the_budget_and_the_run_keeps_turns_and_program(
    served: tuple[str, FakeEpisodeManager], library: Path, tmp_path: Path
) -> None:
    url, manager = served
    run_dir = _campaign(library, tmp_path, api=url, token=TOKEN)
    _turn_one_to_final(run_dir)
    # the server counted the same turns against the budget it was asked for
    by_task = {e.task.task.id: e for e in manager.ended}
    assert [len(by_task[t].feedback_turns.turns) for t in ("create_a", "debug_b")] == [1, 1]
    assert {e.feedback_turns.budget for e in manager.ended} == {1}
    # the refused second request is a refused step there, not a turn: 2 adds + done
    assert [r.action["api"] for r in by_task["create_a"].records] == [
        "add_block", "add_block", "done"
    ]  # fmt: skip
    # the final program came over GET /episodes/{id}/program: the debug episode's d_edit
    # (the fake keeps the initial program: one edit from the golden)
    assert (run_dir / "debug_b" / "final.sb3").is_file()
    repair = _meta(run_dir, "debug_b")["repair"]
    assert repair["d_edit"] == 1 and repair["drift"] is None
    assert len(_meta(run_dir, "create_a")["evaluations"]) == 1  # the result, as locally


class _Slot:
    """One worker behind the dispatcher; its jobs pickled as Ray carries them (cloudpickle:
    the scripted agent's factory is a closure)."""

    name = "node-a"
    capacity = 1

    def __init__(self) -> None:
        self.worker = FakeBrowserWorker()
        self.jobs: list[EpisodeJob] = []

    async def call(self, method: str, payload: Any) -> Any:
        assert method == "episode"
        job: EpisodeJob = pickle.loads(cloudpickle.dumps(payload))  # as Ray pickles it
        self.jobs.append(job)
        return pickle.loads(cloudpickle.dumps(await self.worker.episode(job)))


def test_on_ray_the_workers_grant_the_budget_and_the_turns_come_back(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slot = _Slot()
    asked: list[tuple[Any, ...]] = []

    @contextlib.asynccontextmanager
    async def cluster(*args: Any) -> AsyncIterator[ClusterEpisodes]:
        asked.append(args)
        _address, _per_node, steps, limits, prices, turns = args
        yield ClusterEpisodes(Dispatcher([slot]), steps, limits, prices, turns)

    monkeypatch.setattr(distributed, "cluster_episodes", cluster)
    run_dir = _campaign(library, tmp_path, ray="local")
    assert [a[-1] for a in asked] == [1] and {j.feedback_turns for j in slot.jobs} == {1}
    _turn_one_to_final(run_dir)
