"""The ScratchWorld-compatible layer's pieces that need no browser: names, bodies, envelopes,
the guard's open paths and the refusal to serve the token-less routes off loopback."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from studio import cli
from studio.models.errors import StudioError
from studio.models.evaluation import ErrorKind, EvalError, EvalResult, TestDetail
from studio.services.api.server import ApiServer
from studio.services.formats.scratchworld.server.checkout import SwCheckout, plain_name
from studio.services.formats.scratchworld.server.handler import (
    SessionHandler,
    SwActionError,
    custom_js_data,
    parse_primitive,
)
from studio.services.formats.scratchworld.server.replies import envelope, published_result
from studio.services.formats.scratchworld.server.routes import SwRoutes
from studio.services.formats.scratchworld.server.sessions import SwSessions, parse_selectors
from tests.helpers.fake_env import FakeEpisodeManager

TOKEN = "t0ken"


def _checkout(tmp_path: Path) -> SwCheckout:
    static = tmp_path / "sw" / "scratch-gui" / "static"
    static.mkdir(parents=True)
    (static / "a.sb3").write_bytes(b"PK")
    return SwCheckout(tmp_path / "sw")


@pytest.mark.parametrize("bad", ["", ".", "..", "../a.sb3", "a/b.sb3", "a\\b.sb3", "/etc/passwd"])
def test_a_project_name_from_a_client_is_a_plain_name(bad: str) -> None:
    with pytest.raises(StudioError, match="plain file name"):
        plain_name(bad)
    assert plain_name("T1_001.sb3") == "T1_001.sb3"


def test_checkout_reads_only_its_static_folder(tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    (tmp_path / "sw" / "secret.sb3").write_bytes(b"x")
    assert checkout.project("a.sb3") == b"PK"
    with pytest.raises(StudioError, match="plain file name"):
        checkout.project("../../secret.sb3")
    with pytest.raises(StudioError, match="cannot be read"):
        checkout.project("missing.sb3")
    assert checkout.task("anything") is None  # no tasks/ folder: nothing by name
    assert checkout.session_task("T1_001.sb3").task.id == "T1_001"
    assert checkout.session_task("we ird.sb3").task.id == "scratchworld-session"


def test_a_folder_without_static_is_not_a_checkout(tmp_path: Path) -> None:
    with pytest.raises(StudioError, match="scratch-gui/static"):
        SwCheckout(tmp_path)


def test_primitive_bodies_take_integers_and_ignore_extra_keys() -> None:
    body = parse_primitive("click", {"x": 3, "y": 4.0, "extra": 1})
    assert body.model_dump() == {"x": 3, "y": 4, "button": "left"}
    with pytest.raises(ValidationError):
        parse_primitive("click", {"x": 3.5, "y": 1})
    with pytest.raises(ValidationError):
        parse_primitive("drag_and_drop", {"start_x": 1, "start_y": 1, "end_x": 2})
    scroll = parse_primitive("scroll", {"direction": "sideways"})
    assert scroll.model_dump(exclude_none=True) == {"direction": "sideways", "amount": 100}


def test_the_handler_names_unsupported_apis_and_keeps_requested_args() -> None:
    handler = SessionHandler()
    with pytest.raises(SwActionError) as exc:
        handler.parse({"api": "fly", "args": {}})
    assert exc.value.code == "UNSUPPORTED"
    with pytest.raises(SwActionError) as exc:
        handler.parse({"api": "click", "args": {"x": "a", "y": 1}})
    assert exc.value.code == "INVALID_ARG"
    action = handler.parse(
        {"api": "drag_and_drop", "args": {"start_x": 1, "start_y": 2, "end_x": 3, "end_y": 4}}
    )
    assert action.kind == "primitive" and action.args["duration"] == 0.5
    assert handler.parse({"api": "custom_js", "args": {"fn": "() => 1"}}).kind == "composite"


@pytest.mark.parametrize(
    ("value", "data"),
    [
        (None, {}),
        (3, {"value": 3}),
        ([1, 2], {"value": [1, 2]}),
        ({"result": {"a": 1}}, {"a": 1}),
        ({"success": False, "api": "x", "b": 2}, {"b": 2}),
        ({"result": 5}, {"result": 5}),
    ],
)
def test_custom_js_return_values_become_data(value: Any, data: dict[str, Any]) -> None:
    assert custom_js_data(value) == data


def test_selectors_are_named_pairs() -> None:
    assert parse_selectors("stage::[data-testid='stage'], .x ,,inputs::input") == [
        ("stage", "[data-testid='stage']"),
        (".x", ".x"),
        ("inputs", "input"),
    ]
    with pytest.raises(StudioError):
        parse_selectors(",".join(["a"] * 65))


def test_the_envelope_has_every_field_the_published_client_checks() -> None:
    ok = envelope("s1", "click", {"x": 1, "y": 2}, {"x": 1, "y": 2, "steps": 10}, {}, None, 0.0)
    assert set(ok) == {"success", "requested_action", "executed_action", "data", "error", "meta"}
    assert ok["success"] is True and ok["error"] is None
    assert ok["executed_action"] == {"api": "click", "args": {"x": 1, "y": 2, "steps": 10}}
    assert ok["meta"]["session_id"] == "s1" and ok["meta"]["timestamp"].endswith("Z")
    bad = envelope("s1", "key", {"key": "x"}, None, None, ("INVALID_ARG", "no"), 0.0)
    assert bad["success"] is False and bad["error"] == {"code": "INVALID_ARG", "message": "no"}
    assert bad["executed_action"]["args"] == {"key": "x"} and bad["data"] == {}


def test_an_evaluation_reads_as_the_published_server_answers() -> None:
    passed = EvalResult(
        task_id="t",
        project="p",
        success=True,
        passed_tests=1,
        total_tests=1,
        partial_success_rate=1.0,
        details=[TestDetail(name="a", passed=True)],
        console=["hi"],
    )
    answer = published_result(passed)
    assert answer["status"] == "success" and answer["stdout"] == "hi"
    assert answer["result"]["success"] is True and answer["result"]["details"][0]["name"] == "a"
    broken = EvalResult(
        task_id="t", project="p", error=EvalError(kind=ErrorKind.TIMEOUT, message="too slow")
    )
    failed = published_result(broken)
    assert failed["status"] == "failed" and failed["result"] == {} and "too slow" in failed["error"]


def test_session_routes_need_no_token_but_the_studio_routes_still_do(tmp_path: Path) -> None:
    asyncio.run(_open_routes(tmp_path))


async def _open_routes(tmp_path: Path) -> None:
    manager = FakeEpisodeManager()
    sessions = SwSessions(manager, _checkout(tmp_path))
    server = ApiServer(manager, TOKEN, open_routes=SwRoutes(sessions))
    transport = httpx.ASGITransport(app=server.app.asgi)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        ready = await client.get("/")
        assert ready.status_code == 200 and ready.json()["sessions"] == 0
        assert (await client.get("/sessions/count")).json() == {"count": 0}
        missing = await client.post("/sessions/abc/click", json={"x": 1, "y": 2})
        assert missing.status_code == 404 and missing.text == "'Session not found: abc'"
        assert (
            await client.post("/sessions/abc/click", json={"x": 1.5, "y": 2})
        ).status_code == 422
        # Python's JSON reader takes Infinity; the guard refuses it, naming it (a route that
        # echoed it could not write its answer: studio.services.api.guard, point 5)
        infinite = await client.post(
            "/sessions/abc/scroll",
            content=b'{"direction": Infinity}',
            headers={"Content-Type": "application/json"},
        )
        assert infinite.status_code == 400
        assert "holds Infinity" in infinite.json()["error"]
        assert (await client.get("/episodes")).status_code == 401
        evil = await client.get("/sessions", headers={"Host": "evil.example"})
        assert evil.status_code == 400  # the Host check still guards the open routes
        web = await client.get("/sessions", headers={"Origin": "https://evil.example"})
        assert web.status_code == 403
    await manager.close()
    sessions.checkout.close()


def test_the_token_less_routes_are_refused_off_loopback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _checkout(tmp_path)
    argv = [
        "serve",
        "--scratchworld",
        str(tmp_path / "sw"),
        "--host",
        "0.0.0.0",
        "--allow-remote",
        "--no-record",
    ]
    assert cli.main(argv) != 0
    assert "--scratchworld serves routes without a token" in capsys.readouterr().err
    with pytest.raises(StudioError, match="loopback"):
        ApiServer(
            FakeEpisodeManager(),
            TOKEN,
            host="0.0.0.0",
            open_routes=SwRoutes(SwSessions(FakeEpisodeManager(), _checkout(tmp_path / "b"))),
        )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--allow-custom-js"], "give --scratchworld"),
        (["--max-sessions", "0"], "1 or more"),
        (["--max-episodes", "-1"], "1 or more"),
    ],
)
def test_serve_refuses_limits_and_flags_that_mean_nothing(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", "--no-record", *argv]) == 2
    assert message in capsys.readouterr().err
