"""Run ▸ Serve agent API here…: what the window serves, asked before its server starts.

The agent API is always served (loopback, a bearer token). "Also serve the ScratchWorld
routes" adds the published ScratchWorld server's session routes (`/sessions…`, no token,
loopback only) over the projects and task scripts of a checkout folder, as `studio serve
--scratchworld ROOT` does; its sessions play in this editor, one at a time. Serve is
enabled only when the routes are off or a folder is given. The choice and the folder are
remembered (settings file) for the next time. The checks themselves (a folder that is no
checkout, say) are the served API's own (studio.app.serving), shown when serving fails.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.views.widgets.settings import open_settings

__all__ = ["ServeApiDialog"]

ROUTES_KEY = "serve/scratchworld"
ROOT_KEY = "serve/scratchworld_root"


class ServeApiDialog(QDialog):
    """Asks whether the ScratchWorld routes are served too, and from which checkout."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Serve agent API here")
        intro = QLabel(
            "External agents drive episodes in this editor over the agent HTTP API "
            "(loopback, with a bearer token). One episode at a time; the Run tab shows it.",
            self,
        )
        intro.setWordWrap(True)
        self.routes = QCheckBox("Also serve the ScratchWorld routes (/sessions)", self)
        note = QLabel(
            "The published ScratchWorld server's session API, for its clients and drag "
            "runner: projects and task scripts of a ScratchWorld checkout, served without a "
            "token on loopback only. Its sessions play in this editor, one at a time.",
            self,
        )
        note.setWordWrap(True)
        self.root = QLineEdit(self)
        self.root.setPlaceholderText("ScratchWorld checkout folder (holds scratch-gui/static)")
        self.browse = QPushButton("Browse…", self)
        self.browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.root, 1)
        row.addWidget(self.browse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        serve = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert serve is not None
        serve.setText("Serve")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        for widget in (intro, self.routes, note):
            column.addWidget(widget)
        column.addLayout(row)
        column.addWidget(self.buttons)
        self.setMinimumWidth(520)
        settings = open_settings()
        self.routes.setChecked(str(settings.value(ROUTES_KEY, "false")) == "true")
        self.root.setText(str(settings.value(ROOT_KEY, "")))
        self.routes.toggled.connect(self._update)
        self.root.textChanged.connect(self._update)
        self.accepted.connect(self._remember)
        self._update()

    def scratchworld(self) -> Path | None:
        """The checkout whose routes are served, or None when they are not."""
        text = self.root.text().strip()
        return Path(text).expanduser() if self.routes.isChecked() and text else None

    def _update(self, *_: object) -> None:
        on = self.routes.isChecked()
        self.root.setEnabled(on)
        self.browse.setEnabled(on)
        serve = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert serve is not None
        serve.setEnabled(not on or bool(self.root.text().strip()))

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self, "A ScratchWorld checkout (holds scratch-gui/static)", self.root.text()
        )
        if chosen:
            self.root.setText(chosen)

    def _remember(self) -> None:
        settings = open_settings()
        settings.setValue(ROUTES_KEY, "true" if self.routes.isChecked() else "false")
        settings.setValue(ROOT_KEY, self.root.text().strip())
        settings.sync()
