"""The *Text* tab in the window: its controller, its commands and when it may apply.

Task ▸ Block text (Ctrl+4) shows the tab with the editing target's scripts as text; Task ▸
Apply block text (Ctrl+Shift+Return) applies what the tab holds. Nothing is applied while
the editor is lent to a live run or a session, nor to an approved task (read-only).
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget

from studio.app.open_task import OpenTask
from studio.views.authoring.text_controller import TextPaneController
from studio.views.authoring.text_pane import TextPane
from studio.views.shell.studio_shell import StudioShell

__all__ = ["install"]


def install(
    shell: StudioShell, current: OpenTask, pane: TextPane, tabs: QTabWidget
) -> TextPaneController:
    """Make the tab's controller and connect the window's text commands to it."""

    def blocked() -> str | None:
        if shell.pages.busy:
            return "the editor is busy with a live run or a session"
        if current.read_only and current.shown:
            return "the open task is approved (read-only) until a reviewer reopens it"
        return None

    controller = TextPaneController(pane, shell.editor, shell.spawn, blocked)
    controller.message.connect(lambda text: shell.status(text, 10000))

    def show() -> None:
        tabs.setCurrentWidget(pane)
        pane.editor.setFocus()
        shell.spawn(controller.follow())

    def apply() -> None:
        tabs.setCurrentWidget(pane)
        shell.spawn(controller.apply())

    shell.commands.show_text.triggered.connect(show)
    shell.commands.apply_text.triggered.connect(apply)
    return controller
