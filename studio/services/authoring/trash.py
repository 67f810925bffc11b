"""The library's trash: deleted task folders wait in `<library root>/.trash/` until restored.

A deleted folder is moved (not copied) to `.trash/<id>-<UTC time>/`, e.g.
`.trash/debug_score_reset-20250301T141500Z/`, with `-2`, `-3` ... added when two deletions of
the same id fall in the same second. `store.scan_library` skips hidden folders: the trash and
the staging folders in which `create_task` assembles a task.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from studio.services.authoring.errors import LibraryError
from studio.services.core.errors import TaskFileError
from studio.services.core.store import TaskFolder, load_task

__all__ = [
    "TRASH_DIR", "TrashEntry", "delete_task", "empty_trash", "is_trashed", "list_trash",
    "restore_task",
]  # fmt: skip

TRASH_DIR = ".trash"
_STAMP = "%Y%m%dT%H%M%SZ"
_NAME = re.compile(r"^(?P<id>.+)-(?P<stamp>\d{8}T\d{6}Z)(?:-\d+)?$")


@dataclass(frozen=True)
class TrashEntry:
    """A deleted task folder: where it is, the task id and when it was deleted (UTC)."""

    folder: Path
    task_id: str
    deleted_at: datetime | None


def is_trashed(path: Path, root: Path | None = None) -> bool:
    """True when `path` lies in a library trash (relative to `root` when it is given)."""
    path = Path(path)
    if root is not None:
        try:
            path = path.relative_to(root)
        except ValueError:
            return False
    return TRASH_DIR in path.parts


def delete_task(entry: TaskFolder, root: Path | None = None, now: datetime | None = None) -> Path:
    """Move the task folder into `<root>/.trash/` and return its new place.

    `root` is the library root; by default the folder that holds the task folder.
    """
    root = Path(root) if root is not None else entry.folder.parent
    if is_trashed(entry.folder, root):
        raise LibraryError(f"{entry.folder} is already in the trash")
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(_STAMP)
    trash = root / TRASH_DIR
    trash.mkdir(parents=True, exist_ok=True)
    target = trash / f"{entry.task.id}-{stamp}"
    counter = 1
    while target.exists():
        counter += 1
        target = trash / f"{entry.task.id}-{stamp}-{counter}"
    shutil.move(str(entry.folder), str(target))
    return target


def _entry(folder: Path) -> TrashEntry:
    match = _NAME.match(folder.name)
    if match is None:
        return TrashEntry(folder, folder.name, None)
    when = datetime.strptime(match["stamp"], _STAMP).replace(tzinfo=UTC)
    return TrashEntry(folder, match["id"], when)


def list_trash(root: Path) -> list[TrashEntry]:
    """The deleted task folders of the library at `root`, most recently deleted first."""
    trash = Path(root) / TRASH_DIR
    if not trash.is_dir():
        return []
    entries = [_entry(p) for p in trash.iterdir() if p.is_dir() and not p.name.startswith(".")]
    oldest = datetime.min.replace(tzinfo=UTC)
    return sorted(entries, key=lambda e: (e.deleted_at or oldest, e.folder.name), reverse=True)


def restore_task(trash_folder: Path, root: Path) -> TaskFolder:
    """Move a deleted task back to `<root>/<id>/` and load it.

    Refuses when that folder exists; a task whose task.json no longer loads is still moved
    back (under the id in the trash folder's name) and the load error is raised afterwards.
    """
    trash_folder, root = Path(trash_folder), Path(root)
    if not trash_folder.is_dir():
        raise LibraryError(f"{trash_folder} is not in the trash (it does not exist)")
    try:
        task_id = load_task(trash_folder).task.id
    except TaskFileError:
        task_id = _entry(trash_folder).task_id
    target = root / task_id
    if target.exists():
        raise LibraryError(
            f"cannot restore {trash_folder.name}: {target} exists; rename or delete that task first"
        )
    shutil.move(str(trash_folder), str(target))
    return load_task(target)


def empty_trash(root: Path) -> int:
    """Delete every folder in the trash for good; return how many were removed."""
    entries = list_trash(root)
    for entry in entries:
        shutil.rmtree(entry.folder)
    return len(entries)
