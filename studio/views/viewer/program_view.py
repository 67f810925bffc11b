"""The run viewer's program view: the run's final program as blocks, its text a click away.

`ProgramView` is the *Program* tab of the step detail. `show_project(path)` reads a recorded
run's final project (`final.sb3`; None: none recorded) and shows each target's scripts drawn
as Scratch 3 blocks by the scratchblocks renderer (off the GUI thread,
`block_pictures.PictureDrawer`), one section per target that has scripts. The *Pictures* box
switches to the same program as block text (what `studio blocks text` prints), which is
there at once, before the pictures are drawn, and stays when they cannot be.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QPlainTextEdit,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.models.errors import StudioError
from studio.services.core.blocktext.pictures import TargetPictures
from studio.services.core.blocktext.project_text import project_text
from studio.services.core.sb3 import load_sb3
from studio.views.widgets.block_pictures import PictureDrawer, PicturePane, Section

__all__ = ["NO_PROGRAM", "ProgramView"]

NO_PROGRAM = "No final project recorded for this run."


class ProgramView(QWidget):
    """Pictures of a final program, with a box to show its text instead."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QCheckBox("Pictures", self)
        self.toggle.setChecked(True)
        self.toggle.setToolTip("Show the scripts as blocks (untick for the block text)")
        self.pane = PicturePane(self, zoom=0.8)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.pane)
        self.stack.addWidget(self.text)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.stack, 1)
        self.drawer = PictureDrawer(self)
        self.drawer.drawn.connect(self._on_drawn)
        self.drawer.failed.connect(self._on_failed)
        self.toggle.toggled.connect(self._on_toggled)
        self.show_project(None)

    def show_project(self, path: Path | None) -> None:
        """Show the program of `path` (a final.sb3), or say that there is none."""
        self.drawer.token += 1  # an older drawing is no longer wanted
        if path is None:
            self.text.setPlainText(NO_PROGRAM)
            self.pane.message(NO_PROGRAM)
            return
        try:
            _data, project = load_sb3(path)
        except StudioError as exc:
            self.text.setPlainText(str(exc))
            self.pane.message(str(exc))
            return
        self.text.setPlainText(project_text(project, source=str(path)))
        self.pane.message("Drawing the blocks…")
        self.drawer.request([project])

    def _on_drawn(self, token: int, drawn: list[list[TargetPictures]]) -> None:
        if token != self.drawer.token:
            return
        sections = [Section(t.name, t.pictures) for t in drawn[0] if t.pictures]
        if not sections:
            self.pane.message("The program has no scripts.")
            return
        self.pane.show_sections(sections)

    def _on_failed(self, token: int, message: str) -> None:
        if token == self.drawer.token:
            self.pane.message(f"The blocks cannot be drawn: {message}")
            self.toggle.setChecked(False)

    def _on_toggled(self, pictures: bool) -> None:
        self.stack.setCurrentWidget(self.pane if pictures else self.text)
