"""Issue 31: the timeline's Target column fits its names (up to a cap), cuts longer ones in
their middle and shows them in full as a tooltip."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyleOptionViewItem

from studio.views.viewer.run_panel import TARGET_COLUMN, TARGET_MAX, RunPanel
from studio.views.viewer.steps import ViewerStep
from tests.unit.trajectories.build import step

FITS = "blocks: motion_gotoxy of Cat"
TOO_LONG = "blocks: control_forever > motion_glidesecstoxy > operator_random of Sprite1 " * 2


def _step(number: int, target: str) -> ViewerStep:
    record = step(number, "click", index=3)
    return ViewerStep(record=record.model_copy(update={"target": target}))


def _panel(qtbot: Any) -> RunPanel:
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.resize(1400, 600)
    panel.show()
    return panel


def test_a_target_that_fits_under_the_cap_is_shown_whole(qtbot: Any) -> None:
    panel = _panel(qtbot)
    panel.show_steps("recorded", [_step(1, FITS), _step(2, "stage")])
    table = panel.table
    needed = table.sizeHintForColumn(TARGET_COLUMN)
    assert needed < TARGET_MAX  # the example is one that fits
    assert table.columnWidth(TARGET_COLUMN) >= needed
    panel.close()


def test_a_long_target_is_capped_cut_in_the_middle_and_whole_in_its_tooltip(qtbot: Any) -> None:
    panel = _panel(qtbot)
    panel.show_steps("recorded", [_step(1, TOO_LONG)])
    table = panel.table
    assert table.sizeHintForColumn(TARGET_COLUMN) > TARGET_MAX
    assert table.columnWidth(TARGET_COLUMN) == TARGET_MAX
    index = panel.model.index(0, TARGET_COLUMN)
    assert index.data(Qt.ItemDataRole.ToolTipRole) == TOO_LONG
    option = QStyleOptionViewItem()
    table.itemDelegateForColumn(TARGET_COLUMN).initStyleOption(option, index)
    assert option.textElideMode == Qt.TextElideMode.ElideMiddle
    panel.close()


def test_live_steps_fit_the_target_column_too(qtbot: Any) -> None:
    panel = _panel(qtbot)
    panel.add_step(_step(1, TOO_LONG))
    assert panel.table.columnWidth(TARGET_COLUMN) == TARGET_MAX
    panel.close()
