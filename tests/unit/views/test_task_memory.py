"""Issue 31 (smaller): Save, Revert, Check and Submit need an open task, and the task opened
last is opened again at the next start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow

from studio.services.core.store import load_task
from studio.views.authoring import task_memory
from studio.views.shell.actions import StudioActions
from tests.helpers.sample_task import write_sample_task


class _Current:
    entry: Any = None


class _Authoring(QObject):
    task_opened = Signal(object)
    task_closed = Signal()
    current = _Current()


def test_task_commands_are_enabled_only_while_a_task_is_open(qtbot: Any, tmp_path: Path) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    commands = StudioActions(window)
    authoring = _Authoring()
    task_memory.follow(commands, authoring, lambda: tmp_path)
    wanted = (commands.save, commands.revert, commands.check, commands.submit)
    assert not any(a.isEnabled() for a in wanted)

    authoring.current.entry = load_task(write_sample_task(tmp_path / "cat-hello"))
    authoring.task_opened.emit(authoring.current.entry)
    assert all(a.isEnabled() for a in wanted)
    authoring.current.entry = None
    authoring.task_closed.emit()
    assert not any(a.isEnabled() for a in wanted)


def test_the_task_opened_last_is_remembered_for_its_library_only(tmp_path: Path) -> None:
    entry = load_task(write_sample_task(tmp_path / "lib" / "cat-hello"))
    assert task_memory.last_task(tmp_path / "lib") is None
    task_memory.remember(entry, tmp_path / "lib")
    assert task_memory.last_task(tmp_path / "lib") == "cat-hello"
    assert task_memory.last_task(tmp_path / "elsewhere") is None
