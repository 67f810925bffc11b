"""What a view helper may use of the studio: built once by the main window and handed down.

The main window composes the panes and owns the services. The helpers that wire menus and
controllers (the Run menu, human baseline sessions, library commands, recovery of unsaved
work, the labeling window) get this shell, or the few members of it they need, never the
window. Only the application module (studio.views.app) imports studio.views.window.main_window; an
import-linter contract in pyproject.toml keeps it so.

- `parent`: the widget that dialogs, message boxes and child windows open over.
- `commands`: the window's actions (menus, toolbar, shortcuts), for helpers to connect.
- `server`: the editor server (our page, the Scratch bundle, project files).
- `editor`: the embedded Scratch editor.
- `pages`: lends the editor's page, driven through Qt, to one live episode or one labeling
  capture at a time (`pages.busy` while it is lent).
- `pool()` / `evaluator()`: the headless browser and the evaluator on it, started on first
  use; they raise when the browser cannot start, and the next call tries again.
- `spawn(coro)`: background work; an uncaught error reaches the window's error line.
- `status(text, ms)`: a line in the window's status bar for `ms` milliseconds (0: until the
  next one).
- `results`: the Results tab, where evaluations and errors are shown.
- `library`: the task library as the window has read it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QStatusBar, QWidget

from studio.services.core.store import LibraryScan, TaskFolder
from studio.services.episodes.live.window_pages import WindowPageSource
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.evaluator import Evaluator
from studio.services.runtime.server import EditorServer
from studio.views.editor.view import EditorView
from studio.views.shell.actions import StudioActions
from studio.views.shell.results_panel import ResultsPanel


@dataclass(frozen=True)
class LibraryLookup:
    """The task library as the window has read it."""

    root: Callable[[], Path]  # the library folder shown now
    scan: Callable[[], Awaitable[LibraryScan | None]]  # being (or last) read; None: unreadable
    selected: Callable[[], TaskFolder | None]  # the task selected in the library pane
    find: Callable[[str], TaskFolder | None]  # a task of the library pane by id


@dataclass(frozen=True)
class StudioShell:
    """The services a view helper may use (see the module docstring)."""

    parent: QWidget
    commands: StudioActions
    server: EditorServer
    editor: EditorView
    pages: WindowPageSource
    pool: Callable[[], Awaitable[BrowserPool]]
    evaluator: Callable[[], Awaitable[Evaluator]]
    spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]]
    status_bar: QStatusBar
    results: ResultsPanel
    library: LibraryLookup

    def status(self, text: str, ms: int = 0) -> None:
        """Show `text` in the window's status bar (for `ms` milliseconds; 0: until replaced)."""
        self.status_bar.showMessage(text, ms)
