"""A stand-in for the embedded Scratch editor (studio.views.editor.view.EditorView) in widget
tests of the authoring controller: it holds one project's bytes, refuses what is not a
Scratch 3 .sb3 exactly as the real one does (and keeps its project), and says whether it was
edited since the last load or save."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import check_sb3
from studio.views.editor.page import EditorError
from studio.views.widgets.banner import Banner


class FakeEditor(QObject):
    project_loaded = Signal(str)
    project_load_failed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.banner = Banner()
        self.is_ready = True
        self.project: bytes = b""
        self.project_name = ""
        self.edited = False
        self.load_gate: Any = None

    async def load_project(self, data: bytes, name: str, title: str = "") -> dict[str, Any]:
        try:
            check_sb3(data, name)
        except ProjectFileError as exc:
            self.banner.show_error(f"Could not open the project. {exc}")
            self.project_load_failed.emit(str(exc))
            raise EditorError(str(exc)) from None
        self.project, self.project_name, self.edited = data, name, False
        self.banner.hide()
        self.project_loaded.emit(name)
        return {}

    async def export_project(self) -> bytes:
        return self.project

    def edit(self, data: bytes) -> None:
        """What a person does in the editor: the project changes."""
        self.project, self.edited = data, True

    async def bridge_now(self, method: str, *args: Any) -> Any:
        if method == "isDirty":
            return self.edited
        if method == "markClean":
            self.edited = False
            return None
        raise EditorError(f"the fake editor has no bridge method {method!r}")
