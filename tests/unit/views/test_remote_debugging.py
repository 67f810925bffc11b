"""The studio opens no QtWebEngine debugging endpoint, whatever the environment asks: the
endpoint would let any local process run scripts in the editor and read local files."""

from __future__ import annotations

import os

import pytest

from studio.views.app import close_remote_debugging


def test_the_environment_cannot_open_the_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QTWEBENGINE_REMOTE_DEBUGGING", "127.0.0.1:9222")
    monkeypatch.setenv(
        "QTWEBENGINE_CHROMIUM_FLAGS",
        "--no-sandbox --remote-debugging-port=9333 --remote-debugging-address=0.0.0.0 "
        "--remote-debugging-pipe --disable-sync",
    )
    close_remote_debugging()

    assert "QTWEBENGINE_REMOTE_DEBUGGING" not in os.environ
    assert os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] == "--no-sandbox --disable-sync"


def test_other_flags_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QTWEBENGINE_REMOTE_DEBUGGING", raising=False)
    monkeypatch.setenv("QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox  --ignore-gpu-blocklist")
    close_remote_debugging()

    assert os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] == "--no-sandbox  --ignore-gpu-blocklist"


def test_the_application_starts_without_it(qapp: object) -> None:
    """make_application (the session's QApplication) has removed it before QtWebEngine read
    the environment (the real check, no listening socket, is in tests/e2e/test_gui_live.py)."""

    assert "QTWEBENGINE_REMOTE_DEBUGGING" not in os.environ
