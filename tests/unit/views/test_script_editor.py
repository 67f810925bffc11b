"""The script editor: colours, two-space tabs, error marking, modification and run requests."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from studio.views.authoring.js_highlighter import COLORS
from studio.views.authoring.script_editor import ERROR_LINE_COLOR, ScriptEditor

SCRIPT = """// checks the score
const EU = EvaluationUtils;
/* a comment
   over 'two' lines */ let n = 0x1F + 2.5;
const msg = `score is ${n}
still // inside the template`;
const url = "http://x.org"; // a real comment
module.exports = async (vm) => EU.runTests(vm, []);
"""


def _editor(qtbot: Any, text: str = SCRIPT) -> ScriptEditor:
    editor = ScriptEditor()
    qtbot.addWidget(editor)
    editor.set_text(text)
    return editor


def _color_at(editor: ScriptEditor, line: int, column: int) -> str | None:
    """The colour the highlighter gave the character at (1-based line, 0-based column)."""
    block = editor.edit.document().findBlockByNumber(line - 1)
    for rng in block.layout().formats():
        if rng.start <= column < rng.start + rng.length:
            return rng.format.foreground().color().name()
    return None


def _find(editor: ScriptEditor, line: int, word: str) -> int:
    return editor.edit.document().findBlockByNumber(line - 1).text().index(word)


def test_javascript_is_coloured_by_token(qtbot: Any) -> None:
    editor = _editor(qtbot)
    comment, string, keyword = COLORS["comment"], COLORS["string"], COLORS["keyword"]
    assert _color_at(editor, 1, 5) == comment
    assert _color_at(editor, 2, 0) == keyword  # const
    assert _color_at(editor, 2, _find(editor, 2, "Evaluation")) == COLORS["builtin"]
    assert _color_at(editor, 3, 0) == comment
    assert _color_at(editor, 4, _find(editor, 4, "two")) == comment  # quotes inside a comment
    assert _color_at(editor, 4, _find(editor, 4, "let")) == keyword  # after the comment closes
    assert _color_at(editor, 4, _find(editor, 4, "0x1F")) == COLORS["number"]
    assert _color_at(editor, 4, _find(editor, 4, "2.5") + 2) == COLORS["number"]
    assert _color_at(editor, 5, _find(editor, 5, "score")) == string
    assert _color_at(editor, 6, _find(editor, 6, "//")) == string  # still in the template
    assert _color_at(editor, 6, _find(editor, 6, ";")) is None  # the template has closed
    assert _color_at(editor, 7, _find(editor, 7, "//x")) == string  # // inside a string
    assert _color_at(editor, 7, _find(editor, 7, "a real")) == comment
    assert _color_at(editor, 8, _find(editor, 8, "runTests")) is None  # a plain identifier
    assert COLORS["keyword"] != COLORS["string"] != COLORS["comment"]


def test_all_colours_are_dark_enough_for_a_light_background() -> None:
    for name, color in COLORS.items():
        assert QColor(color).lightness() < 150, name


def test_tab_inserts_two_spaces_and_enter_keeps_the_indentation(qtbot: Any) -> None:
    editor = _editor(qtbot, "")
    qtbot.keyClick(editor.edit, Qt.Key.Key_Tab)
    qtbot.keyClicks(editor.edit, "a;")
    qtbot.keyClick(editor.edit, Qt.Key.Key_Return)
    qtbot.keyClicks(editor.edit, "b;")
    assert editor.text() == "  a;\n  b;"
    qtbot.keyClick(editor.edit, Qt.Key.Key_Backtab)
    assert editor.text() == "  a;\nb;"
    editor.edit.undo()
    assert editor.text() == "  a;\n  b;"


def test_ctrl_enter_asks_for_a_run_without_editing(qtbot: Any) -> None:
    editor = _editor(qtbot, "x")
    with qtbot.waitSignal(editor.run_requested):
        qtbot.keyClick(editor.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert editor.text() == "x"
    editor.set_read_only(True)
    with qtbot.waitSignal(editor.run_requested):
        qtbot.keyClick(editor.edit, Qt.Key.Key_Enter, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor.edit, "typed")
    assert editor.text() == "x" and editor.is_read_only()


def test_modification_is_reported_until_saved(qtbot: Any) -> None:
    editor = _editor(qtbot, "let a = 1;")
    assert not editor.is_modified()
    with qtbot.waitSignal(editor.modified_changed) as changed:
        qtbot.keyClicks(editor.edit, "x")
    assert changed.args == [True] and editor.is_modified()
    with qtbot.waitSignal(editor.modified_changed) as saved:
        editor.mark_saved()
    assert saved.args == [False] and not editor.is_modified()
    editor.set_text("other")
    assert not editor.is_modified() and not editor.edit.document().isUndoAvailable()


def test_an_error_marks_its_line_and_shows_the_message(qtbot: Any) -> None:
    editor = _editor(qtbot)
    editor.show()
    editor.set_error(4, "Unexpected token")
    assert editor.error_line() == 4
    assert editor.error_message == "line 4: Unexpected token"
    assert editor.error_label.isVisible()
    assert editor.error_label.toolTip() == "line 4: Unexpected token"
    assert editor.edit.gutter.toolTip() == "line 4: Unexpected token"
    marked = [
        s.cursor.blockNumber() + 1
        for s in editor.edit.extraSelections()
        if s.format.background().color().name() == ERROR_LINE_COLOR
    ]
    assert marked == [4]
    assert editor.current_line() == 1  # the cursor stays until asked to move
    editor._on_error_link_activated("line")
    assert editor.current_line() == 4
    editor.clear_error()
    assert editor.error_line() is None and not editor.error_label.isVisible()
    assert all(
        s.format.background().color().name() != ERROR_LINE_COLOR
        for s in editor.edit.extraSelections()
    )


def test_an_error_without_a_usable_line(qtbot: Any) -> None:
    editor = _editor(qtbot, "a\nb")
    editor.set_error(None, "the script returned nothing")
    assert editor.error_message == "the script returned nothing"
    assert editor.error_line() is None
    editor.set_error(99, "beyond the end")
    assert editor.error_message == "line 99: beyond the end" and editor.error_line() is None


def test_go_to_line_clamps_to_the_script(qtbot: Any) -> None:
    editor = _editor(qtbot, "a\nb\nc")
    editor.go_to_line(2)
    assert editor.current_line() == 2
    editor.go_to_line(50)
    assert editor.current_line() == 3
    editor.go_to_line(0)
    assert editor.current_line() == 1


def test_the_gutter_grows_with_the_number_of_lines(qtbot: Any) -> None:
    editor = _editor(qtbot, "x")
    narrow = editor.edit.gutter_width()
    editor.set_text("\n" * 120)
    assert editor.edit.gutter_width() > narrow
    assert editor.edit.viewportMargins().left() == editor.edit.gutter_width()
