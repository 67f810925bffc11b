"""Deleting moves a task to the library's trash; it can be listed and restored."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.services.authoring.errors import LibraryError
from studio.services.authoring.trash import (
    TRASH_DIR,
    delete_task,
    empty_trash,
    is_trashed,
    list_trash,
    restore_task,
)
from studio.services.core.store import TaskFolder, scan_library

Bundled = Callable[[str], TaskFolder]
NOON = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)


def test_delete_moves_the_folder_to_the_trash(library: Path, bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    place = delete_task(entry)
    assert not entry.folder.exists()
    assert place.parent == library / TRASH_DIR
    assert re.fullmatch(r"debug_score_reset-\d{8}T\d{6}Z", place.name)
    assert (place / "task.json").is_file() and (place / "golden.sb3").is_file()


def test_same_second_deletions_do_not_collide(library: Path, bundled: Bundled) -> None:
    first = delete_task(bundled("debug_score_reset"), now=NOON)
    second = delete_task(bundled("debug_score_reset"), now=NOON)
    assert first.name == "debug_score_reset-20250301T120000Z"
    assert second.name == "debug_score_reset-20250301T120000Z-2"


def test_is_trashed() -> None:
    assert is_trashed(Path(".trash/x-1/task.json"))
    assert not is_trashed(Path("tasks/x/task.json"))
    root = Path("/lib")
    assert is_trashed(Path("/lib/.trash/x"), root)
    assert not is_trashed(Path("/elsewhere/.trash/x"), root)


def test_list_trash_newest_first(library: Path, bundled: Bundled) -> None:
    assert list_trash(library) == []
    delete_task(bundled("debug_score_reset"), now=NOON)
    delete_task(bundled("debug_game_over"), now=NOON.replace(hour=13))
    entries = list_trash(library)
    assert [e.task_id for e in entries] == ["debug_game_over", "debug_score_reset"]
    assert entries[1].deleted_at == NOON


def test_restore_brings_it_back(library: Path, bundled: Bundled) -> None:
    place = delete_task(bundled("debug_score_reset"))
    restored = restore_task(place, library)
    assert restored.folder == library / "debug_score_reset"
    assert restored.task.id == "debug_score_reset"
    assert list_trash(library) == []


def test_restore_refuses_to_overwrite(library: Path, bundled: Bundled) -> None:
    place = delete_task(bundled("debug_score_reset"))
    bundled("debug_score_reset")
    with pytest.raises(LibraryError, match="exists; rename or delete that task first"):
        restore_task(place, library)
    assert place.is_dir()
    with pytest.raises(LibraryError, match="does not exist"):
        restore_task(library / TRASH_DIR / "nothing", library)


def test_delete_refuses_a_trashed_task(library: Path, bundled: Bundled) -> None:
    place = delete_task(bundled("debug_score_reset"))
    trashed = TaskFolder(bundled("debug_game_over").task, place)
    with pytest.raises(LibraryError, match="already in the trash"):
        delete_task(trashed, library)


def test_empty_trash(library: Path, bundled: Bundled) -> None:
    delete_task(bundled("debug_score_reset"))
    assert empty_trash(library) == 1
    assert list_trash(library) == []


def test_scan_library_skips_trash_and_half_written_tasks(library: Path, bundled: Bundled) -> None:
    bundled("debug_game_over")
    delete_task(bundled("debug_score_reset"))
    staging = library / ".t1.abc123"  # how create_task assembles a folder before renaming it
    staging.mkdir()
    (staging / "task.json").write_text("{ half written")
    scan = scan_library(library)
    assert [t.task.id for t in scan.tasks] == ["debug_game_over"] and scan.errors == []
