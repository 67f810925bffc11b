"""Explicit save for scripts: Revert covers the script, undo lasts across saves, find and
replace (issue 31, point 5). That an evaluation runs the unsaved text without writing it is
proved in tests/e2e/test_evaluator.py and tests/e2e/test_gui_authoring.py."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from studio.services.core.store import load_task
from studio.views.authoring.controller import AuthoringController
from studio.views.authoring.script_editor import ScriptEditor
from tests.helpers.tasks import copy_bundled


def test_revert_puts_the_script_back_and_undo_takes_the_revert_back(
    authoring: AuthoringController, tmp_path: Path
) -> None:
    entry = copy_bundled("create_cat_walk", tmp_path)
    assert asyncio.run(authoring.open_task(entry))
    saved = entry.script_path.read_text()
    authoring.script.edit.appendPlainText("// an edit to throw away")
    assert authoring.current.dirty()["script"]
    asyncio.run(authoring.revert())
    assert authoring.script.text() == saved and not authoring.current.dirty()["script"]
    authoring.script.edit.undo()  # the revert was one edit of its own
    assert authoring.script.text().endswith("// an edit to throw away")


def test_undo_works_across_saves_while_the_task_is_open(
    authoring: AuthoringController, tmp_path: Path
) -> None:
    entry = copy_bundled("create_cat_walk", tmp_path)
    assert asyncio.run(authoring.open_task(entry))
    saved = entry.script_path.read_text()
    authoring.script.edit.appendPlainText("// saved, then regretted")
    assert asyncio.run(authoring.save()) is not None
    assert entry.script_path.read_text().endswith("// saved, then regretted")
    assert not authoring.current.dirty()["script"]
    authoring.script.edit.undo()
    assert authoring.script.text() == saved
    assert authoring.current.dirty()["script"]  # the file still holds the regretted line: unsaved
    assert authoring.bar.title.text().endswith("•")


def test_undo_goes_back_past_a_save_after_the_task_is_reopened(
    authoring: AuthoringController, tmp_path: Path
) -> None:
    first = copy_bundled("create_cat_walk", tmp_path)
    second = copy_bundled("debug_score_reset", tmp_path)
    assert asyncio.run(authoring.open_task(first))
    saved = first.script_path.read_text()
    authoring.script.edit.appendPlainText("// saved, then regretted")
    assert asyncio.run(authoring.save()) is not None
    assert asyncio.run(authoring.open_task(second))
    assert authoring.script.text() == second.script_path.read_text()
    authoring.script.edit.undo()  # nothing to undo in the other task's script
    assert authoring.script.text() == second.script_path.read_text()
    assert asyncio.run(authoring.open_task(first))
    assert not authoring.current.dirty()["script"]
    authoring.script.edit.undo()  # the regretted line goes, though saved and reopened
    assert authoring.script.text() == saved and authoring.current.dirty()["script"]

    async def discard(_question: str) -> str:
        return "discard"

    authoring.ask_unsaved = discard
    first.script_path.write_text("// changed on disk meanwhile\n")
    assert asyncio.run(authoring.open_task(second))
    assert asyncio.run(authoring.open_task(load_task(first.folder)))
    assert authoring.script.text() == "// changed on disk meanwhile\n"  # the file wins


SCRIPT = (
    "const count = 1;\n"
    "const limit = count + 1;\n"
    "module.exports = async () => ({ success: count < limit, Count: 0 });\n"
)


def _editor(qtbot: Any) -> ScriptEditor:
    editor = ScriptEditor()
    qtbot.addWidget(editor)
    editor.set_text(SCRIPT)
    editor.show()
    editor.activateWindow()
    qtbot.waitUntil(editor.isActiveWindow)
    editor.edit.setFocus()
    return editor


def test_ctrl_f_finds_with_wrap_around(qtbot: Any) -> None:
    editor = _editor(qtbot)
    bar = editor.find_bar
    assert not bar.isVisible()
    qtbot.keyClick(editor.edit, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert bar.isVisible() and bar.find_text.hasFocus()
    qtbot.keyClicks(bar.find_text, "count")  # finds as you type
    assert editor.current_line() == 1
    bar.find_text.setText("limit")
    assert editor.current_line() == 2
    bar.find_next()  # on line 3, then around to line 2
    assert editor.current_line() == 3
    bar.find_next()
    assert editor.current_line() == 2
    bar.find_text.setText("nowhere")
    assert not bar.find_next() and bar.status.text() == "no match"
    qtbot.keyClick(bar.find_text, Qt.Key.Key_Escape)
    assert not bar.isVisible()


def test_replace_all_is_one_edit(qtbot: Any) -> None:
    editor = _editor(qtbot)
    bar = editor.find_bar
    bar.open_bar()
    bar.match_case.setChecked(True)
    bar.find_text.setText("count")
    bar.replace_text.setText("steps")
    assert bar.replace_all() == 3  # not "Count"
    assert editor.text() == SCRIPT.replace("count", "steps")
    editor.edit.undo()  # one Ctrl+Z takes every replacement back
    assert editor.text() == SCRIPT
    bar.match_case.setChecked(False)
    editor.go_to_line(1)
    bar.replace_text.setText("n")
    bar.replace()  # nothing selected yet: finds the first match
    assert editor.text() == SCRIPT and editor.current_line() == 1
    bar.replace()  # replaces the selected match, selects the next
    assert editor.text().startswith("const n = 1;") and editor.current_line() == 2
    editor.set_read_only(True)
    assert bar.replace_all() == 0 and editor.text().startswith("const n = 1;")
