"""Widget tests share the session's QApplication, created the way the studio creates it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def qapp() -> Any:
    """QtWebEngine needs its attributes set before the first QApplication of the session."""
    from studio.views.app import make_application

    return make_application()


@pytest.fixture
def authoring(qtbot: Any, tmp_path: Path) -> Any:
    """An AuthoringController with its real bar, form and script editor over a fake editor
    (tests.helpers.fake_editor); its timers' background work is not run."""
    from PySide6.QtWidgets import QWidget

    from studio.services.authoring.recovery import RecoveryStore
    from studio.views.authoring.controller import AuthoringController
    from studio.views.authoring.document_bar import DocumentBar
    from studio.views.authoring.script_editor import ScriptEditor
    from studio.views.authoring.task_form import TaskForm
    from tests.helpers.fake_editor import FakeEditor

    parent = QWidget()
    qtbot.addWidget(parent)
    controller = AuthoringController(
        parent,
        FakeEditor(),  # type: ignore[arg-type]
        DocumentBar(parent),
        TaskForm(parent),
        ScriptEditor(parent),
        RecoveryStore(tmp_path / "recovery"),
    )
    controller.spawn = lambda coro: coro.close()
    return controller
