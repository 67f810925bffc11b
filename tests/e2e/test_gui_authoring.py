"""Authoring in the real window: library operations, documents, save, check, review."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.models.task import Category
from studio.services.core.store import load_task
from studio.views.library.controller import LibraryController, NewTaskRequest
from tests.helpers.sample_task import EVALUATE_JS, write_sample_task

pytestmark = [pytest.mark.gui]
WAIT_MS = 90_000


def _answers(controller: LibraryController, **answers: Any) -> None:
    """Answer the controller's questions without dialogs."""

    def give(name: str) -> Callable[..., Any]:
        async def answer(*_args: Any) -> Any:
            return answers[name]

        return answer

    for name in answers:
        setattr(controller, name, give(name))


def test_library_operations_create_duplicate_rename_delete_restore(
    qtbot: Any, tmp_path: Path, run_async: Callable[..., Any]
) -> None:
    from PySide6.QtWidgets import QWidget

    root = tmp_path / "lib"
    source = write_sample_task(tmp_path / "src" / "cat-hello")
    parent = QWidget()
    qtbot.addWidget(parent)
    ops = LibraryController(parent, lambda: root)
    messages: list[str] = []
    ops.message.connect(messages.append)

    request = NewTaskRequest("debug_cat", Category.DEBUG, "Fix the cat.", "ana", None)
    _answers(ops, ask_new_task=request)
    assert run_async(ops.new_task()) is None  # a debug task needs a project to start from
    assert "existing project" in messages[-1] and not (root / "debug_cat").exists()

    request.from_project = source / "golden.sb3"
    created = run_async(ops.new_task())
    assert created is not None and created.task.review.state.value == "draft"
    golden = (source / "golden.sb3").read_bytes()
    assert (root / "debug_cat" / "initial.sb3").read_bytes() == golden
    assert (root / "debug_cat" / "golden.sb3").read_bytes() == golden

    _answers(ops, ask_text="debug_cat_2")
    assert run_async(ops.duplicate(created)) is not None
    _answers(ops, ask_text="debug_dog")
    renamed = run_async(ops.rename(load_task(root / "debug_cat_2")))
    assert renamed is not None and renamed.task.id == "debug_dog"
    assert not (root / "debug_cat_2").exists()

    _answers(ops, ask_confirm=False)
    assert run_async(ops.delete(renamed)) is False and (root / "debug_dog").is_dir()
    _answers(ops, ask_confirm=True)
    assert run_async(ops.delete(renamed)) is True and not (root / "debug_dog").exists()
    trashed = [p.name for p in (root / ".trash").iterdir()]
    assert len(trashed) == 1 and trashed[0].startswith("debug_dog-")

    _answers(ops, ask_choice=trashed[0])
    restored = run_async(ops.restore())
    assert restored is not None and restored.folder == root / "debug_dog"

    _answers(ops, ask_folder=tmp_path / "src")  # holds a task, but is not one
    assert run_async(ops.open_folder()) is None
    assert "is a task library, not one task" in messages[-1]


SAY_BLOCK = "workspace.getAllBlocks(false).filter((b) => b.type === 'looks_say').length"
BREAK_IT = "workspace.getAllBlocks(false).find((b) => b.type === 'looks_say').dispose(true)"
INSTRUCTION = (
    "When the green flag is clicked, the Cat should move to x 100. When the Cat is clicked, "
    "it should say Hello! Fix the program so that both work."
)


@pytest.mark.browser
def test_author_builds_checks_submits_and_approves_a_debug_task(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    """The issue's path: a debug task from a golden project, broken in the editor, a script,
    evaluate, check, submit, approve - all through the real window and editor."""
    from studio.services.checking.checker import CheckOptions

    source = write_sample_task(tmp_path / "src" / "cat-hello")
    library = tmp_path / "lib"
    library.mkdir()
    window = boot_window(library)
    run_async(window.wait_library())
    _answers(
        window.library_ops,
        ask_new_task=NewTaskRequest(
            "debug_cat", Category.DEBUG, INSTRUCTION, "ana", source / "golden.sb3"
        ),
    )

    # 1. a new debug task from a working project: initial and golden start as copies
    window.commands.new_task.trigger()
    qtbot.waitUntil(
        lambda: (
            window.authoring.current.entry is not None
            and window.editor.project_name.endswith("initial.sb3")
        ),
        timeout=WAIT_MS,
    )
    folder = library / "debug_cat"
    assert js(window, SAY_BLOCK) == 1

    # 2. break the initial project in the editor: the unsaved marker follows
    js(window, BREAK_IT)
    qtbot.waitUntil(lambda: window.bar.label("initial") == "Initial •", timeout=10_000)
    assert window.bar.label("golden") == "Golden"

    # 3. the evaluation script, then save everything
    window.script.set_text(EVALUATE_JS)
    with qtbot.waitSignal(window.authoring.task_saved, timeout=WAIT_MS):
        window.commands.save.trigger()
    saved = load_task(folder)
    assert (folder / "initial.sb3").read_bytes() != (folder / "golden.sb3").read_bytes()
    assert (folder / "evaluate.js").read_text() == EVALUATE_JS
    assert saved.task.metadata.blocks_changed == 1
    assert window.bar.label("initial") == "Initial"

    # 4. evaluate what the editor holds (the broken initial): one test fails; the script runs
    # as written, unsaved: evaluate.js is not written and the unsaved mark stays
    window.script.edit.appendPlainText("// a note, not saved")
    window.commands.evaluate.trigger()
    qtbot.waitUntil(lambda: window.results.result is not None, timeout=WAIT_MS)
    assert (window.results.result.passed_tests, window.results.result.total_tests) == (1, 2)
    assert (folder / "evaluate.js").read_text() == EVALUATE_JS
    assert window.authoring.current.dirty()["script"] and window.bar.title.text().endswith("•")

    # 5. the adversarial check, with its progress and verdict recorded in the library
    window.quality.options = CheckOptions(mutants=4, reruns=1, workers=2)
    with qtbot.waitSignal(window.quality.check_finished, timeout=240_000) as finished:
        window.commands.check.trigger()
    check = finished.args[0]
    assert check.golden_passed and check.initial_failed, check.errors
    assert check.verdict.value in ("valid", "weak")
    assert window.checks.isVisible()
    assert window.library.check_text("debug_cat").startswith(check.verdict.value)
    assert json.loads((folder / "last_check.json").read_text())["verdict"] == check.verdict.value

    # 6. lint is clean enough to submit; a reviewer approves; the task becomes read-only
    qtbot.waitUntil(lambda: window.quality.findings is not None, timeout=10_000)
    errors = [f.message for f in window.quality.findings if f.level.value == "error"]
    assert errors == []
    window.review._ask_comment = lambda *_a: "Checked: the bug is caught."  # type: ignore[method-assign]
    with qtbot.waitSignal(window.authoring.task_saved, timeout=WAIT_MS):
        window.commands.submit.trigger()
    assert load_task(folder).task.review.state.value == "in_review"
    with qtbot.waitSignal(window.authoring.task_saved, timeout=WAIT_MS):
        window.review.approve_requested.emit("Checked: the bug is caught.")
    history = load_task(folder).task.review.history
    assert [e.state.value for e in history] == ["in_review", "approved"]
    assert history[-1].comment == "Checked: the bug is caught."
    assert window.authoring.current.read_only and not window.bar.save.isEnabled()
    assert window.form.instruction.isReadOnly()


@pytest.mark.browser
def test_unsaved_work_asks_before_closing_and_comes_back_after_a_crash(
    qtbot: Any,
    tmp_path: Path,
    boot_window: Callable[..., Any],
    run_async: Any,
    js: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_sample_task(tmp_path / "lib" / "cat-hello")
    window = boot_window(tmp_path / "lib")
    run_async(window.wait_library())
    entry = window.library.entries["cat-hello"]
    assert run_async(window.authoring.open_task(entry, "golden"))
    golden = tmp_path / "lib" / "cat-hello" / "golden.sb3"
    before = golden.read_bytes()
    qtbot.waitUntil(lambda: js(window, "workspace.getTopBlocks().length") == 2, timeout=10_000)
    js(window, "workspace.getTopBlocks()[0].moveBy(40, 40)")
    qtbot.waitUntil(lambda: js(window, "studioBridge.isDirty()") is True, timeout=10_000)
    assert run_async(window.authoring.save()) is not None  # before the window's next poll
    assert golden.read_bytes() != before
    window.form.set_value("description", "edited, not saved")
    window.script.set_text("// a new script, not saved\n")
    assert window.authoring.current.has_unsaved()

    asked: list[str] = []

    async def cancel(text: str) -> str:
        asked.append(text)
        return "cancel"

    window.authoring.ask_unsaved = cancel
    window.close()
    qtbot.waitUntil(lambda: bool(asked), timeout=10_000)
    assert window.isVisible() and "cat-hello has unsaved changes" in asked[0]

    # the autosave keeps the unsaved parts; a session that dies leaves them for the next one
    assert run_async(window.authoring.autosave()) == 2
    recovery = window.authoring.recovery
    assert {d.kind for d in recovery.drafts()} == {"evaluate.js", "task.json"}
    assert recovery.crashed_session() is False  # this session is still running
    recovery.lock_path.write_text("999999")  # as if its process had died
    assert recovery.crashed_session() is True

    from studio.views.window.main_window import MainWindow

    offers: list[str] = []

    async def restore(_self: Any, text: str) -> bool:
        offers.append(text)
        return True

    monkeypatch.setattr(MainWindow, "ask_restore", restore)
    second = boot_window(tmp_path / "lib")  # its start offers the work back
    qtbot.waitUntil(lambda: second.form.value("description") != "", timeout=WAIT_MS)
    assert second.script.text() == "// a new script, not saved\n"
    assert "cat-hello" in offers[0]
    assert second.form.value("description") == "edited, not saved"
    assert second.authoring.current.has_unsaved()  # restored as unsaved: nothing written yet
    assert "a new script" not in (tmp_path / "lib" / "cat-hello" / "evaluate.js").read_text()

    async def discard(_text: str) -> str:
        return "discard"

    window.authoring.ask_unsaved = discard
    second.authoring.ask_unsaved = discard

    # F1 lists every shortcut, the authoring ones included
    from studio.views.window.shortcuts_dialog import ShortcutsDialog

    window.commands.shortcuts.trigger()
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None and dialog.isVisible()
    keys = {row.command: row.keys for row in dialog.rows()}
    assert keys["Save task"] == "Ctrl+S" and keys["Check task"] == "F6"
    assert keys["New task…"] == "Ctrl+N"
    dialog.close()


@pytest.mark.browser
def test_a_document_the_editor_refuses_leaves_the_shown_one_and_names_the_file(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    folder = write_sample_task(tmp_path / "lib" / "cat-hello")
    window = boot_window(tmp_path / "lib")
    run_async(window.wait_library())
    entry = window.library.entries["cat-hello"]
    assert run_async(window.authoring.open_task(entry, "initial"))
    (folder / "golden.sb3").write_bytes(b"this is not a Scratch project")
    other = load_task(folder)  # the session reads the files again when it opens
    window.authoring.close_task()
    assert run_async(window.authoring.open_task(other, "golden")) is False
    assert str(folder / "golden.sb3") in window.editor.banner.text()
    assert window.editor.project_name.endswith("initial.sb3")  # still the previous document
    assert (folder / "golden.sb3").read_bytes() == b"this is not a Scratch project"
    # nothing is open, and nothing acts as if it were
    assert window.bar.title.text() == "No task open" and window.authoring.current.entry is None
    assert not window.commands.save.isEnabled() and not window.commands.check.isEnabled()

    # with a task open, a broken one opened from the library leaves it fully open
    broken = write_sample_task(tmp_path / "lib" / "cat-broken", task_id="cat-broken")
    for name in ("initial.sb3", "golden.sb3"):
        (broken / name).write_bytes(b"corrupt")
    run_async(window.load_library(tmp_path / "lib"))
    assert window.library.select_task("cat-hello")
    assert run_async(window.open_task_project("initial"))
    assert window.library.select_task("cat-broken")
    assert not run_async(window.open_task_project("initial"))
    assert window.bar.title.text().startswith("cat-hello") and window.commands.save.isEnabled()
    selected = window.library.current_entry()  # the tree is back on the task still open
    assert selected is not None and selected.task.id == "cat-hello"
    assert "cat-hello" in window.details.browser.toPlainText()
