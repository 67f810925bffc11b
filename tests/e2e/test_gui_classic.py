"""The window on a library recorded for the classic editor edition (studio.views.window.edition):
its embedded editor is the classic one (scratch-gui 5.x) with the idle rest, a task's project
loads into it, evaluates in classic evaluation pages, and a live composite episode plays in it
at the benchmark's screen and is evaluated."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import Mode
from studio.services.core import paths
from studio.services.episodes.agents import ScriptedAgent
from studio.services.runtime.editions import Edition, write_edition

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 180_000
MOVE_BLOCKS = (
    "Object.values(vm.editingTarget.blocks._blocks)"
    ".filter(b => b.opcode === 'motion_movesteps').length"
)


def test_a_classic_library_shows_the_classic_editor_evaluates_and_runs_live(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    library = tmp_path / "library"
    shutil.copytree(paths.BUNDLED_TASKS / "create_cat_walk", library / "create_cat_walk")
    write_edition(library, Edition.CLASSIC)
    window = boot_window(library)

    # The classic editor page, with the idle stage resting as on current.
    assert window.editor.page.url().path() == "/classic/editor.html"
    assert js(window, "window.studioEdition.name") == "classic"
    qtbot.waitUntil(lambda: js(window, "Boolean(window.studioRest)"), timeout=10_000)
    assert window.browser.edition is Edition.CLASSIC

    # A task's golden project loads and evaluates (in classic evaluation pages) to PASS.
    run_async(window.wait_library())
    assert window.library.select_task("create_cat_walk")
    assert run_async(window.open_task_project("golden"))
    assert js(window, "vm.editingTarget.getName()") == "Cat"
    result = run_async(window.evaluate_editor_project(), timeout_ms=WAIT_MS)
    assert result is not None and result.success, result
    assert window.browser.pool.edition is Edition.CLASSIC

    # A live composite episode plays in the classic editor, at the benchmark's screen.
    entry = window.library.current_entry()
    agent = ScriptedAgent(
        [({"api": "add_block", "args": {"blockType": "motion_movesteps"}}, "a move block")]
    )
    screens: list[tuple[int, int]] = []
    window.run_panel.model.rowsInserted.connect(
        lambda *_: screens.append((window.editor.view.width(), window.editor.view.height()))
    )
    live = run_async(window.runs.run_agent(entry, agent, Mode.COMPOSITE), timeout_ms=WAIT_MS)
    assert live is not None and live.total_tests == 4 and not live.success
    assert [s.api for s in window.run_panel.model.steps] == ["add_block", "done"]
    assert window.run_panel.model.steps[0].record.ok
    assert screens and screens[0] == (1280, 720)
    assert js(window, "window.studioEdition.name") == "classic"
    assert js(window, MOVE_BLOCKS) == 1  # the episode's program, on the initial project
