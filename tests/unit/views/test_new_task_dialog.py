"""The New task dialog keeps what was typed and shows errors in place (issue 31, point 6)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog, QWidget

from studio.views.library.controller import LibraryController
from studio.views.library.new_task_dialog import ID_HINT, PROJECT_HINT, NewTaskDialog
from tests.helpers.tasks import cat_project


def _dialog(qtbot: Any, library: Path) -> NewTaskDialog:
    parent = QWidget()
    qtbot.addWidget(parent)
    ops = LibraryController(parent, lambda: library)
    dialog = NewTaskDialog(parent, ops._create)
    dialog.show()
    return dialog


def _typed(dialog: NewTaskDialog) -> tuple[str, str, str, str]:
    return (
        dialog.task_id.text(),
        dialog.category.currentText(),
        dialog.instruction.toPlainText(),
        dialog.project.text(),
    )


def test_errors_keep_what_was_typed_and_show_in_place(qtbot: Any, tmp_path: Path) -> None:
    library = tmp_path / "lib"
    dialog = _dialog(qtbot, library)
    dialog.category.setCurrentText("debug")
    dialog.instruction.setPlainText("Fix the cat so that it walks.")
    broken = tmp_path / "broken.sb3"
    broken.write_bytes(b"not a project")
    dialog.project.setText(str(broken))

    for task_id, expected in (
        ("", "Give the task an id"),
        ("my task!", "'my task!' is not a valid task id"),
        ("debug_walk", str(broken)),  # the start project is not a Scratch project
    ):
        dialog.task_id.setText(task_id)
        typed = _typed(dialog)
        assert asyncio.run(dialog.attempt()) is None
        assert dialog.isVisible() and dialog.result() == 0  # still open ...
        assert _typed(dialog) == typed  # ... with everything typed
        assert dialog.error.isVisible() and expected in dialog.error.text()
    assert not (library / "debug_walk").exists()

    good = tmp_path / "good.sb3"
    good.write_bytes(cat_project())
    dialog.project.setText(str(good))
    created = asyncio.run(dialog.attempt())
    assert created is not None and created.folder == library / "debug_walk"
    assert created.task.instruction == "Fix the cat so that it walks."
    assert not dialog.isVisible() and dialog.created is created


def test_start_project_has_a_browse_button_and_placeholders_fit(qtbot: Any, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, tmp_path)
    dialog.browse.click()
    [picker] = dialog.findChildren(QFileDialog)
    assert picker.isVisible() and "*.sb3" in picker.nameFilters()[0]
    chosen = str(tmp_path / "start.sb3")
    picker.fileSelected.emit(chosen)
    assert dialog.project.text() == chosen
    picker.reject()
    for edit, hint in ((dialog.task_id, ID_HINT), (dialog.project, PROJECT_HINT)):
        assert edit.width() > edit.fontMetrics().horizontalAdvance(hint)
