"""Fixtures for the authoring services: copies of bundled tasks in a temporary library."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.services.core.store import TaskFolder, load_task

TASKS = Path(__file__).resolve().parents[3] / "tasks"


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "library"
    root.mkdir()
    return root


@pytest.fixture
def bundled(library: Path) -> Callable[[str], TaskFolder]:
    """Copy a bundled task into the temporary library and load it."""

    def copy(name: str) -> TaskFolder:
        shutil.copytree(TASKS / name, library / name)
        return load_task(library / name)

    return copy
