"""The Diff tab's pictures: the two projects' scripts as blocks, side by side, per target.

A *Pictures* check box beside *Show unchanged sprites* switches the view between the aligned
pseudocode (text) and pictures of the same targets: each target the comparison lists, its
scripts in the left project and in the right one, a script the other side lacks framed
(`block_pictures.PicturePane`). The pictures are drawn off the GUI thread when the box is
ticked and again whenever the comparison changes while it is; a drawing that cannot be made
(no Node, no font) is said in the pane, and the text is a click away.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QStackedWidget, QWidget

from studio.services.core.blocktext.pictures import TargetPictures
from studio.views.widgets.block_pictures import PictureDrawer, PicturePane, Section

__all__ = ["DiffPictures"]


class DiffPictures:
    """The check box and the picture pane of a DiffView (see the module doc)."""

    def __init__(self, owner: QWidget, options: QHBoxLayout, stack: QStackedWidget) -> None:
        self.toggle = QCheckBox("Pictures", owner)
        self.toggle.setToolTip("Show the scripts as blocks (untick for the text)")
        self.pane = PicturePane(owner)
        self.drawer = PictureDrawer(owner)
        self.drawer.drawn.connect(self._on_drawn)
        self.drawer.failed.connect(self._on_failed)
        options.insertWidget(options.count() - 1, self.toggle)
        stack.addWidget(self.pane)
        self.stack = stack
        self._asked: tuple[list[str], tuple[str, str]] | None = None

    @property
    def on(self) -> bool:
        return self.toggle.isChecked()

    def show(self, left: dict[str, Any], right: dict[str, Any], names: list[str],
             titles: tuple[str, str]) -> None:  # fmt: skip
        """Draw `names` (the targets the comparison lists) of both projects and show them."""
        self._asked = (names, titles)
        self.pane.message("Drawing the blocks…")
        self.stack.setCurrentWidget(self.pane)
        self.drawer.request([left, right])

    def _on_drawn(self, token: int, drawn: list[list[TargetPictures]]) -> None:
        if token != self.drawer.token or self._asked is None or not self.on:
            return
        names, titles = self._asked
        left, right = ({t.name: t.pictures for t in side} for side in drawn)
        sections = [Section(name, left.get(name, []), right.get(name, [])) for name in names]
        self.pane.show_sections(sections, titles)

    def _on_failed(self, token: int, message: str) -> None:
        if token == self.drawer.token:
            self.pane.message(f"The blocks cannot be drawn: {message}")
