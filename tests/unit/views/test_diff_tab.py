"""The Diff tab keeps a surviving mutant's diff when it comes forward (issue 31, point 4)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QTabWidget, QWidget

from studio.services.checking.mutant_trials import build_mutant
from studio.services.checking.mutation import generate_mutants
from studio.services.core.sb3 import load_sb3, read_project_json
from studio.services.core.store import load_task
from studio.views.authoring.diff_tab import DiffTab
from studio.views.authoring.diff_view import DiffView

TASKS = Path(__file__).resolve().parents[3] / "tasks"


def _tab(qtbot: Any) -> tuple[QTabWidget, DiffView, DiffTab, list[str]]:
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    diff = DiffView()
    tabs.addTab(QWidget(), "Checks")
    tabs.addTab(diff, "Diff")
    entry = load_task(TASKS / "debug_score_reset")
    initial = load_sb3(entry.initial_path)[1]
    golden = load_sb3(entry.golden_path)[1] if entry.golden_path else {}
    refreshed: list[str] = []

    async def session_diff() -> None:
        refreshed.append("initial -> golden")
        diff.show_diff(initial, golden)

    def spawn(coro: Coroutine[Any, Any, Any]) -> None:
        asyncio.run(coro)

    return tabs, diff, DiffTab(tabs, diff, session_diff, spawn), refreshed


def test_a_mutant_diff_stays_when_the_diff_tab_comes_forward(qtbot: Any) -> None:
    tabs, diff, tab, refreshed = _tab(qtbot)
    entry = load_task(TASKS / "debug_score_reset")
    assert entry.golden_path is not None
    golden = read_project_json(entry.golden_path.read_bytes(), entry.golden_path)
    initial = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
    mutant = generate_mutants(golden, initial, 4, 0)[0]
    data = build_mutant(entry, 4, 0, mutant.id)
    # What a click on a surviving mutant in the Checks tab does: golden -> that mutant, shown.
    diff.show_diff(golden, read_project_json(data, mutant.id), "golden", mutant.id)
    tab.show_asked()
    assert tabs.currentWidget() is diff
    assert refreshed == [] and diff.titles == ("golden", mutant.id)
    assert diff.summary_text().startswith(f"golden → {mutant.id}")
    tabs.setCurrentIndex(0)  # away and back: still the mutant
    tabs.setCurrentIndex(1)
    assert refreshed == [] and diff.titles == ("golden", mutant.id)


def test_the_session_diff_refreshes_when_the_tab_comes_forward(qtbot: Any) -> None:
    tabs, diff, tab, refreshed = _tab(qtbot)
    tabs.setCurrentIndex(1)  # nothing shown yet: initial -> golden
    assert refreshed == ["initial -> golden"] and diff.titles == ("initial", "golden")
    tabs.setCurrentIndex(0)
    tabs.setCurrentIndex(1)  # initial -> golden again, with what the task holds now
    assert refreshed == ["initial -> golden"] * 2
    asyncio.run(tab.show_session_diff())  # Ctrl+3 asks for it whatever is shown
    assert refreshed == ["initial -> golden"] * 3
