"""The labeling window: drag items and perception QA items, each on a tab.

It is a window of its own (labelers keep it beside the studio, whose editor they capture
from). The toolbar holds the labeler's name, which every label, answer and review carries,
and which is remembered between sessions.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QMainWindow, QTabWidget, QToolBar

from studio.services.core import paths
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.drag_panel import DragPanel
from studio.views.diagnostics.editor_link import EditorLink
from studio.views.diagnostics.qa_panel import QaPanel
from studio.views.shell.layout import fit_screen
from studio.views.shell.studio_shell import StudioShell
from studio.views.widgets.settings import open_settings

DRAG_ROOT = paths.DIAGNOSTICS / "drag"
QA_ROOT = paths.DIAGNOSTICS / "qa"
LABELER_KEY = "labeling/labeler"


def diagnostics_roots(library: Path) -> tuple[Path, Path]:
    """The drag items and QA set folders of a task library: `LIBRARY/diagnostics/drag` and
    `.../qa` (where `studio import scratchworld` puts them); the shipped diagnostics for the
    bundled library, whose items the project ships beside it. Never the install's own
    folders for a library elsewhere: labels go with the library being worked on."""
    library = Path(library)
    if library.resolve() == paths.BUNDLED_TASKS.resolve():
        return DRAG_ROOT, QA_ROOT
    return library / "diagnostics" / "drag", library / "diagnostics" / "qa"


def labeling_window(
    current: LabelingWindow | None,
    shell: StudioShell,
    library: Path,
    drag_root: Path | None = None,
    qa_root: Path | None = None,
) -> LabelingWindow:
    """The labeling window on `drag_root` and `qa_root` (by default those of `library`):
    `current` when it shows those folders, else a new one (`current` is closed)."""
    default_drag, default_qa = diagnostics_roots(library)
    roots = (Path(drag_root or default_drag), Path(qa_root or default_qa))
    if current is not None and current.opened_for == roots:
        return current  # as the labeler left it (another set opened in it stays)
    if current is not None:
        current.close()
    return LabelingWindow(shell, *roots)


class LabelingWindow(QMainWindow):
    """Label, compute, review and score drag items and perception QA items (a child window
    of the studio's, which `shell` serves)."""

    def __init__(
        self, shell: StudioShell, drag_root: Path = DRAG_ROOT, qa_root: Path = QA_ROOT
    ) -> None:
        super().__init__(shell.parent, Qt.WindowType.Window)
        self.opened_for = (Path(drag_root), Path(qa_root))
        self.setWindowTitle("Diagnostics labeling — Scratch Bench Studio")
        self.resize(1500, 900)
        fit_screen(self)  # never larger than the screen it opens on
        bar = QToolBar("Labeler", self)
        bar.setObjectName("labeler-toolbar")
        bar.setMovable(False)
        bar.addWidget(QLabel(" Labeler: ", self))
        self.labeler_edit = QLineEdit(self)
        self.labeler_edit.setPlaceholderText("your name (on every label and review)")
        self.labeler_edit.setMaximumWidth(260)
        self.labeler_edit.setText(str(open_settings().value(LABELER_KEY, "") or ""))
        self.labeler_edit.editingFinished.connect(self._remember_labeler)
        bar.addWidget(self.labeler_edit)
        self.addToolBar(bar)
        self.context = LabelingContext(
            shell=shell,
            link=EditorLink(shell.editor, shell.pages),
            labeler=lambda: self.labeler_edit.text().strip(),
            message=lambda text: self.statusBar().showMessage(text, 15000),
        )
        self.tabs = QTabWidget(self)
        self.drag = DragPanel(self.context, drag_root, self)
        self.qa = QaPanel(self.context, qa_root, self)
        self.tabs.addTab(self.drag, "Drag items")
        self.tabs.addTab(self.qa, "Perception QA")
        self.setCentralWidget(self.tabs)

    def _remember_labeler(self) -> None:
        settings = open_settings()
        settings.setValue(LABELER_KEY, self.labeler_edit.text().strip())
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.drag.stop_work()
        self.qa.stop_work()
        self._remember_labeler()
        super().closeEvent(event)
