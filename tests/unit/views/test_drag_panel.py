"""The drag items tab: list, brush with undo, labels, blind labeling, agreement, review."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from studio.models.items import ReviewState
from studio.services.core import paths
from studio.services.diagnostics.drag.item import load_item
from studio.views.diagnostics.drag_panel import DragPanel
from studio.views.diagnostics.region_canvas import Tool
from tests.helpers.labeling import show_panel

SHIPPED = paths.PROJECT_ROOT / "diagnostics" / "drag"
ITEM = "t1_goto_below_flag"


@pytest.fixture
def items(tmp_path: Path) -> Path:
    root = tmp_path / "drag"
    for name in (ITEM, "t2_move_into_repeat"):
        shutil.copytree(SHIPPED / name, root / name)
    return root


def make_panel(qtbot: Any, root: Path, who: list[str]) -> tuple[DragPanel, list[str]]:
    panel, messages = show_panel(qtbot, DragPanel, root, who)
    return panel, messages


def widget_point(panel: DragPanel, x: float, y: float) -> QPoint:
    return panel.canvas.to_widget(x, y).toPoint()


def test_the_folder_lists_its_items_and_names_a_broken_one(qtbot: Any, items: Path) -> None:
    (items / "broken").mkdir()
    (items / "broken" / "item.json").write_text("{ not json", encoding="utf-8")
    panel, _ = make_panel(qtbot, items, ["ann"])
    assert panel.model.rowCount() == 2
    assert "broken" in panel.problems.text() and "item.json" in panel.problems.text()
    assert panel.entry is not None and panel.entry.item.id == ITEM
    shown = load_item(items / ITEM).item.evaluation_config
    assert len(panel.canvas.start) == len(shown.feasible_start_points) > 0
    assert len(panel.canvas.end) == len(shown.feasible_points) > 0
    assert not panel.canvas.pixmap.isNull()


def test_a_brush_stroke_adds_and_erases_points_and_undo_takes_it_back(
    qtbot: Any, items: Path
) -> None:
    panel, _ = make_panel(qtbot, items, ["ann"])
    panel.tool_end.setChecked(True)
    assert panel.canvas.tool is Tool.END
    before = set(panel.canvas.end)
    spot = (1000, 600)  # far from the end region
    assert spot not in before
    canvas = panel.canvas
    QTest.mousePress(canvas, Qt.MouseButton.LeftButton, pos=widget_point(panel, *spot))
    QTest.mouseMove(canvas, widget_point(panel, spot[0] + 20, spot[1]))
    QTest.mouseRelease(
        canvas, Qt.MouseButton.LeftButton, pos=widget_point(panel, spot[0] + 20, spot[1])
    )
    added = canvas.end - before
    assert spot in added and (spot[0] + 20, spot[1]) in added
    assert all(x % 5 == 0 and y % 5 == 0 for x, y in added)  # on the item's grid
    assert canvas.undo_stack.count() == 1
    # erase with the right button: the stroke's centre goes again
    QTest.mouseClick(canvas, Qt.MouseButton.RightButton, pos=widget_point(panel, *spot))
    assert spot not in canvas.end
    canvas.undo_stack.undo()
    assert spot in canvas.end
    canvas.undo_stack.undo()
    assert canvas.end == before
    assert f"end region {len(before)} points" in panel.count_label.text()


def test_a_label_is_saved_per_labeler_and_blind_labeling_hides_the_others(
    qtbot: Any, items: Path
) -> None:
    who = ["ann"]
    panel, _ = make_panel(qtbot, items, who)
    computed = set(panel.canvas.start)
    panel.canvas.replace_regions(set(list(computed)[:3]), {(600, 300)}, "ann's regions")
    assert panel.save_label()
    stored = load_item(items / ITEM).item
    assert [lab.labeler for lab in stored.labels] == ["ann"]
    assert stored.labels[0].end_points == [[600, 300]]
    # a label is kept apart: the approved item keeps its state and its regions
    assert stored.review.state is ReviewState.APPROVED
    assert {tuple(p) for p in stored.evaluation_config.feasible_start_points} == computed

    who[0] = "bob"  # the second labeler, blind: neither ann's label nor the computed regions
    panel.blind.setChecked(True)
    assert panel.canvas.start == set() and panel.canvas.end == set()
    # the grab point stays drawn: an end region only means something for where the block is held
    grab = stored.evaluation_config.drag_start_point
    assert grab is not None and stored.labels[0].drag_start_point == grab
    assert panel.canvas.drag_start == (round(grab[0]), round(grab[1]))
    assert f"Grab point ({grab[0]:g}, {grab[1]:g})" in panel.details.text()
    assert not panel.agree_button.isEnabled()
    panel.canvas.replace_regions(set(list(computed)[:3]), {(600, 300), (605, 300)}, "bob")
    assert panel.save_label()
    panel.blind.setChecked(False)
    assert {panel.agree_a.currentText(), panel.agree_b.currentText()} == {"ann", "bob"}
    panel.show_agreement()
    assert "start IoU 1.000" in panel.agree_text.text()
    assert "end IoU 0.500" in panel.agree_text.text()


def test_approve_makes_the_canvas_the_items_regions_and_reopen_undoes_the_state(
    qtbot: Any, items: Path
) -> None:
    panel, messages = make_panel(qtbot, items, [""])
    assert not panel.approve()  # no labeler name: nothing is stored
    assert any("name" in m for m in messages)
    panel.context.labeler = lambda: "rev"
    panel.canvas.replace_regions({(470, 180)}, {(480, 220)}, "tiny")
    panel.instruction.setPlainText("Drag the go to block under the hat.")
    assert panel.approve()
    stored = load_item(items / ITEM).item
    assert stored.review.state is ReviewState.APPROVED and stored.review.reviewer == "rev"
    assert stored.evaluation_config.feasible_start_points == [[470, 180]]
    assert stored.evaluation_config.feasible_points == [[480, 220]]
    assert stored.instruction == "Drag the go to block under the hat."
    assert panel.model.data(panel.model.index(0, 2)) == "approved"
    assert panel.review(ReviewState.DRAFT)
    assert load_item(items / ITEM).item.review.state is ReviewState.DRAFT


def test_the_picture_zooms_about_the_pointer_pans_and_the_brush_follows(
    qtbot: Any, items: Path
) -> None:
    panel, _ = make_panel(qtbot, items, ["ann"])
    canvas = panel.canvas
    spot = (1000, 600)
    at = canvas.to_widget(*spot)
    width = canvas.image_rect().width()
    canvas.zoom_at(at, 4.0)
    assert canvas.image_rect().width() == pytest.approx(4 * width)
    here = canvas.to_screen(at)  # the point under the pointer stays there
    assert (here.x(), here.y()) == (pytest.approx(spot[0]), pytest.approx(spot[1]))
    # the middle button pans the picture
    QTest.mousePress(canvas, Qt.MouseButton.MiddleButton, pos=at.toPoint())
    QTest.mouseMove(canvas, at.toPoint() + QPoint(-40, 0))
    QTest.mouseRelease(canvas, Qt.MouseButton.MiddleButton, pos=at.toPoint() + QPoint(-40, 0))
    assert canvas.to_widget(*spot).x() == pytest.approx(at.x() - 40, abs=1)
    # brushing zoomed in hits the grid point under the pointer
    panel.tool_end.setChecked(True)
    panel.radius.setCurrentIndex(0)  # 5 px
    target = widget_point(panel, *spot)
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=target)
    assert spot in canvas.end
    canvas.zoom_at(at, 1 / 100)  # never smaller than the whole screen
    assert canvas.zoom == 1.0 and canvas.image_rect().width() == pytest.approx(width)


def test_the_undo_button_keeps_its_size_as_the_undo_text_grows(qtbot: Any, items: Path) -> None:
    """Issue 31, point 10: the tool row does not reflow when the next undo gets a long name."""
    panel, _ = make_panel(qtbot, items, ["ann"])
    button = panel.undo_button
    width = button.sizeHint().width()
    assert not button.isEnabled()
    panel.tool_end.setChecked(True)
    spot = widget_point(panel, 1000, 600)
    QTest.mouseClick(panel.canvas, Qt.MouseButton.LeftButton, pos=spot)
    assert button.isEnabled() and button.text() == "Undo"
    assert button.sizeHint().width() == width
    assert button.toolTip().startswith("Undo ")  # the full text is still there
    button.click()
    assert panel.canvas.undo_stack.count() == 1 and panel.canvas.undo_stack.index() == 0


def test_a_new_computation_replaces_the_old_computed_in_line(qtbot: Any, items: Path) -> None:
    """Issue 31, point 10: after Compute the details show the new figures, not the old ones."""
    from studio.app.regions import DEFAULT_PAGES, RegionResult, record

    panel, _ = make_panel(qtbot, items, ["ann"])
    entry = panel.entry
    assert entry is not None
    cfg = entry.item.evaluation_config
    result = RegionResult(
        start_points=[(int(p[0]), int(p[1])) for p in cfg.feasible_start_points],
        end_points=[(int(p[0]), int(p[1])) for p in cfg.feasible_points],
        drag_start_point=(100, 100),
        destination=(200, 200),
        seconds=12.3,
        drags=77,
    )
    panel.show_result(entry, record(entry, result, cfg.grid, DEFAULT_PAGES))  # as Compute does
    details = panel.details.text()
    assert "Computed in 12.3 s with 77 real drags" in details
    assert details.count("Computed in") == 1
