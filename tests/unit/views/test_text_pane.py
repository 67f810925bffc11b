"""The Text tab's widget: typing makes it dirty, setting it from the editor does not, lines
that cannot be placed are listed and a click puts the cursor on the line."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from studio.services.core.blocktext.reading import Problem
from studio.views.authoring.text_pane import TextPane


def test_dirty_follows_typing_not_setting(qtbot: Any) -> None:
    pane = TextPane()
    qtbot.addWidget(pane)
    pane.set_text("Cat", "when @greenFlag clicked\nmove (10) steps")
    assert not pane.dirty and "Cat" in pane.target.text()
    pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(pane.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(pane.editor, "show")
    assert pane.dirty and pane.text().endswith("show")
    pane.set_stale(True)
    pane.mark_applied()
    assert not pane.dirty and pane.stale.isHidden()


def test_problems_are_listed_and_lead_to_their_line(qtbot: Any) -> None:
    pane = TextPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.set_text("Cat", "when @greenFlag clicked\nmove (10) steps\nfly away\n")
    pane.show_problems([Problem(3, "unknown block 'fly away'")])
    assert pane.problems.isVisible() and pane.problems.count() == 1
    assert pane.problems.item(0).text() == "line 3: unknown block 'fly away'"
    pane.problems.itemClicked.emit(pane.problems.item(0))
    assert pane.editor.textCursor().blockNumber() == 2
    pane.show_problems([])
    assert pane.problems.isHidden()
