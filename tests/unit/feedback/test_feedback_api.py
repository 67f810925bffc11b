"""Feedback turns over the agent API (fake episodes, real loopback HTTP): a mid-episode
evaluate is refused outside the budget, counted and recorded inside it, never the result."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.services.api.server import ApiServer
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.tasks import make_task
from tests.unit.test_api_routes import TOKEN, Client


@pytest.fixture
def served(loop_thread: LoopThread, tmp_path: Path) -> Iterator[tuple[Client, FakeEpisodeManager]]:
    make_task(tmp_path / "lib" / "cat_walks")
    manager = FakeEpisodeManager()
    server = ApiServer(manager, TOKEN, library=tmp_path / "lib")
    loop_thread.run(server.start())
    yield Client(server.url), manager
    loop_thread.run(server.close())
    loop_thread.run(manager.close())


def _start(client: Client, **extra: object) -> str:
    status, body = client.call("POST", "/episodes", {"task": "cat_walks", **extra})
    assert status == 201, body
    return str(body["id"])


def _add(client: Client, episode: str, op: str) -> None:
    body = {"api": "add_block", "args": {"blockType": op}}
    assert client.call("POST", f"/episodes/{episode}/actions", body)[0] == 200


def test_no_budget_refuses_a_mid_episode_evaluate_and_records_nothing(
    served: tuple[Client, FakeEpisodeManager],
) -> None:
    client, manager = served
    episode = _start(client)
    status, answer = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 409
    assert "feedback budget is 0 turns" in answer["error"]
    fake = manager.episodes[episode]
    assert fake.evaluated_with is None and fake.feedback_turns.turns == []
    assert client.call("GET", f"/episodes/{episode}")[1]["status"] == "running"  # usable
    assert client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})[0] == 200
    status, result = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 200 and result["total_tests"] == 2  # the result, at the end
    assert fake.evaluated_with is not None


def test_a_budget_grants_counted_turns_then_refuses_naming_it(
    served: tuple[Client, FakeEpisodeManager],
) -> None:
    client, manager = served
    episode = _start(client, feedback_turns=2)
    _add(client, episode, "event_whenflagclicked")
    status, first = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 200 and (first["passed_tests"], first["total_tests"]) == (1, 2)
    _add(client, episode, "motion_movesteps")
    status, second = client.call("POST", f"/episodes/{episode}/evaluate", {"clock": "real"})
    assert status == 200 and second["success"] is True
    status, answer = client.call("POST", f"/episodes/{episode}/evaluate")
    assert status == 409 and "budget of 2 turn(s) is used (2 of 2)" in answer["error"]
    fake = manager.episodes[episode]
    turns = fake.feedback_turns.turns
    assert [(t["turn"], t["after_step"], t["passed"]) for t in turns] == [(1, 1, 1), (2, 2, 2)]
    assert turns[0]["failing"] == [{"name": "has motion_movesteps", "message": ""}]
    assert all(t["at"] and t["seconds"] >= 0 for t in turns)
    assert fake.evaluated_with is None  # no turn was taken as the episode's result


def test_final_evaluates_a_running_episode_as_its_result_and_closes_it(
    served: tuple[Client, FakeEpisodeManager],
) -> None:
    client, manager = served
    episode = _start(client)
    status, result = client.call("POST", f"/episodes/{episode}/evaluate", {"final": True})
    assert status == 200 and result["total_tests"] == 2
    fake = manager.episodes[episode]
    assert fake.evaluated_with is not None and fake.closed and fake.feedback_turns.turns == []
    assert client.call("POST", f"/episodes/{episode}/actions", {"api": "done"})[0] == 409


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"task": "cat_walks", "feedback_turns": -1}, "'feedback_turns' must be an integer"),
        ({"task": "cat_walks", "feedback_turns": 21}, "from 0 to 20"),
        ({"task": "cat_walks", "feedback_turns": "2"}, "'feedback_turns' must be an integer"),
    ],
)
def test_bad_budgets_are_refused(
    served: tuple[Client, FakeEpisodeManager], body: dict[str, object], fragment: str
) -> None:
    client, _manager = served
    status, answer = client.call("POST", "/episodes", body)
    assert status == 422 and fragment in answer["error"]
