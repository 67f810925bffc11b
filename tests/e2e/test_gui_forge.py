"""*Forge debug tasks…* in the real window: the real editor and VM judge the candidates.

One golden (the bundled debug_score_reset), R = 2, one bug wanted: the library's context menu
on the task opens the dialog, the forge runs on the window's browser, the kept candidate's
reruns all fail, Keep puts it into the library and the library panel lists it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.services.core import paths
from studio.services.forge.pipeline import ForgeOptions
from studio.views.forge.dialog import KEPT, PENDING

pytestmark = pytest.mark.browser
LIMIT_MS = 600_000  # the machine the suite runs on may be loaded


def test_the_forge_runs_in_the_window_and_a_kept_task_enters_the_library(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    library = tmp_path / "lib"
    shutil.copytree(paths.BUNDLED_TASKS / "debug_score_reset", library / "debug_score_reset")
    window = boot_window(library, wait_ready=False)
    run_async(window.wait_library())
    assert window.library.select_task("debug_score_reset")
    window.forging.options = ForgeOptions(reruns=2, per_golden=1, tries=4, derive=False)
    menu = window.library.context_menu(window.library.current_entry())
    action = next(a for a in menu.actions() if a.text().startswith("Forge debug tasks from deb"))
    action.trigger()
    dialog = window.forging.dialog
    assert dialog is not None and dialog.reruns.value() == 2
    dialog.start.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=LIMIT_MS)
    assert "Done: 1 debug task(s) forged" in dialog.status.text(), dialog.status.text()
    kept = [r for r in dialog.rows if r.state == PENDING]
    assert len(kept) == 1 and kept[0].verdict.reruns == (False, False), dialog.row_texts()
    dialog.candidates.setCurrentRow(dialog.rows.index(kept[0]))
    assert dialog.diff.titles == ("golden", "bug")
    dialog.keep.click()
    task_id = kept[0].verdict.task_id
    assert kept[0].state == KEPT and (library / task_id / "bug.json").is_file()
    qtbot.waitUntil(lambda: task_id in window.library.entries, timeout=60_000)
    dialog.close()
    assert not [p for p in library.iterdir() if p.name.startswith(".")]
