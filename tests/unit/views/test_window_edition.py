"""Issue 27: the window follows the open library's editor edition (studio.views.window.edition).
A library recorded for an edition whose bundle is missing gets no editor, and the banner names
the edition, the folder looked in and the set-up command; another library's edition takes
effect only when the editor is free and the open task's work is kept or dropped; an unreadable
record keeps the library closed. (The classic editor in the window, evaluating and playing a
live episode: tests/e2e/test_gui_classic.py.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition, write_edition
from studio.services.runtime.server import EditorServer
from studio.views.editor.page import EditorError
from studio.views.editor.view import EditorView
from studio.views.window.edition import EditionFollower, EvaluationBrowser


def test_a_library_on_an_edition_without_its_bundle_gets_no_editor_and_is_told_why(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "no-bundle"
    empty.mkdir()
    monkeypatch.setenv("STUDIO_CLASSIC_BUNDLE_DIR", str(empty))
    view = EditorView(EditorServer())
    qtbot.addWidget(view)
    failures: list[str] = []
    view.editor_failed.connect(failures.append)
    view.set_edition(Edition.CLASSIC, "The task library /x/published")

    async def start() -> None:
        view.start()
        with pytest.raises(EditorError, match="bundle-classic"):
            await view.wait_ready(5)

    with qtbot.waitSignal(view.page.loadFinished, timeout=10_000):  # the blank page shown
        asyncio.run(start())
    shown = view.banner.text()  # still the error, not the blank page's load progress
    for named in ("/x/published", "classic edition", str(empty), "make bundle-classic"):
        assert named in shown
    assert failures == [failures[0]] and "make bundle-classic" in failures[0]
    assert not view.is_ready


class _Editor:
    """The follower's view of the editor: its edition, set and (re)started."""

    def __init__(self) -> None:
        self.edition = Edition.CURRENT
        self.starts = 0

    def set_edition(self, edition: Edition, owner: str) -> None:
        self.edition = edition

    def start(self) -> None:
        self.starts += 1


def _follower(busy: str | None = None, make_way: bool = True) -> tuple[Any, _Editor, list[str]]:
    editor, asked = _Editor(), []
    browser = EvaluationBrowser(EditorServer(), BrowserPool(EditorServer(), spares=1))

    async def way(what: str) -> bool:
        asked.append(what)
        return make_way

    follower = EditionFollower(editor, browser, lambda: busy, way)  # type: ignore[arg-type]
    return follower, editor, asked


def test_another_librarys_edition_waits_for_a_free_editor_and_the_open_tasks_work(
    tmp_path: Path,
) -> None:
    classic = tmp_path / "published"
    classic.mkdir()
    write_edition(classic, Edition.CLASSIC)
    current = tmp_path / "ours"
    current.mkdir()

    follower, editor, asked = _follower(busy="a live run has the editor")
    refused = asyncio.run(follower.follow(classic))
    assert refused is not None and "classic" in refused and "live run" in refused
    assert (editor.edition, editor.starts, asked) == (Edition.CURRENT, 0, [])

    follower, editor, asked = _follower(make_way=False)  # the author stays with unsaved work
    refused = asyncio.run(follower.follow(classic))
    assert refused is not None and "unsaved" in refused
    assert (editor.edition, editor.starts) == (Edition.CURRENT, 0)
    assert asked and "classic" in asked[0]

    follower, editor, asked = _follower()
    old_pool = follower.browser.pool
    assert asyncio.run(follower.follow(current)) is None  # same edition: nothing reloads
    assert (editor.starts, asked, follower.browser.pool) == (0, [], old_pool)
    assert asyncio.run(follower.follow(classic)) is None
    assert (editor.edition, editor.starts) == (Edition.CLASSIC, 1)
    assert follower.browser.pool.edition is Edition.CLASSIC
    assert follower.browser.evaluator.pool is follower.browser.pool


def test_an_unreadable_edition_record_keeps_the_library_closed(tmp_path: Path) -> None:
    (tmp_path / "edition.json").write_text("{not json")
    follower, editor, _asked = _follower()
    refused = asyncio.run(follower.follow(tmp_path))
    assert refused is not None and "edition.json" in refused and "not JSON" in refused
    assert editor.starts == 0

    (tmp_path / "edition.json").write_text('{"edition": "modern"}')
    refused = asyncio.run(_follower()[0].follow(tmp_path))
    assert refused is not None and "unknown editor edition 'modern'" in refused


def test_the_window_starts_on_the_librarys_edition_before_any_page_loads(tmp_path: Path) -> None:
    write_edition(tmp_path, Edition.CLASSIC)
    follower, editor, _asked = _follower()
    follower.begin(tmp_path)
    assert editor.edition is Edition.CLASSIC and editor.starts == 0
    assert follower.browser.pool.edition is Edition.CLASSIC
