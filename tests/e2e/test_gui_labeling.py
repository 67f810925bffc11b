"""The labeling window against the real editor: a drag item authored by clicking on a capture
of the studio's editor, a shipped item's regions computed from the window, and a perception QA
item captured by clicking, its answer suggested from the VM."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.models.drag_item import ConnectionType
from studio.services.core import paths
from studio.services.diagnostics.drag.item import load_item, png_size
from studio.services.diagnostics.qa.item import QaSet
from studio.views.diagnostics.window import LabelingWindow
from tests.helpers.window_fit import page_fits_view

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 180_000
SHIPPED = paths.PROJECT_ROOT / "diagnostics"
# the first palette block, and the last block of the first script, in screen px
FLYOUT_BLOCK = """(() => {
  const b = window.workspace.getFlyout().getWorkspace().getTopBlocks(true)[0];
  const r = b.getSvgRoot().getBoundingClientRect();
  return [r.left + 12, r.top + 14, b.type]; })()"""
LAST_BLOCK = """(() => { let b = window.workspace.getTopBlocks(true)[0];
  while (b.getNextBlock()) b = b.getNextBlock();
  const r = b.getSvgRoot().getBoundingClientRect();
  return [r.left + 12, r.top + 14, b.id, b.type]; })()"""


def open_labeling(
    qtbot: Any, boot_window: Callable[..., Any], run_async: Any, drag_root: Path, qa_root: Path
) -> tuple[Any, LabelingWindow]:
    """The studio with a bundled task's initial project in its editor, and the labeling
    window beside it (labeler "tester")."""
    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    assert window.library.select_task("debug_rocket_comparator")
    assert run_async(window.open_task_project("initial"))
    labeling = LabelingWindow(window.shell, drag_root=drag_root, qa_root=qa_root)
    qtbot.addWidget(labeling)
    labeling.labeler_edit.setText("tester")
    labeling.show()
    qtbot.waitExposed(labeling)
    return window, labeling


def click_screen_point(qtbot: Any, labeling: LabelingWindow, x: float, y: float) -> None:
    canvas = labeling.drag.canvas
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.to_widget(x, y).toPoint())


def test_a_drag_item_is_authored_by_clicking_on_the_editor_and_regions_compute_from_the_window(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    drag_root = tmp_path / "drag"
    shutil.copytree(SHIPPED / "drag" / "t2_yposition_into_gt", drag_root / "t2_yposition_into_gt")
    window, labeling = open_labeling(qtbot, boot_window, run_async, drag_root, tmp_path / "qa")
    panel = labeling.drag
    bar = panel.author_bar

    # Author: the editor is borrowed at 1280x720 and its picture shown; two clicks, a choice.
    task = asyncio.ensure_future(panel.new_from_editor())
    qtbot.waitUntil(lambda: "block to drag" in bar.prompt.text(), timeout=WAIT_MS)
    assert window.runs.live.pages.busy  # the editor is lent while the labeler picks
    fx, fy, flyout_opcode = js(window, FLYOUT_BLOCK)
    lx, ly, last_id, last_opcode = js(window, LAST_BLOCK)
    click_screen_point(qtbot, labeling, fx, fy)
    qtbot.waitUntil(lambda: "connect it to" in bar.prompt.text(), timeout=WAIT_MS)
    click_screen_point(qtbot, labeling, lx, ly)
    qtbot.waitUntil(bar.create_button.isEnabled, timeout=WAIT_MS)
    assert bar.item_id.text().startswith("t1_palette_")  # suggested from the two blocks
    bar.connection.setCurrentIndex(bar.connection.findData(ConnectionType.NEXT.value))
    bar.item_id.setText("t1_palette_below_last")
    QTest.mouseClick(bar.create_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(task.done, timeout=WAIT_MS)
    made = task.result()
    assert made is not None and made.path == drag_root / "t1_palette_below_last"
    item = load_item(made.path).item
    cfg = item.evaluation_config
    assert cfg.source == "flyout" and cfg.target_block_opcode == flyout_opcode
    assert cfg.reference_block_id == last_id and cfg.reference_block_opcode == last_opcode
    assert cfg.connection_type is ConnectionType.NEXT and item.category == "T1"
    assert cfg.target_box is not None and cfg.reference_box is not None
    assert "from the block palette" in item.instruction
    assert png_size((made.path / "screenshot.png").read_bytes()) == (1280, 720)
    assert panel.entry is not None and panel.entry.item.id == "t1_palette_below_last"
    assert panel.instruction.toPlainText() == item.instruction  # shown, editable
    # given back: the editor has its own size again and can be lent again
    assert not window.runs.live.pages.busy
    qtbot.waitUntil(
        lambda: page_fits_view(js(window, "innerWidth"), window.editor.view), timeout=10_000
    )

    # Compute a shipped item's regions from the window: real drags, progress, stored figures.
    assert panel.select("t2_yposition_into_gt")
    before = load_item(drag_root / "t2_yposition_into_gt").item.evaluation_config
    (drag_root / "t2_yposition_into_gt" / "regions.partial.json").unlink(missing_ok=True)
    computing = asyncio.ensure_future(panel.compute())
    qtbot.waitUntil(panel.progress.isVisible, timeout=10_000)
    qtbot.waitUntil(computing.done, timeout=WAIT_MS)
    computing.result()
    assert "real drags" in panel.progress_text.text(), panel.progress_text.text()
    after = load_item(drag_root / "t2_yposition_into_gt").item
    assert after.region_stats is not None and after.region_stats.drags > 0
    same = {tuple(p) for p in after.evaluation_config.feasible_points} == {
        tuple(p) for p in before.feasible_points
    } and {tuple(p) for p in after.evaluation_config.feasible_start_points} == {
        tuple(p) for p in before.feasible_start_points
    }
    # new regions need a new look; the same regions computed again keep the approval
    assert after.review.state.value == ("approved" if same else "draft")
    assert "Computed in" in panel.details.text() and panel.details.text().count("Computed in") == 1
    assert panel.canvas.start == {tuple(p) for p in after.evaluation_config.feasible_start_points}
    assert panel.canvas.end == {tuple(p) for p in after.evaluation_config.feasible_points}
    shipped = {tuple(p) for p in before.feasible_points}
    overlap = len(panel.canvas.end & shipped) / len(panel.canvas.end | shipped)
    assert overlap >= 0.9  # the same region as shipped, computed again
    panel.canvas.undo_stack.undo()  # the computed regions are one undoable step
    assert panel.canvas.end == shipped
    labeling.close()


# the first code-area block with a value typed in one of its inputs
VALUE_BLOCK = """(() => { for (const b of window.workspace.getAllBlocks(true)) {
    if (b.isShadow()) continue;
    for (const row of b.inputList) {
      const s = row.connection && row.connection.targetBlock();
      if (row.type !== 1 || !s || !s.isShadow()) continue;
      const f = s.inputList[0].fieldRow.find((x) => x.name);
      if (!f) continue;
      const r = b.getSvgRoot().getBoundingClientRect();
      return [r.left + 8, r.top + 8, b.id, row.name, String(f.getText())];
    } } return null; })()"""


def test_a_qa_item_is_captured_by_clicking_and_its_answer_suggested_from_the_vm(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    qa_root = tmp_path / "qa"
    window, labeling = open_labeling(qtbot, boot_window, run_async, tmp_path / "drag", qa_root)
    labeling.tabs.setCurrentWidget(labeling.qa)
    panel = labeling.qa
    bar = panel.author_bar
    assert "items/" in panel.problems.text()  # an empty set: nothing there yet

    task = asyncio.ensure_future(panel.new_from_editor())
    qtbot.waitUntil(lambda: "question is about" in bar.prompt.text(), timeout=WAIT_MS)
    found = js(window, VALUE_BLOCK)
    assert found is not None
    x, y, block_id, input_name, text = found
    canvas = panel.canvas
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.to_widget(x, y).toPoint())
    qtbot.waitUntil(bar.create_button.isEnabled, timeout=WAIT_MS)
    bar.kind.setCurrentIndex(bar.kind.findData("field"))
    bar.field.setCurrentIndex(bar.field.findText(input_name))
    assert input_name in bar.question.text()  # the question is suggested from the pick
    bar.area.setCurrentIndex(bar.area.findData("canvas"))
    bar.item_id.setText("qa_field_first_value")
    QTest.mouseClick(bar.create_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(task.done, timeout=WAIT_MS)
    made = task.result()
    assert made is not None and made.task_id == "qa_field_first_value"
    assert made.subject.block_id == block_id and made.subject.field == input_name
    assert made.ground_truth == text.strip()  # read from the workspace at capture time
    assert made.suggestion is not None and made.tag.startswith("field_")
    clip = made.capture["clip"]
    shot = qa_root / "screenshots" / "qa_field_first_value.png"
    assert png_size(shot.read_bytes()) == (clip["w"], clip["h"])
    assert made.capture["workspace_state"]["target"]
    box = made.capture["subject_box"]  # the block asked about, in the picture's px
    assert 0 <= box["x"] < clip["w"] and 0 <= box["y"] < clip["h"] and box["w"] > 0
    assert len(panel.canvas.boxes) == 1
    assert panel.item is not None and panel.item.task_id == made.task_id
    assert panel.value.text() == made.ground_truth and not panel.canvas.pixmap.isNull()

    # the labeler confirms the suggestion and approves: Ctrl+Enter
    assert panel.approve()
    assert QaSet(qa_root).load("qa_field_first_value").review.state.value == "approved"
    assert not window.runs.live.pages.busy
    labeling.close()
