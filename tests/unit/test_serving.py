"""Serving through studio.app: the one assembly of the agent API (with, when asked, the
ScratchWorld routes) and its checks, on real HTTP servers on loopback (httpx); the episodes
come from the fake manager, so no browser starts."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx
import pytest

from studio.app.serving.agent_api import start_serving
from studio.app.serving.options import (
    CLI_FLAGS,
    WINDOW_SETTINGS,
    ServeOptions,
    check_options,
    recording_folder,
)
from studio.app.serving.study import start_study
from studio.app.serving.until_stopped import serve_until_stopped
from studio.models.errors import StudioError
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.scratchworld_fixture import build_set

TOKEN = "serving-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A ScratchWorld checkout in the published layout, with tasks."""
    return build_set(tmp_path / "sw").root


@pytest.fixture
def no_env_token(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("STUDIO_TOKEN", raising=False)
    monkeypatch.delenv("STUDIO_TOKEN_FILE", raising=False)
    yield


def test_the_api_is_served_with_its_token_and_stops_at_close(
    loop_thread: LoopThread, tmp_path: Path
) -> None:
    manager = FakeEpisodeManager()
    options = ServeOptions(token=TOKEN, library=tmp_path)
    served = loop_thread.run(start_serving(options, manager))
    try:
        assert served.url.startswith("http://127.0.0.1:") and not served.url.endswith(":0")
        assert served.token == TOKEN and not served.generated and served.library == tmp_path
        assert served.sessions is None and served.sessions_url is None
        assert httpx.get(f"{served.url}/episodes", headers=AUTH).json() == {"episodes": []}
        assert httpx.get(f"{served.url}/episodes").status_code == 401
        assert httpx.get(f"{served.url}/sessions").status_code == 401  # no such open routes
    finally:
        loop_thread.run(served.close())
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{served.url}/episodes", headers=AUTH)
    loop_thread.run(served.close())  # a second close does nothing
    assert not manager.started  # a manager given is the caller's: neither started nor closed


def test_the_scratchworld_routes_are_served_without_a_token(
    loop_thread: LoopThread, checkout: Path, tmp_path: Path
) -> None:
    options = ServeOptions(token=TOKEN, library=tmp_path, scratchworld=checkout)
    served = loop_thread.run(start_serving(options, FakeEpisodeManager()))
    try:
        assert served.checkout is not None and served.checkout.task_count > 0
        assert served.sessions_url == f"{served.url}/sessions"
        assert httpx.get(served.sessions_url).json() == {"sessions": [], "count": 0}
        ready = httpx.get(f"{served.url}/").json()
        assert ready["status"] == "ok" and ready["sessions"] == 0
        assert httpx.get(f"{served.url}/episodes").status_code == 401  # the API keeps its token
        imported = served.checkout._imported
        assert imported is not None and imported.is_dir()
    finally:
        loop_thread.run(served.close())
    assert not imported.exists()  # the checkout's imported tasks are removed at close


def test_a_new_token_is_made_when_none_is_given(
    loop_thread: LoopThread, tmp_path: Path, no_env_token: None
) -> None:
    served = loop_thread.run(start_serving(ServeOptions(), FakeEpisodeManager()))
    try:
        assert served.generated and len(served.token) >= 24
        auth = {"Authorization": f"Bearer {served.token}"}
        assert httpx.get(f"{served.url}/episodes", headers=auth).status_code == 200
    finally:
        loop_thread.run(served.close())


def test_a_port_in_use_is_named_and_nothing_is_left_open(
    loop_thread: LoopThread, checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a temp folder of its own: other processes on the machine import checkouts too
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        options = ServeOptions(token=TOKEN, port=port, scratchworld=checkout)
        temp = Path(tempfile.gettempdir())
        before = set(temp.glob("studio-sw-tasks-*"))
        with pytest.raises(StudioError, match=f"cannot listen on 127.0.0.1:{port}"):
            loop_thread.run(start_serving(options, FakeEpisodeManager()))
        assert set(temp.glob("studio-sw-tasks-*")) <= before  # the checkout's import is gone


@pytest.mark.parametrize(
    ("options", "cli", "window"),
    [
        (ServeOptions(port=70000), "--port: must be a whole number", "the port: must be"),
        (ServeOptions(host="0.0.0.0"), "--allow-remote", "--allow-remote"),
        (ServeOptions(max_sessions=0), "--max-sessions takes a number of 1 or more", "sessions"),
        (ServeOptions(max_episodes=-1), "--max-episodes takes a number of 1", "most episodes"),
        (ServeOptions(steps=0), "--steps takes a number of 1 or more", "the step limit"),
        (ServeOptions(allow_custom_js=5), "give --scratchworld", "give the ScratchWorld routes"),
        (
            ServeOptions(allow_custom_js=601, scratchworld=Path("sw")),
            "--allow-custom-js SECONDS: at most 600",
            "custom_js SECONDS: at most 600",
        ),
        (
            ServeOptions(host="0.0.0.0", allow_remote=True, scratchworld=Path("sw")),
            "--scratchworld serves routes without a token: listen on 127.0.0.1, not 0.0.0.0",
            "the ScratchWorld routes serve",
        ),
    ],
)
def test_options_that_cannot_be_served_are_refused_naming_the_setting(
    options: ServeOptions, cli: str, window: str
) -> None:
    names: Mapping[str, str]
    for names, fragment in ((CLI_FLAGS, cli), (WINDOW_SETTINGS, window)):
        with pytest.raises(StudioError) as caught:
            check_options(options, names)
        assert fragment in str(caught.value)


def test_the_checks_run_before_anything_starts(loop_thread: LoopThread) -> None:
    manager = FakeEpisodeManager()
    with pytest.raises(StudioError, match="--max-episodes"):
        loop_thread.run(start_serving(ServeOptions(max_episodes=0), manager))
    with pytest.raises(StudioError, match=r"not found; is .* a ScratchWorld checkout"):
        options = ServeOptions(token=TOKEN, scratchworld=Path("/nonexistent-checkout"))
        loop_thread.run(start_serving(options, manager))
    with pytest.raises(StudioError, match="--port"):
        loop_thread.run(start_study(Path("/nonexistent-study"), port=-1))
    check_options(ServeOptions(host="0.0.0.0", allow_remote=True))  # asked for: allowed
    assert not manager.started


def test_a_recording_folder_is_stamped_under_out(tmp_path: Path) -> None:
    folder = recording_folder(tmp_path)
    assert folder.parent == tmp_path and folder.name.startswith("api-20")


def test_serving_lasts_until_a_stop_signal_then_closes() -> None:
    closed: list[bool] = []

    async def close() -> None:
        closed.append(True)

    async def main() -> None:
        asyncio.get_running_loop().call_soon(os.kill, os.getpid(), signal.SIGTERM)
        await serve_until_stopped(close)

    before = signal.getsignal(signal.SIGTERM)
    asyncio.run(main())  # the main thread: the loop takes the signal
    assert closed == [True]
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is taken away again
