"""Issue 31: a long text in a one-line label (the held action of a live run) never widens the
window; it is elided to the room the label gets and its full text is the tooltip."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QMainWindow

from studio.services.episodes.live.controls import RunControls
from studio.views.viewer.run_panel import RunPanel

WIDTH = 1000
LONG_ARGS = {
    "source": "the 'when green flag clicked' hat block of the cat sprite, in the scripts area",
    "target": "the slot under 'glide 1 secs to random position' inside 'forever' of Sprite1 " * 3,
}


def test_a_long_held_action_does_not_widen_the_window(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    panel = RunPanel(window)
    window.setCentralWidget(panel)
    window.resize(WIDTH, 600)
    window.show()
    qtbot.waitExposed(window)

    controls = RunControls(paused=True)
    controls.pending = {"api": "drag_and_drop", "args": LONG_ARGS}
    panel.start_live("live run", controls)
    QApplication.processEvents()  # the layouts take in the new text

    full = panel.pending.text()
    assert full.startswith("next: drag_and_drop") and len(full) > 200
    assert panel.pending.fontMetrics().horizontalAdvance(full) > WIDTH  # it could have widened
    # the window is never made wider than its size by its content's minimum width
    assert window.minimumSizeHint().width() < WIDTH
    assert window.minimumWidth() < WIDTH and window.width() == WIDTH
    assert panel.pending.toolTip() == full
    shown = panel.pending.elided()
    assert shown.endswith("…") and len(shown) < len(full)
    window.close()
