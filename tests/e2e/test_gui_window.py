"""The real studio window with the real embedded Scratch editor, offscreen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.views.widgets.settings import settings_path
from tests.helpers.sample_task import (
    not_a_zip_sb3,
    vm_refused_sb3,
    write_broken_task,
    write_sample_task,
)

pytestmark = [pytest.mark.gui, pytest.mark.browser]

SPRITES = "vm.runtime.targets.filter(t => !t.isStage).map(t => t.getName())"
CAT_BLOCKS = "Object.keys(vm.runtime.getSpriteTargetByName('Cat').blocks._blocks).length"
WAIT_MS = 90_000


def _open_golden(qtbot: Any, window: Any, task_id: str) -> None:
    assert window.library.select_task(task_id)
    qtbot.waitUntil(window.commands.open_golden.isEnabled, timeout=WAIT_MS)
    window.commands.open_golden.trigger()
    banner = window.editor.banner
    qtbot.waitUntil(
        lambda: window.editor.project_name.endswith("golden.sb3") or banner.kind == "error",
        timeout=WAIT_MS,
    )
    assert banner.kind != "error", banner.text()


def test_golden_project_opens_in_the_editor_and_evaluates_to_pass(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    write_sample_task(tmp_path / "lib" / "cat-hello")
    window = boot_window(tmp_path / "lib", prewarm=True)
    run_async(window.wait_library())

    assert js(window, SPRITES) == ["Sprite1"]  # the editor's default project
    _open_golden(qtbot, window, "cat-hello")
    assert js(window, SPRITES) == ["Cat"]
    assert js(window, CAT_BLOCKS) == 9  # 5 blocks + 4 shadow number/text inputs
    assert js(window, "typeof workspace.getTopBlocks") == "function"

    window.commands.evaluate.trigger()
    qtbot.waitUntil(lambda: window.results.result is not None, timeout=WAIT_MS)
    result = window.results.result
    assert result.error is None, window.results.summary_text()
    assert (result.passed_tests, result.total_tests, result.ok) == (2, 2, True)
    assert window.results.summary_text().startswith("PASS · 2/2 tests passed")
    table = window.results.table
    assert [table.item(r, 1).text() for r in range(table.rowCount())] == ["PASS", "PASS"]
    assert result.project == "editor: golden.sb3"


def test_broken_projects_are_refused_with_the_file_named_and_the_previous_project_kept(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    write_sample_task(tmp_path / "lib" / "cat-hello")
    not_zip = tmp_path / "not-a-zip.sb3"
    not_zip.write_bytes(not_a_zip_sb3())
    refused = tmp_path / "refused-by-vm.sb3"
    refused.write_bytes(vm_refused_sb3())
    window = boot_window(tmp_path / "lib")
    run_async(window.wait_library())
    _open_golden(qtbot, window, "cat-hello")

    assert run_async(window.open_project_file(not_zip)) is False
    assert str(not_zip) in window.editor.banner.text()
    assert "not a zip archive" in window.editor.banner.text()
    assert js(window, SPRITES) == ["Cat"]

    # passes the studio's own checks; the VM refuses it after clearing itself
    assert run_async(window.open_project_file(refused)) is False
    assert str(refused) in window.editor.banner.text()
    assert "refused" in window.editor.banner.text()
    assert js(window, SPRITES) == ["Cat"]
    assert js(window, CAT_BLOCKS) == 9
    assert window.editor.project_name.endswith("golden.sb3")


def test_a_task_that_fails_to_load_is_listed_with_its_error(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    library = tmp_path / "lib"
    write_sample_task(library / "cat-hello")
    write_broken_task(library / "broken")
    window = boot_window(library, wait_ready=False)
    scan = run_async(window.wait_library())

    assert [e.task.id for e in scan.tasks] == ["cat-hello"]
    errors = window.library.error_texts()
    assert len(errors) == 1
    assert str(library / "broken" / "task.json") in errors[0]
    assert "invalid JSON at line 3" in errors[0]
    group = window.library.tree.topLevelItem(1)
    assert group.text(0) == "Failed to load (1)"
    window.library.tree.setCurrentItem(group.child(0))
    assert "This task failed to load" in window.details.text()
    assert "invalid JSON at line 3" in window.details.text()
    assert not window.commands.evaluate.isEnabled()
    keys = {a.text(): [k.toString() for k in a.shortcuts()] for a in window.commands.task_actions}
    assert keys == {
        "Open &initial": ["Ctrl+1"],
        "Open &golden": ["Ctrl+2"],
        "&Evaluate": ["F5", "Ctrl+R"],
    }
    assert window.commands.open_library.shortcut().toString() == "Ctrl+O"
    assert window.commands.quit.shortcut().toString() == "Ctrl+Q"

    window.close()  # remembers geometry and splitters in the test's own config folder
    saved = settings_path().read_text()
    assert "geometry=" in saved and "main=" in saved


def test_the_task_opened_last_opens_again_and_save_waits_for_a_task(
    tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    """Issue 31 (smaller): Save and Check are off with no task open; the next start opens the
    task opened last in this library."""
    from studio.services.core.store import load_task
    from studio.views.authoring import task_memory

    entry = load_task(write_sample_task(tmp_path / "lib" / "cat-hello"))
    task_memory.remember(entry, tmp_path / "lib")
    window = boot_window(tmp_path / "lib")
    assert not window.commands.save.isEnabled() and not window.commands.check.isEnabled()

    assert run_async(task_memory.reopen_last(window))
    assert window.editor.project_name.endswith("initial.sb3")
    assert window.library.current_entry().task.id == "cat-hello"
    assert window.commands.save.isEnabled() and window.commands.check.isEnabled()
