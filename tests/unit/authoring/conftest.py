"""Fixtures for the authoring services: copies of bundled tasks in a temporary library."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.services.authoring.check_record import RECORD_FILE
from studio.services.core.store import TaskFolder, load_task

TASKS = Path(__file__).resolve().parents[3] / "tasks"


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "library"
    root.mkdir()
    return root


@pytest.fixture
def bundled(library: Path) -> Callable[[str], TaskFolder]:
    """Copy a bundled task into the temporary library and load it (without the last check a
    `studio check tasks` of the checkout's own user left beside it: git ignores it)."""

    def copy(name: str) -> TaskFolder:
        shutil.copytree(TASKS / name, library / name, ignore=shutil.ignore_patterns(RECORD_FILE))
        return load_task(library / name)

    return copy
