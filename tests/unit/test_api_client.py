"""The API client shaped like the episode manager: batch runs through a (fake-backed) server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import ActionError, Mode, Observation
from studio.models.evaluation import Clock
from studio.services.api import ApiServer
from studio.services.api.client import ApiCallError, RemoteEpisodeManager
from studio.services.batch import run_batch
from studio.services.errors import StudioError
from studio.services.store import TaskFolder, load_task
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.tasks import make_task

TOKEN = "tok"


class Solver:
    """Adds the two goal blocks (with one refused action between), then done."""

    name = "solver"

    def __init__(self) -> None:
        self.script: list[dict[str, Any]] = [
            {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}},
            {"api": "delete_block", "args": {"blockIndex": 7}},
            {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
        ]
        self.refused: list[str] = []

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        assert observation.mode is Mode.COMPOSITE and observation.text
        return (self.script.pop(0) if self.script else {"api": "done"}), "why not"

    def feedback(self, error: str) -> None:
        self.refused.append(error)


@pytest.fixture
def server(loop_thread: LoopThread) -> Iterator[tuple[ApiServer, FakeEpisodeManager]]:
    manager = FakeEpisodeManager()
    srv = ApiServer(manager, TOKEN)
    loop_thread.run(srv.start())
    yield srv, manager
    loop_thread.run(srv.close())
    loop_thread.run(manager.close())


def test_batch_through_the_api(
    server: tuple[ApiServer, FakeEpisodeManager], tmp_path: Path
) -> None:
    srv, backend = server
    tasks = [load_task(make_task(tmp_path / n, task_id=n)) for n in ("create_a", "create_b")]
    solvers: list[Solver] = []

    def agent_for(task: TaskFolder, pos: int) -> Solver:
        solvers.append(Solver())
        return solvers[-1]

    async def go() -> Any:
        async with RemoteEpisodeManager(srv.url, TOKEN, step_limit=30) as remote:
            manager: Any = remote
            return await run_batch(
                manager, tasks, agent_for, Mode.COMPOSITE, tmp_path / "runs", 2, "solver",
                clock_for=lambda _task: Clock.VIRTUAL,
            )  # fmt: skip

    batch = asyncio.run(go())
    assert [o.success for o in batch.outcomes] == [True, True] and batch.errors == 0
    assert all(len(s.refused) == 1 and "does not exist" in s.refused[0] for s in solvers)
    assert [c["agent"] for c in backend.created] == ["solver", "solver"]
    assert {c["limit"] for c in backend.created} == {30}
    assert backend.episodes == {}  # deleted after evaluation
    run = json.loads((tmp_path / "runs" / "create_a" / "run.json").read_text())
    assert run["agent"] == "solver" and run["eval"]["success"] is True
    assert run["eval"]["clock"] == "virtual"


def test_remote_errors(server: tuple[ApiServer, FakeEpisodeManager], tmp_path: Path) -> None:
    srv, _ = server
    task = load_task(make_task(tmp_path / "t"))

    async def go() -> None:
        with pytest.raises(ApiCallError, match="HTTP 401: wrong token"):
            await RemoteEpisodeManager(srv.url, "nope").start()
        with pytest.raises(StudioError, match="cannot reach"):
            await RemoteEpisodeManager("http://127.0.0.1:9", TOKEN).start()
        remote = RemoteEpisodeManager(srv.url, TOKEN)
        episode = await remote.create(task, Mode.COMPOSITE)
        with pytest.raises(ActionError, match="unknown api 'fly'"):
            await episode.step({"api": "fly"})
        assert episode.step_count == 0  # the fake does not count refused steps
        await episode.step({"api": "done"})
        assert not episode.running
        with pytest.raises(ActionError, match="has ended"):
            await episode.step({"api": "done"})
        await remote.delete(episode.id)
        await episode.close()  # already gone: no error

    asyncio.run(go())
