"""The API client shaped like the episode manager: batch runs through a (fake-backed) server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.models.agent import ActionError, Mode, Observation
from studio.models.errors import StudioError
from studio.models.evaluation import Clock
from studio.services.api.client import ApiCallError, RemoteEpisodeManager
from studio.services.api.server import ApiServer
from studio.services.core.store import TaskFolder, load_task
from studio.services.runs.batch import run_batch
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.recorder_server import Recorder
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
def server(
    loop_thread: LoopThread, tmp_path: Path
) -> Iterator[tuple[ApiServer, FakeEpisodeManager]]:
    manager = FakeEpisodeManager()
    srv = ApiServer(manager, TOKEN, library=tmp_path)  # the tests' tasks are made in tmp_path
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
        await remote.close()

    asyncio.run(go())


PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_an_error_and_the_token_stays_home(status: int) -> None:
    with Recorder(body=b'{"episodes": []}') as target:
        location = target.url + "/episodes"
        with (
            Recorder(status, {"Location": location}, body=b'{"episodes": []}') as redirecting,
            pytest.raises(ApiCallError) as caught,
        ):
            asyncio.run(RemoteEpisodeManager(redirecting.url, TOKEN).start())
    message = str(caught.value)
    assert caught.value.status == status
    assert f"{redirecting.url}/episodes redirects to {location}" in message
    assert "not followed" in message
    assert len(redirecting.requests) == 1  # asked once, with the token ...
    assert redirecting.requests[0][2]["Authorization"] == f"Bearer {TOKEN}"
    assert target.requests == []  # ... which never reached the redirect's target


def test_no_proxy_from_the_environment_for_the_studio(
    server: tuple[ApiServer, FakeEpisodeManager], monkeypatch: pytest.MonkeyPatch
) -> None:
    srv, _ = server
    with Recorder(502, body=b'{"episodes": []}') as proxy:
        for name in PROXY_VARS:
            monkeypatch.setenv(name, proxy.url)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        # The environment is in effect: a client that trusts it goes through the proxy.
        assert httpx.get(srv.url + "/episodes", trust_env=True).status_code == 502
        assert [r[1] for r in proxy.requests] == [srv.url + "/episodes"]

        async def go() -> Any:
            async with RemoteEpisodeManager(srv.url, TOKEN) as remote:
                return await remote.client.call("GET", "/episodes")

        answer = asyncio.run(go())
    assert "episodes" in answer  # the studio answered, directly ...
    assert len(proxy.requests) == 1  # ... and the proxy saw only the check above


def test_close_releases_the_connections(server: tuple[ApiServer, FakeEpisodeManager]) -> None:
    srv, _ = server

    async def go() -> RemoteEpisodeManager:
        async with RemoteEpisodeManager(srv.url, TOKEN) as remote:
            assert remote.client._http is not None and not remote.client._http.is_closed
            http = remote.client._http
        assert remote.client._http is None and http.is_closed
        await remote.start()  # usable again: a new client is opened
        remote.client.close()
        return remote

    asyncio.run(go())
