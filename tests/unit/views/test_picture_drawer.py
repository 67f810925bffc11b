"""A block-picture drawer deleted while its thread draws (its pane or window closed) drops the
answer quietly: no exception escapes the drawing thread."""

from __future__ import annotations

import threading
from typing import Any

import shiboken6

from studio.views.widgets import block_pictures


def test_a_drawer_deleted_while_drawing_drops_its_answer(monkeypatch: Any, qtbot: Any) -> None:
    entered, release = threading.Event(), threading.Event()

    def slow(targets: list[Any]) -> list[Any]:
        entered.set()
        assert release.wait(30)
        return [[] for _ in targets]

    escaped: list[BaseException | None] = []
    monkeypatch.setattr(block_pictures, "many_pictures", slow)
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(args.exc_value))
    drawer = block_pictures.PictureDrawer()
    drawer.request([{"targets": []}])
    worker = drawer.worker
    assert worker is not None and entered.wait(30)
    shiboken6.delete(drawer)  # the window closed while the thread draws
    release.set()
    worker.join(30)
    assert not worker.is_alive()
    assert escaped == []


def test_a_live_drawer_answers_with_its_token(monkeypatch: Any, qtbot: Any) -> None:
    monkeypatch.setattr(block_pictures, "many_pictures", lambda targets: [[] for _ in targets])
    drawer = block_pictures.PictureDrawer()
    with qtbot.waitSignal(drawer.drawn, timeout=30_000) as blocker:
        token = drawer.request([{"targets": []}])
    assert blocker.args == [token, [[]]]
