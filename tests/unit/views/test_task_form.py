"""The task form: fields to Task, one undo step per field edit, read-only when approved."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from studio.models.task import Category, Task
from studio.views.authoring.document_bar import DocumentBar
from studio.views.authoring.task_form import TaskForm


def _task() -> Task:
    return Task(id="t1", category=Category.CREATE, instruction="Make the cat walk.", author="ana")


def test_fields_round_trip_into_the_task(qtbot: Any) -> None:
    form = TaskForm()
    qtbot.addWidget(form)
    form.set_task(_task())
    assert not form.modified
    form.set_value("category", "debug")
    form.set_value("tags", "loops, motion ,")
    form.set_value("difficulty", "hard")
    task = form.apply_to(_task())
    assert task.category is Category.DEBUG
    assert task.metadata.tags == ["loops", "motion"]
    assert task.metadata.difficulty == "hard"
    assert task.author == "ana" and form.modified


def test_typing_is_one_undo_step_per_field_and_undo_restores(qtbot: Any) -> None:
    form = TaskForm()
    qtbot.addWidget(form)
    form.show()
    form.set_task(_task())
    form.description.setFocus()
    qtbot.keyClicks(form.description, "abc")
    form.set_value("category", "extend")
    assert form.undo_stack.count() == 2  # the three keys merged into one command
    form.undo_stack.undo()
    assert form.category.currentText() == "create"
    form.undo_stack.undo()
    assert form.description.text() == "" and not form.modified
    form.undo_stack.redo()
    assert form.value("description") == "abc"


def test_ctrl_z_in_a_line_edit_goes_to_the_form_stack(qtbot: Any) -> None:
    form = TaskForm()
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    form.set_task(_task())
    form.author.setFocus()
    qtbot.keyClicks(form.author, "x")
    assert form.value("author") == "anax"
    qtbot.keyClick(form.author, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert form.author.text() == "ana" and form.undo_stack.index() == 0


def test_read_only_form_refuses_edits(qtbot: Any) -> None:
    form = TaskForm()
    qtbot.addWidget(form)
    form.set_task(_task())
    form.set_read_only(True)
    assert form.instruction.isReadOnly() and not form.category.isEnabled()


def test_document_bar_marks_unsaved_documents(qtbot: Any) -> None:
    bar = DocumentBar()
    qtbot.addWidget(bar)
    bar.show_state("t1 (draft)", "golden", {"initial": True, "golden": False}, read_only=False)
    assert bar.label("initial") == "Initial •" and bar.buttons["golden"].isChecked()
    with qtbot.waitSignal(bar.copy_requested) as copied:
        bar.to_initial.click()
    assert copied.args == ["golden", "initial"]
    bar.show_state("t1 (approved)", "golden", {}, read_only=True)
    assert not bar.save.isEnabled() and bar.buttons["initial"].isEnabled()
