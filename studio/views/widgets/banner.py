"""A thin strip above a pane: progress (with a busy bar), a note, or an error (closable)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

_STYLES = {
    "progress": "QFrame#banner { background: #eef3fb; border-bottom: 1px solid #c8d6ee; }",
    "info": "QFrame#banner { background: #fff8e1; border-bottom: 1px solid #f3d98b; }",
    "error": "QFrame#banner { background: #fdecea; border-bottom: 1px solid #f2b8b5; }"
    " QLabel { color: #8c1d18; }",
}


class Banner(QFrame):
    """Progress or error message for the pane below it; hidden when there is nothing to say."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setFixedWidth(120)
        self.busy.setTextVisible(False)
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setToolTip("Dismiss")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.busy)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button)
        self.kind = ""
        self.hide()

    def show_progress(self, text: str) -> None:
        self._show("progress", text)

    def show_error(self, text: str) -> None:
        self._show("error", text)

    def show_info(self, text: str) -> None:
        self._show("info", text)

    def text(self) -> str:
        return self.label.text() if self.kind else ""

    def hide(self) -> None:
        self.kind = ""
        super().hide()

    def _show(self, kind: str, text: str) -> None:
        self.kind = kind
        self.setStyleSheet(_STYLES[kind])
        self.label.setText(text)
        self.busy.setVisible(kind == "progress")
        self.close_button.setVisible(kind == "error")
        self.show()
