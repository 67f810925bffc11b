"""The agent API over real loopback HTTP, with a fake episode manager: routes, auth, errors."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.services.api.server import ApiServer
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.tasks import make_task

TOKEN = "secret-token"


class Client:
    """Minimal JSON client for the API."""

    def __init__(self, url: str, token: str | None = TOKEN) -> None:
        self.url = url
        self.token = token

    def call(
        self, method: str, path: str, body: Any = None, raw: bytes | None = None
    ) -> tuple[int, Any]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if self.token is not None:
            req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    make_task(root / "cat_walks")
    make_task(root / "other", task_id="other_task", category="debug")
    return root


@pytest.fixture
def server(loop_thread: LoopThread, library: Path) -> Iterator[ApiServer]:
    manager = FakeEpisodeManager()
    srv = ApiServer(manager, TOKEN, library=library)
    loop_thread.run(srv.start())
    yield srv
    loop_thread.run(srv.close())
    loop_thread.run(manager.close())


@pytest.fixture
def client(server: ApiServer) -> Client:
    return Client(server.url)


def _start(client: Client, mode: str = "composite", task: str = "cat_walks") -> str:
    status, body = client.call("POST", "/episodes", {"task": task, "mode": mode})
    assert status == 201, body
    return str(body["id"])


def test_composite_session(client: Client, server: ApiServer) -> None:
    episode = _start(client)
    status, obs = client.call("GET", f"/episodes/{episode}/observation")
    assert status == 200
    assert obs["mode"] == "composite" and obs["status"] == "running" and "(none)" in obs["text"]
    for op in ("event_whenflagclicked", "motion_movesteps"):
        status, step = client.call(
            "POST",
            f"/episodes/{episode}/actions",
            {"api": "add_block", "args": {"blockType": op}, "reasoning": "need it"},
        )
        assert status == 200, step
        assert step["change"]["added"] == [op] and step["reasoning"] == "need it"
    status, listing = client.call("GET", "/episodes")
    assert listing == {
        "episodes": [
            {
                "id": episode,
                "task": "cat_walks",
                "mode": "composite",
                "status": "running",
                "steps": 2,
            }
        ]
    }
    status, step = client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})
    assert status == 200 and step["status_after"] == "done"
    status, result = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 200 and result["success"] is True and result["passed_tests"] == 2
    status, body = client.call("DELETE", f"/episodes/{episode}")
    assert status == 200 and body == {"id": episode, "deleted": True}
    assert client.call("GET", "/episodes")[1] == {"episodes": []}


def test_create_by_folder_path_with_agent_name_and_step_limit(
    client: Client, server: ApiServer, library: Path
) -> None:
    body = {"task": str(library / "other"), "mode": "primitive", "agent": "gpt", "step_limit": 2}
    status, created = client.call("POST", "/episodes", body)
    assert status == 201 and created["task"] == "other_task" and created["steps"] == 0
    episode = created["id"]
    status, obs = client.call("GET", f"/episodes/{episode}/observation")
    assert status == 200 and obs["screenshot_png_b64"] and len(obs["elements"]) == 3
    manager = server.app.manager
    assert isinstance(manager, FakeEpisodeManager)
    assert manager.created == [
        {"task": "other_task", "mode": "primitive", "agent": "gpt", "limit": 2}
    ]
    click = {"api": "click", "args": {"x": 1, "y": 1}}
    assert client.call("POST", f"/episodes/{episode}/actions", click)[0] == 200
    status, step = client.call("POST", f"/episodes/{episode}/actions", click)
    assert status == 200 and step["status_after"] == "step_limit"
    assert client.call("POST", f"/episodes/{episode}/actions", click)[0] == 409


def test_a_task_folder_outside_the_library_is_not_served(client: Client, tmp_path: Path) -> None:
    """A client may not name its own folder (its own permissive script) as the task."""
    outside = make_task(tmp_path / "mine", task_id="cat_walks")
    for name in (str(outside), str(outside / "."), f"{outside}/../mine", "../mine"):
        status, answer = client.call("POST", "/episodes", {"task": name, "mode": "composite"})
        assert status == 404 and "only in the library" in answer["error"], (name, answer)


def test_open_episodes_are_capped_and_none_is_closed_for_a_new_one(
    loop_thread: LoopThread, library: Path
) -> None:
    manager = FakeEpisodeManager()
    srv = ApiServer(manager, TOKEN, library=library, max_episodes=2)
    loop_thread.run(srv.start())
    try:
        client = Client(srv.url)
        first, second = _start(client), _start(client)
        status, answer = client.call("POST", "/episodes", {"task": "cat_walks"})
        assert status == 429 and "--max-episodes 2" in answer["error"], answer
        assert {e["id"] for e in client.call("GET", "/episodes")[1]["episodes"]} == {
            first,
            second,
        }
        assert client.call("DELETE", f"/episodes/{first}")[0] == 200
        _start(client)  # room again
    finally:
        loop_thread.run(srv.close())
        loop_thread.run(manager.close())


@pytest.mark.parametrize(
    ("token", "fragment"), [(None, "missing token"), ("nope", "wrong token"), ("", "missing")]
)
def test_token_required_everywhere(server: ApiServer, token: str | None, fragment: str) -> None:
    client = Client(server.url, token)
    for method, path in [("GET", "/episodes"), ("GET", "/openapi.json"), ("POST", "/episodes")]:
        status, body = client.call(method, path, {"task": "cat_walks"})
        assert status == 401 and fragment in body["error"]


def test_bad_requests_get_4xx_and_episode_stays_usable(client: Client) -> None:
    episode = _start(client)
    actions = f"/episodes/{episode}/actions"
    cases: list[tuple[Any, bytes | None, int, str]] = [
        (None, b"{not json", 400, "malformed JSON"),
        (None, b"", 400, "empty"),
        ([1, 2], None, 422, "JSON object"),
        ({"args": {}}, None, 422, "missing field(s): 'api'"),
        ({"api": "fly", "args": {}}, None, 422, "unknown api 'fly'"),
        ({"api": "add_block", "args": {}}, None, 422, "blockType"),
        ({"api": "add_block", "args": {"blockType": 3}}, None, 422, "blockType"),
        ({"api": "add_block", "args": []}, None, 422, "'args' must be a JSON object"),
        ({"api": 5}, None, 422, "'api' must be a string"),
        ({"api": "done", "extra": 1}, None, 422, "unknown field(s) 'extra'"),
        ({"api": "delete_block", "args": {"blockIndex": 9}}, None, 422, "stale"),
        ({"api": "click", "args": {"x": 1, "y": 2}}, None, 422, "composite mode"),
    ]
    for body, raw, code, fragment in cases:
        status, answer = client.call("POST", actions, body, raw=raw)
        assert status == code, (body, raw, answer)
        assert fragment in answer["error"], (body, answer)
    client.call("GET", f"/episodes/{episode}/observation")
    status, answer = client.call(
        "POST", actions, {"api": "delete_block", "args": {"blockIndex": 9}}
    )
    assert status == 422 and "does not exist" in answer["error"]
    status, step = client.call("POST", actions, {"api": "add_block", "args": {"blockType": "x"}})
    assert status == 200 and step["index"] == 1


def test_primitive_index_and_viewport_errors(client: Client) -> None:
    episode = _start(client, "primitive")
    actions = f"/episodes/{episode}/actions"
    status, body = client.call("POST", actions, {"api": "click", "args": {"index": 42}})
    assert status == 422 and "element index 42 does not exist" in body["error"]
    drag = {"start_index": 1, "end_x": 2000, "end_y": 100}
    status, body = client.call("POST", actions, {"api": "drag_and_drop", "args": drag})
    assert status == 422 and "outside the 1280x720 viewport" in body["error"]
    status, body = client.call("POST", actions, {"api": "click", "args": {"x": 5}})
    assert status == 422 and "give both x and y" in body["error"]
    status, body = client.call("POST", actions, {"api": "click", "args": {"index": 1}})
    assert status == 200 and body["index"] == 1


def test_action_after_end_is_409(client: Client) -> None:
    episode = _start(client)
    assert client.call("POST", f"/episodes/{episode}/actions", {"api": "failed"})[0] == 200
    status, body = client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})
    assert status == 409 and "has ended (failed)" in body["error"]
    status, result = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 200 and result["success"] is False
    assert client.call("GET", f"/episodes/{episode}")[1]["status"] == "failed"


@pytest.mark.parametrize(
    ("method", "path", "body", "code", "fragment"),
    [
        ("GET", "/episodes/nope/observation", None, 404, "no episode 'nope'"),
        ("POST", "/episodes/nope/actions", {"api": "done"}, 404, "no episode"),
        ("DELETE", "/episodes/nope", None, 404, "no episode"),
        ("GET", "/nothing", None, 404, "no route /nothing"),
        ("PUT", "/episodes", {}, 405, "use GET, POST"),
        ("GET", "/episodes/x/actions", None, 405, "use POST"),
        ("POST", "/episodes", {"task": "missing_task"}, 404, "neither the id nor the folder"),
        ("POST", "/episodes", {"task": "t" * 300}, 404, "neither the id nor the folder"),
        ("POST", "/episodes", {"task": "é" * 200}, 404, "neither the id nor the folder"),
        ("POST", "/episodes", {"task": "cat_walks", "mode": "vr"}, 422, "'mode' must be"),
        ("POST", "/episodes", {"mode": "composite"}, 422, "'task'"),
        ("POST", "/episodes", {"task": 7}, 422, "'task' must be"),
        ("POST", "/episodes", {"task": "cat_walks", "seed": 1}, 422, "unknown field(s) 'seed'"),
        ("POST", "/episodes", {"task": "cat_walks", "step_limit": 0}, 422, "'step_limit'"),
        ("POST", "/episodes", {"task": "cat_walks", "step_limit": True}, 422, "'step_limit'"),
        ("POST", "/episodes", {"task": "cat_walks", "agent": ""}, 422, "'agent'"),
    ],
)
def test_error_mapping(
    client: Client, method: str, path: str, body: Any, code: int, fragment: str
) -> None:
    status, answer = client.call(method, path, body)
    assert status == code and fragment in answer["error"], answer


def test_broken_task_folder_is_422(client: Client, library: Path) -> None:
    folder = make_task(library / "broken")
    (folder / "initial.sb3").unlink()
    status, answer = client.call("POST", "/episodes", {"task": str(folder)})
    assert status == 422 and "initial.sb3" in answer["error"]


def test_bug_in_episode_is_500_and_logged(
    client: Client, server: ApiServer, caplog: pytest.LogCaptureFixture
) -> None:
    episode = _start(client)
    manager = server.app.manager
    assert isinstance(manager, FakeEpisodeManager)

    async def broken(**_kw: Any) -> None:
        raise RuntimeError("boom")

    manager.episodes[episode].evaluate = broken  # type: ignore[method-assign,assignment]
    assert client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})[0] == 200
    status, answer = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 500 and "internal error" in answer["error"]
    assert "boom" in caplog.text
    assert client.call("GET", f"/episodes/{episode}/observation")[0] == 200


def test_evaluate_clock_and_seed(client: Client, server: ApiServer) -> None:
    episode = _start(client)
    manager = server.app.manager
    assert isinstance(manager, FakeEpisodeManager)
    fake = manager.episodes[episode]
    # an ended episode's evaluation (a running one's is a feedback turn: test_feedback_turns)
    assert client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})[0] == 200
    status, result = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 200 and fake.evaluated_with == ("virtual", 0)  # the task's clock: auto
    status, result = client.call(
        "POST", f"/episodes/{episode}/evaluate", {"clock": "real", "seed": 4}
    )
    assert status == 200 and result["clock"] == "real" and result["seed"] == 4
    for body, fragment in [
        ({"clock": "fast"}, "'clock' must be"),
        ({"seed": "x"}, "'seed' must be an integer"),
        ({"timeout": 3}, "unknown field(s) 'timeout'"),
    ]:
        status, answer = client.call("POST", f"/episodes/{episode}/evaluate", body)
        assert status == 422 and fragment in answer["error"]


def test_episode_that_cannot_start_is_422(client: Client, server: ApiServer) -> None:
    from studio.models.errors import StudioError

    manager = server.app.manager
    assert isinstance(manager, FakeEpisodeManager)

    async def refuse(*_a: Any, **_kw: Any) -> None:
        raise StudioError("initial.sb3: the editor did not load it")

    manager.create = refuse  # type: ignore[method-assign,assignment]
    status, answer = client.call("POST", "/episodes", {"task": "cat_walks"})
    assert status == 422 and "cannot start an episode on cat_walks" in answer["error"]


def test_a_lost_page_answers_503_naming_the_environment(client: Client, server: ApiServer) -> None:
    from studio.services.runtime.page_guard import PageLost

    episode = _start(client)
    fake = server.app.manager.get(episode)

    async def lost(*_: Any, **__: Any) -> Any:
        raise PageLost("the editor page crashed")

    fake.step = lost  # type: ignore[method-assign]
    fake.observe = lost  # type: ignore[method-assign]
    status, body = client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})
    assert status == 503
    assert "environment failure, not the agent's: the editor page crashed" in body["error"]
    status, body = client.call("GET", f"/episodes/{episode}/observation")
    assert status == 503 and "crashed" in body["error"]
    assert client.call("DELETE", f"/episodes/{episode}")[0] == 200
