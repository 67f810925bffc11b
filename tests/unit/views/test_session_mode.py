"""A human session closes every way to the solution and records breaches (issue 31, point 1)."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QTabWidget, QWidget

from studio.views.authoring.document_bar import DocumentBar
from studio.views.sessions.mode import SessionMode
from studio.views.shell.actions import StudioActions
from studio.views.shell.results_panel import ResultsPanel
from tests.unit.trajectories.build import result


class FakeEditor:
    load_gate: Any = None

    def load(self, name: str) -> str | None:
        """What EditorView.load_project asks first."""
        return self.load_gate(name) if self.load_gate is not None else None


def _window(qtbot: Any) -> tuple[QMainWindow, StudioActions, list[QWidget], list[str]]:
    window = QMainWindow()
    qtbot.addWidget(window)
    commands = StudioActions(window)
    toolbar = commands.install(window)
    bar, tabs, library = DocumentBar(window), QTabWidget(window), QWidget(window)
    column = QWidget(window)
    for widget in (bar, tabs, library):
        widget.setParent(column)
    window.setCentralWidget(column)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    lent: list[str] = []
    return window, commands, [toolbar, window.menuBar(), bar, tabs, library], lent


def test_a_session_hides_the_solution_and_disables_every_command(qtbot: Any) -> None:
    window, commands, hides, lent = _window(qtbot)
    editor = FakeEditor()

    async def lend(what: str) -> None:
        lent.append(what)

    mode = SessionMode(commands.all(), hides, editor, lend)
    labeling = QWidget()  # another window of the studio, open before the session
    qtbot.addWidget(labeling)
    labeling.show()
    golden = []
    commands.open_golden.triggered.connect(lambda: golden.append(1))
    commands.open_golden.setEnabled(True)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert golden == [1]  # the shortcut works outside a session

    asyncio.run(mode.enter("a session"))
    assert lent == ["a session"]  # the open task's unsaved work is put aside first
    assert not any(w.isVisible() for w in hides)
    assert window.isVisible() and not labeling.isVisible()
    assert not any(a.isEnabled() for a in commands.all())
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    commands.open_golden.trigger()  # a disabled action does not run
    assert golden == [1]
    commands.open_golden.setEnabled(True)  # e.g. the window's own update after a load
    assert not commands.open_golden.isEnabled()
    hides[2].show()  # the document bar shown again by other code is hidden again
    qtbot.waitUntil(lambda: not hides[2].isVisible())

    refusal = editor.load("/tasks/create_cat_walk/golden.sb3")
    assert refusal and "refused" in refusal
    [breach] = mode.take_breaches()
    assert "golden.sb3" in breach["what"] and breach["at"]

    mode.leave()
    assert editor.load_gate is None and editor.load("golden.sb3") is None
    assert all(w.isVisible() for w in hides) and labeling.isVisible()
    assert commands.open_golden.isEnabled()  # given back as it was asked to be
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert golden == [1, 1]


def test_a_given_up_session_never_shows_pass(qtbot: Any) -> None:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    passing = result("create_cat_walk", {"walks": True})
    panel.show_result(passing, gave_up=True)
    assert "PASS" not in panel.summary_text() and "GAVE UP" in panel.summary_text()
    assert "SR 0" in panel.summary_text()
    panel.show_result(passing)
    assert panel.summary_text().startswith("PASS")
