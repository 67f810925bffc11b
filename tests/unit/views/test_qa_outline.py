"""Issue 31: the QA tab outlines the block asked about when its item carries a usable box (every
shipped item about a block does), and says so when it does not, never failing on a box read
from a file that is not four numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.services.core import paths
from studio.services.diagnostics.drag.item import png_size
from studio.services.diagnostics.qa.item import QaSet
from studio.views.diagnostics.qa_outline import subject_rect
from studio.views.diagnostics.qa_panel import QaPanel
from tests.helpers.labeling import show_panel

SHIPPED = QaSet(paths.PROJECT_ROOT / "diagnostics" / "qa")
CONN, EXIST = "qa_conn_say_gap", "qa_exist_forever_absent"  # about a block; about an opcode


def _root(tmp_path: Path, box: Any = None) -> Path:
    root = tmp_path / "qa"
    qa = QaSet(root)
    for task_id in (CONN, EXIST):
        item = SHIPPED.load(task_id)
        item.capture.pop("subject_box", None)
        if box is not None:
            item.capture["subject_box"] = box
        qa.save(item, SHIPPED.screenshot_path(item.screenshot).read_bytes())
    return root


def test_every_shipped_item_about_a_block_has_a_box_inside_its_screenshot() -> None:
    about_a_block = [item for item in SHIPPED.items() if item.subject.block_id]
    assert len(about_a_block) == 14  # 7 connection, 7 field
    for item in about_a_block:
        rect = subject_rect(item)
        w, h = png_size(SHIPPED.screenshot_path(item.screenshot).read_bytes())
        assert rect is not None, item.task_id
        assert rect.left() >= 0 and rect.right() <= w and rect.top() >= 0, item.task_id
        assert rect.bottom() <= h, item.task_id


def test_a_recorded_box_is_outlined_without_a_note(qtbot: Any, tmp_path: Path) -> None:
    root = _root(tmp_path, {"x": 10, "y": 20, "w": 30, "h": 40})
    panel, _ = show_panel(qtbot, QaPanel, root, ["ann"])
    assert panel.item is not None and panel.item.task_id == CONN
    assert len(panel.canvas.boxes) == 1
    assert "no outline" not in panel.caption.text()


def test_an_item_about_a_block_without_a_box_says_it_has_no_outline(
    qtbot: Any, tmp_path: Path
) -> None:
    panel, _ = show_panel(qtbot, QaPanel, _root(tmp_path), ["ann"])
    assert panel.canvas.boxes == []
    assert "no outline" in panel.caption.text() and "not recorded" in panel.caption.text()
    panel.select(EXIST)  # a question about an opcode has no block to outline: no note
    assert "no outline" not in panel.caption.text()


@pytest.mark.parametrize(
    "box",
    [
        {"x": "left", "y": 0, "w": 10, "h": 10},
        {"x": 0, "y": 0, "w": 10},
        {"x": 0, "y": 0, "w": 0, "h": 10},
        {"x": 0, "y": 0, "w": "nan", "h": 10},
        [1, 2, 3, 4],
    ],
)
def test_an_unreadable_box_draws_nothing_and_is_named(qtbot: Any, tmp_path: Path, box: Any) -> None:
    panel, _ = show_panel(qtbot, QaPanel, _root(tmp_path, box), ["ann"])
    assert panel.item is not None and panel.item.task_id == CONN
    assert panel.canvas.boxes == []
    assert "unreadable" in panel.caption.text()
