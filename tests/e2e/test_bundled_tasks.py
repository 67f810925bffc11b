"""Every bundled task is sound: its golden project passes, a debug task's initial project fails."""

from __future__ import annotations

import pytest

from studio.models.task import Category
from studio.services import paths
from studio.services.store import TaskFolder, scan_library

pytestmark = pytest.mark.browser

BUNDLED = scan_library(paths.BUNDLED_TASKS).tasks
DEBUG = [entry for entry in BUNDLED if entry.task.category is Category.DEBUG]


def _failures(result) -> str:  # type: ignore[no-untyped-def]
    if result.error is not None:
        return result.summary_line()
    return "; ".join(f"{d.name}: {d.error}" for d in result.details if not d.passed)


def test_the_library_has_three_tasks_per_category() -> None:
    assert not scan_library(paths.BUNDLED_TASKS).errors
    for category in Category:
        assert sum(e.task.category is category for e in BUNDLED) == 3, category


@pytest.mark.parametrize("entry", BUNDLED, ids=lambda e: e.task.id)
def test_golden_project_passes_every_test(entry: TaskFolder, evaluate) -> None:  # type: ignore[no-untyped-def]
    assert entry.golden_path is not None
    result = evaluate(entry, entry.golden_path)
    assert result.ok, _failures(result)
    assert result.total_tests >= 3


@pytest.mark.parametrize("entry", DEBUG, ids=lambda e: e.task.id)
def test_debug_initial_project_fails(entry: TaskFolder, evaluate) -> None:  # type: ignore[no-untyped-def]
    result = evaluate(entry, entry.initial_path)
    assert result.error is None, result.summary_line()
    assert not result.success
    assert result.passed_tests < result.total_tests
