"""The bar above the editor: which project of the task the editor shows, and what to do with it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QPushButton, QWidget

from studio.services.authoring.task_session import DOCUMENTS


class DocumentBar(QWidget):
    """Initial / Golden switch with unsaved markers, Save, Revert and the copy commands."""

    document_requested = Signal(str)  # "initial" | "golden"
    save_requested = Signal()
    revert_requested = Signal()
    copy_requested = Signal(str, str)  # source, target

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("No task open", self)
        self.title.setStyleSheet("font-weight: bold; padding-right: 8px;")
        self.buttons: dict[str, QPushButton] = {}
        self._group = QButtonGroup(self)
        self._group.setExclusive(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.addWidget(self.title)
        for name in DOCUMENTS:
            button = QPushButton(name.capitalize(), self)
            button.setCheckable(True)
            button.setToolTip(f"Show the task's {name} project in the editor")
            button.clicked.connect(lambda _=False, n=name: self.document_requested.emit(n))
            self._group.addButton(button)
            self.buttons[name] = button
            layout.addWidget(button)
        self.save = self._button("Save", "Save the task: projects, script and form (Ctrl+S)")
        self.save.clicked.connect(self.save_requested)
        self.revert = self._button(
            "Revert", "Put back the script and the shown project as saved on disk"
        )
        self.revert.clicked.connect(self.revert_requested)
        self.to_golden = self._button(
            "Golden ← initial", "Make the golden project a copy of the initial one"
        )
        self.to_golden.clicked.connect(lambda: self.copy_requested.emit("initial", "golden"))
        self.to_initial = self._button(
            "Initial ← golden",
            "Make the initial project a copy of the golden one (then break it for a debug task)",
        )
        self.to_initial.clicked.connect(lambda: self.copy_requested.emit("golden", "initial"))
        for widget in (self.save, self.revert, self.to_golden, self.to_initial):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.set_enabled(False)

    def _button(self, text: str, tip: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setToolTip(tip)
        return button

    def show_state(self, title: str, active: str, dirty: dict[str, bool], read_only: bool) -> None:
        """Show the task title, the active document and which documents are unsaved."""
        self.title.setText(title)
        for name, button in self.buttons.items():
            button.setChecked(name == active)
            button.setText(name.capitalize() + (" •" if dirty.get(name) else ""))
            button.setToolTip(
                f"The {name} project" + (" (unsaved changes)" if dirty.get(name) else "")
            )
        self.set_enabled(True)
        for widget in (self.save, self.revert, self.to_golden, self.to_initial):
            widget.setEnabled(not read_only)

    def set_enabled(self, enabled: bool) -> None:
        for widget in (*self.buttons.values(), self.save, self.revert):
            widget.setEnabled(enabled)
        self.to_golden.setEnabled(enabled)
        self.to_initial.setEnabled(enabled)

    def label(self, name: str) -> str:
        return self.buttons[name].text()
