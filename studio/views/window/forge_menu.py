"""The window's *Forge debug tasks…*: the library panel's menu entry to the forge controller.

On a selected task the forge works from that task's golden; on the library, from every golden
in it. Kept tasks enter the library and the library is read again; messages go to the
status bar. Whenever the window has read a library, the staging folders a killed forge left
in it are removed (`forging.clean_stale_staging`; a live forge's folder stays).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QStatusBar

from studio.services.core.store import TaskFolder
from studio.services.runtime.evaluator import Evaluates
from studio.views.forge.controller import ForgeController
from studio.views.library.panel import LibraryPanel

__all__ = ["ForgeHost", "install"]


class ForgeHost(Protocol):
    """What the forge needs of the window: its library, reading it again, its status bar."""

    library_root: Path
    library_loaded: SignalInstance  # (tasks, errors) after the window read a library

    def reload_library(self, root: Path) -> None: ...

    def statusBar(self) -> QStatusBar: ...


def install(
    window: ForgeHost,
    panel: LibraryPanel,
    evaluator: Callable[[], Awaitable[Evaluates]],
) -> ForgeController:
    """A ForgeController for `window`, started from `panel`'s *Forge debug tasks…*."""

    def root() -> Path:
        return window.library_root

    controller = ForgeController(panel.window(), root, evaluator)

    def on_forge(entry: TaskFolder | None) -> None:
        controller.start([entry.folder] if entry is not None else [root()])

    panel.forge_requested.connect(on_forge)
    controller.message.connect(lambda m: window.statusBar().showMessage(m, 10000))
    controller.library_changed.connect(lambda: window.reload_library(root()))
    # a slot of the controller (not a lambda): the connection ends with the controller
    window.library_loaded.connect(controller.clean_stale_staging)
    return controller
