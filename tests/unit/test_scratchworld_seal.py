"""Sealed ScratchWorld sessions and the server's limits, through the routes, without a browser.

The tricks of issue 32 tried on the token-less routes: loading the task's golden (or another
task's project) and evaluating; evaluating under another task's name; custom_js; a session
cap that pushed other clients out; a page that stops answering; names too long for the file
system. The fake manager (tests/helpers/fake_sw.py) runs the real session handler.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Error as PlaywrightError

from studio.models.agent import Mode
from studio.models.evaluation import EvalResult
from studio.models.trajectory import RunInfo
from studio.services.api.server import ApiServer
from studio.services.formats.scratchworld.server import sessions as sessions_module
from studio.services.formats.scratchworld.server.checkout import SwCheckout
from studio.services.formats.scratchworld.server.handler import (
    SessionHandler,
    SwAction,
    SwActionError,
)
from studio.services.formats.scratchworld.server.routes import SwRoutes
from studio.services.formats.scratchworld.server.seal import UNSEALED_KEY
from studio.services.formats.scratchworld.server.sessions import SwSessions
from studio.services.runs.reports import build_report, entry_from_run, format_table
from tests.helpers.fake_sw import FakePage, FakeSwManager
from tests.helpers.scratchworld_fixture import build_set

TOKEN = "t0ken"
RESTORE = {"tx": -40.0, "ty": -20.0, "scale": 0.675, "scrollX": 59.3, "scrollY": 29.6}


@asynccontextmanager
async def served(tmp_path: Path, **options: Any) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    build_set(tmp_path / "sw")
    checkout = SwCheckout(tmp_path / "sw")
    manager = FakeSwManager()
    sessions = SwSessions(manager, checkout, **options)
    server = ApiServer(manager, TOKEN, open_routes=SwRoutes(sessions))  # type: ignore[arg-type]
    transport = httpx.ASGITransport(app=server.app.asgi)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            yield client, sessions
    finally:
        checkout.close()


async def _open(client: httpx.AsyncClient, task: str | None = None) -> str:
    params = {"task_name": task} if task else {}
    resp = await client.post("/sessions", params=params)
    assert resp.status_code == 200, resp.text
    sid: str = resp.json()["session_id"]
    return sid


async def _load(client: httpx.AsyncClient, sid: str, name: str) -> httpx.Response:
    return await client.post(f"/sessions/{sid}/load_project", params={"project_name": name})


async def _evaluate(client: httpx.AsyncClient, sid: str, task: str) -> httpx.Response:
    body = {"task_name": task, "evaluation_method": "browser"}
    return await client.post(f"/sessions/{sid}/evaluate", json=body)


def _judged(sessions: SwSessions, sid: str) -> list[str]:
    judged: list[str] = sessions.get(sid).episode.judged
    return judged


def test_a_session_that_names_its_task_loads_only_its_start(tmp_path: Path) -> None:
    async def go() -> None:
        async with served(tmp_path) as (client, sessions):
            sid = await _open(client, "cat_walk_right")
            for forbidden in (
                "cat_walk_right_golden.sb3",  # its own golden
                "pong_starter_golden.sb3",
                "pong_starter_paddle_moving_error.sb3",  # another task's start
                "no_such.sb3",  # no fallback to party.sb3 either
            ):
                resp = await _load(client, sid, forbidden)
                assert resp.status_code == 403, (forbidden, resp.text)
                assert "not a start of task 'cat_walk_right'" in resp.text, resp.text
            assert (await _load(client, sid, "default_project.sb3")).status_code == 200
            resp = await _evaluate(client, sid, "cat_walk_right")
            assert resp.status_code == 200 and resp.json()["result"]["success"], resp.text
            assert _judged(sessions, sid) == ["cat_walk_right"]

    asyncio.run(go())


def test_a_session_evaluates_only_the_task_it_was_opened_for(tmp_path: Path) -> None:
    async def go() -> None:
        async with served(tmp_path) as (client, sessions):
            sid = await _open(client, "cat_walk_left")
            resp = await _evaluate(client, sid, "cat_walk_right")
            assert resp.status_code == 403 and "evaluates only that task" in resp.text, resp.text
            # a session that named no task is bound by its first evaluate
            free = await _open(client)
            assert (await _evaluate(client, free, "cat_walk_left")).status_code == 200
            resp = await _evaluate(client, free, "compute_sum_list")
            assert resp.status_code == 403, resp.text
            assert (await _evaluate(client, free, "cat_walk_left")).status_code == 200
            assert _judged(sessions, free) == ["cat_walk_left", "cat_walk_left"]
            info = (await client.get(f"/sessions/{free}")).json()
            assert info["bound_task"] == "cat_walk_left" and info["ended"] is None, info
            # a name no task answered to when the session opened is still its only task
            later = await _open(client, "later_task")
            assert (await _evaluate(client, later, "cat_walk_left")).status_code == 403
            (tmp_path / "sw" / "scratch-bench-api/api/evaluation_scripts/later_task.js").write_text(
                "module.exports = async () => ({success: true});\n"
            )
            assert (await _evaluate(client, later, "later_task")).status_code == 200
            assert _judged(sessions, sid) == []

    asyncio.run(go())


def test_a_session_that_loaded_a_golden_is_never_judged(tmp_path: Path) -> None:
    """A drag-run style session (no task named) may load anything, but not be judged then."""

    async def go() -> None:
        async with served(tmp_path) as (client, sessions):
            sid = await _open(client)
            assert (await _load(client, sid, "pong_starter_golden.sb3")).status_code == 200
            resp = await _evaluate(client, sid, "pong_starter_ball_speed_error")
            assert resp.status_code == 403 and "not a start" in resp.text, resp.text
            other = await _open(client)
            copy = tmp_path / "sw" / "scratch-gui" / "static" / "renamed.sb3"
            copy.write_bytes((copy.parent / "cat_walk_right_golden.sb3").read_bytes())
            assert (await _load(client, other, "renamed.sb3")).status_code == 200
            # a bare script lists no start: any project but a golden (by its bytes too)
            (tmp_path / "sw" / "scratch-bench-api/api/evaluation_scripts/bare.js").write_text(
                "module.exports = async () => ({success: true});\n"
            )
            resp = await _evaluate(client, other, "bare")
            assert resp.status_code == 403, resp.text
            assert _judged(sessions, sid) == [] and _judged(sessions, other) == []

    asyncio.run(go())


def test_custom_js_is_off_but_the_drag_runners_restore_is_served() -> None:
    async def go() -> None:
        handler, page = SessionHandler(), FakePage()
        sent = "async ({vm}) => { window.studioBridge.saveProjectBase64 = () => 'golden'; }"
        with pytest.raises(SwActionError) as refused:
            await handler.execute(page, SwAction("custom_js", {"fn": sent}, "composite"))
        assert refused.value.code == "UNSUPPORTED" and "--allow-custom-js" in str(refused.value)
        assert page.calls == []  # nothing reached the page
        page.answer = {"scale": 0.675, "scrollX": 59.3, "scrollY": 29.6}
        restore = {"fn": sent, "payload": {**RESTORE, "transform": "translate(1,2)"}}
        await handler.execute(page, SwAction("custom_js", restore, "composite"))
        assert handler.last_reply.data == page.answer
        called = [c for c in page.calls if isinstance(c, list) and "restoreWorkspace" in c]
        assert called and sent not in str(page.calls), page.calls  # the studio's own restore
        named = SwAction("set_workspace_state", {"payload": RESTORE}, "composite")
        await handler.execute(page, named)
        # allowed: the code sent runs, and the server marks its sessions
        allowed, page = SessionHandler(allow_custom_js=True), FakePage()
        page.answer = {"ok": True, "value": 1}
        await allowed.execute(page, SwAction("custom_js", {"fn": "() => 1"}, "composite"))
        assert any(isinstance(c, list) and "customJs" in c for c in page.calls), page.calls

    asyncio.run(go())


def test_sessions_on_a_server_that_allows_custom_js_are_marked_in_the_report(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        async with served(tmp_path, allow_custom_js=True) as (client, sessions):
            sid = await _open(client, "cat_walk_right")
            run = sessions.get(sid).episode.recorder.run
            assert run.meta[UNSEALED_KEY]
        async with served(tmp_path / "b") as (client, sessions):
            sid = await _open(client, "cat_walk_right")
            assert UNSEALED_KEY not in sessions.get(sid).episode.recorder.run.meta

    asyncio.run(go())
    now = datetime.now(UTC)
    verdict = EvalResult(
        task_id="t",
        project="p",
        success=True,
        passed_tests=1,
        total_tests=1,
        partial_success_rate=1.0,
    )
    runs = [
        RunInfo(
            episode_id=str(i),
            task_id="create_t",
            mode=Mode.COMPOSITE,
            agent="gpt",
            started_at=now,
            ended_at=now,
            eval=verdict,
            meta=meta,
        )
        for i, meta in enumerate(({}, {UNSEALED_KEY: "custom_js allowed"}))
    ]
    report = build_report([entry_from_run(r, tmp_path) for r in runs])
    assert sorted(r.agent for r in report.rows) == ["gpt", "gpt [unsealed]"]
    assert "[unsealed]: runs on a server started with --allow-custom-js" in format_table(report)


def test_the_session_cap_refuses_a_new_session_and_closes_none(tmp_path: Path) -> None:
    async def go() -> None:
        async with served(tmp_path, max_sessions=2) as (client, sessions):
            first, second = await _open(client), await _open(client)
            resp = await client.post("/sessions")
            assert resp.status_code == 429 and "--max-sessions 2" in resp.text, resp.text
            assert {s.id for s in sessions.list()} == {first, second}
            assert (await client.delete(f"/sessions/{first}")).status_code == 200
            await _open(client)

    asyncio.run(go())


def test_a_session_whose_page_stops_answering_is_ended_and_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessions_module, "PROBE_TIMEOUT_S", 0.2)
    monkeypatch.setattr(sessions_module, "CLOSE_TIMEOUT_S", 0.5)

    async def go() -> None:
        async with served(tmp_path, call_timeout_s=0.5) as (client, sessions):
            stuck, other = await _open(client), await _open(client)
            sessions.get(stuck).page.hang = True
            resp = await client.post(f"/sessions/{stuck}/click", json={"x": 5, "y": 5})
            assert resp.status_code == 410 and "stopped answering" in resp.text, resp.text
            assert sessions.get(stuck).page.closed
            again = await client.get(f"/sessions/{stuck}/screenshot")
            assert again.status_code == 410, again.text
            resp = await client.post(
                f"/sessions/{other}/load_project?project_name=default_project.sb3"
            )
            assert resp.status_code == 200, resp.text
            closed = await asyncio.wait_for(client.delete(f"/sessions/{stuck}"), 10)
            assert closed.status_code == 200 and closed.json()["status"] == "closed"
            assert (await client.get(f"/sessions/{other}")).status_code == 200

    asyncio.run(go())


def test_a_custom_js_that_never_ends_ends_its_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessions_module, "PROBE_TIMEOUT_S", 0.2)

    async def go() -> None:
        async with served(tmp_path, allow_custom_js=True) as (client, sessions):
            sid = await _open(client)
            session = sessions.get(sid)
            session.handler.custom_js_timeout_s = 0.3
            session.page.hang = True
            body = {"api": "custom_js", "args": {"fn": "() => { for (;;) {} }"}}
            resp = await client.post(f"/sessions/{sid}/composite/execute", json=body)
            answer = resp.json()
            assert resp.status_code == 200 and answer["error"]["code"] == "CUSTOM_JS_ERROR"
            assert "the session has ended" in answer["error"]["message"], answer
            assert session.page.closed
            assert (await client.get(f"/sessions/{sid}/screenshot")).status_code == 410

    asyncio.run(go())


def test_names_the_file_system_cannot_take_are_4xx(tmp_path: Path) -> None:
    async def go() -> None:
        async with served(tmp_path) as (client, sessions):
            assert sessions.checkout.task("a" * 254) is None  # no OSError
            assert sessions.checkout.task("é" * 200) is None
            resp = await client.post("/sessions", params={"task_name": "t" * 300})
            assert resp.status_code == 422, resp.text
            sid = await _open(client)
            resp = await _evaluate(client, sid, "é" * 200)
            assert resp.status_code == 500 and "no evaluation script" in resp.text, resp.text
            resp = await _evaluate(client, sid, "t" * 300)
            assert resp.status_code == 422, resp.text

    asyncio.run(go())


def test_page_errors_already_answered_are_logged_without_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> None:
        async with served(tmp_path) as (client, sessions):
            sid = await _open(client)

            async def broken(*_a: Any, **_k: Any) -> Any:
                raise PlaywrightError("Target page, context or browser has been closed")

            sessions.get(sid).episode.step = broken
            resp = await client.post(f"/sessions/{sid}/click", json={"x": 5, "y": 5})
            assert resp.status_code == 200 and resp.json()["error"]["code"] == "RUNTIME_ERROR"

    with caplog.at_level(logging.INFO):
        asyncio.run(go())
    assert any("has been closed" in r.getMessage() for r in caplog.records)
    assert all(r.exc_info is None for r in caplog.records), [r.getMessage() for r in caplog.records]
