"""The window's editor page refuses every navigation it did not ask for (issue 44).

A real QWebEnginePage (`EditorPage`, off-the-record profile) over two small local documents
stands for the editor: what is tested is the page's refusal, not the Scratch GUI. Each case
runs a script that would take the page away and asserts that the refusal was announced, that
no load started or failed, and that the same document (its URL and a mark set in its
window) is still there.

Not covered, because Qt does not ask: a navigation to `about:blank` (QtWebEngine commits it
without calling `acceptNavigationRequest`), see studio/views/editor/page.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

WAIT_MS = 30_000

DOCUMENT = "<!doctype html><title>{name}</title><a id=go href='elsewhere.html'>go</a>"


@pytest.fixture
def page(qtbot: Any, qapp: Any) -> Any:
    import shiboken6
    from PySide6.QtWebEngineCore import QWebEngineProfile

    from studio.views.editor.page import EditorPage

    profile = QWebEngineProfile()  # off the record: no cache of the session's
    page = EditorPage(profile)
    yield page
    shiboken6.delete(page)  # now, before its profile (Qt warns of a profile released first)
    profile.deleteLater()


def _load(qtbot: Any, page: Any, path: Path) -> None:
    from PySide6.QtCore import QUrl

    with qtbot.waitSignal(page.document_finished, timeout=WAIT_MS) as finished:
        page.load(QUrl.fromLocalFile(str(path)))
    assert finished.args == [True]


def _js(qtbot: Any, page: Any, script: str) -> Any:
    with qtbot.waitCallback(timeout=WAIT_MS) as callback:
        page.runJavaScript(script, 0, callback)
    return callback.args[0]


def _documents(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "first.html", tmp_path / "second.html"
    first.write_text(DOCUMENT.format(name="first"), encoding="utf-8")
    second.write_text(DOCUMENT.format(name="second"), encoding="utf-8")
    return first, second


@pytest.mark.parametrize(
    ("script", "wanted"),
    [
        ("location.href = 'http://127.0.0.1:9/away'", "/away"),
        ("history.back()", "first.html"),
        ("location.reload()", "second.html"),
        ("document.getElementById('go').click()", "elsewhere.html"),
    ],
)
def test_a_navigation_the_page_asks_for_is_refused_and_the_document_stays(
    qtbot: Any, page: Any, tmp_path: Path, script: str, wanted: str
) -> None:
    first, second = _documents(tmp_path)
    _load(qtbot, page, first)
    _load(qtbot, page, second)  # the studio's own loads go through, even after a first one
    home = page.url().toString()
    assert home.endswith("second.html") and page.history().canGoBack()
    _js(qtbot, page, "window.__mark = 44")
    loads: list[str] = []
    page.document_started.connect(lambda: loads.append("started"))
    page.document_finished.connect(lambda ok: loads.append(f"finished {ok}"))

    with qtbot.waitSignal(page.navigation_refused, timeout=WAIT_MS) as refused:
        _js(qtbot, page, script)

    assert str(refused.args[0]).endswith(wanted)
    assert _js(qtbot, page, "[window.__mark, document.title].join(' ')") == "44 second"
    assert page.url().toString() == home
    assert loads == []  # no load of the document started or failed (the view listens to these)


def test_the_studio_can_load_another_document_after_a_refusal(
    qtbot: Any, page: Any, tmp_path: Path
) -> None:
    first, second = _documents(tmp_path)
    _load(qtbot, page, first)
    with qtbot.waitSignal(page.navigation_refused, timeout=WAIT_MS):
        _js(qtbot, page, "location.href = 'http://127.0.0.1:9/away'")
    _load(qtbot, page, second)
    assert _js(qtbot, page, "document.title") == "second"
    page.setHtml("<title>blank</title>")  # the view's stand-in for an edition not installed
    qtbot.waitUntil(lambda: _js(qtbot, page, "document.title") == "blank", timeout=WAIT_MS)
