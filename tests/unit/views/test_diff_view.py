"""The diff view lays two projects side by side, colours edits and sums them up."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from studio.services.core.project_diff import RowKind
from studio.services.core.sb3 import load_sb3
from studio.views.authoring.diff_view import IDENTICAL_TEXT, ROW_COLORS, DiffView

TASKS = Path(__file__).resolve().parents[3] / "tasks"


def _task(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return load_sb3(TASKS / name / "initial.sb3")[1], load_sb3(TASKS / name / "golden.sb3")[1]


def _rows(view: DiffView) -> list[list[str]]:
    table = view.table
    return [
        [table.item(r, c).text() if table.item(r, c) else "" for c in range(4)]
        for r in range(table.rowCount())
    ]


def _background(view: DiffView, row: int, col: int) -> str:
    return view.table.item(row, col).background().color().name()


def test_the_added_block_of_score_reset_is_green_on_the_right(qtbot: Any) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.show_diff(*_task("debug_score_reset"))
    assert view.summary_text() == (
        "initial → golden: 1 block edit (1 added · 0 removed · 0 changed) · 6 block types in golden"
    )
    assert view.section_titles() == ["Coin: 1 block added"]
    rows = _rows(view)
    assert rows[1] == ["1", "when flag clicked", "1", "when flag clicked"]
    assert rows[2] == ["", "", "+2", "set score to [0]"]
    assert rows[3] == ["2", "go to x: (0) y: (0)", "3", "go to x: (0) y: (0)"]
    assert _background(view, 2, 3) == ROW_COLORS[RowKind.ADDED][1] == "#d7f0dd"
    assert _background(view, 2, 1) == ROW_COLORS[RowKind.ADDED][0]
    assert view.table.item(2, 3).data(Qt.ItemDataRole.UserRole) == "added"
    assert "data_setvariableto" in view.block_types.text()
    assert view.stack.currentWidget() is view.table
    header = view.table.horizontalHeaderItem
    assert (header(1).text(), header(3).text()) == ("initial", "golden")


def test_removed_and_changed_lines_are_red_and_yellow(qtbot: Any) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    initial, golden = _task("debug_score_reset")
    view.show_diff(golden, initial, "golden", "initial")  # backwards: the block goes away
    rows = _rows(view)
    assert rows[2] == ["−2", "set score to [0]", "", ""]
    assert _background(view, 2, 1) == "#fbdcd9"
    view.show_diff(*_task("debug_rocket_comparator"), right_title="fix")
    changed = [r for r, row in enumerate(_rows(view)) if row[0].startswith("~")]
    assert len(changed) == 1
    assert _rows(view)[changed[0]][1:] == [
        "repeat until <(y position) < [100]> {",
        "~3",
        "repeat until <(y position) > [100]> {",
    ]
    assert _background(view, changed[0], 1) == _background(view, changed[0], 3) == "#fff1bf"
    assert view.table.horizontalHeaderItem(3).text() == "fix"


def test_unchanged_sprites_show_on_request(qtbot: Any) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.show_diff(*_task("debug_score_reset"))
    assert view.section_titles() == ["Coin: 1 block added"]
    view.show_unchanged.setChecked(True)
    assert view.section_titles() == ["Stage: no change", "Coin: 1 block added"]


def test_identical_projects_show_a_plain_message(qtbot: Any) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    initial, _golden = _task("debug_score_reset")
    view.show_diff(initial, copy.deepcopy(initial))
    assert view.summary_text() == "initial → golden: identical"
    assert view.stack.currentWidget() is view.message
    assert view.message.text() == IDENTICAL_TEXT
    assert view.comparison is not None and view.comparison.identical
    view.show_unchanged.setChecked(True)  # then the scripts show anyway, all unchanged
    assert view.stack.currentWidget() is view.table
    assert view.section_titles() == ["Stage: no change", "Coin: no change"]


def test_errors_and_clearing(qtbot: Any) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.show_diff(*_task("debug_score_reset"))
    view.show_error("golden.sb3: not a zip file")
    assert view.summary_text() == "golden.sb3: not a zip file"
    assert view.table.rowCount() == 0 and view.comparison is None
    view.show_unchanged.setChecked(True)  # nothing to redraw, nothing breaks
    assert view.table.rowCount() == 0
    view.clear()
    assert view.summary_text() == "No comparison yet."
