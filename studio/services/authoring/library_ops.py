"""Creating, copying, renaming and opening task folders in a library.

A new folder is assembled under a hidden temporary name beside its destination and renamed into
place at the end, so a failure never leaves half a task in the library. Deleting moves the
folder to the library's trash (see `studio.services.authoring.trash`), from where it can be
restored. Every function here does blocking file I/O.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from studio.models.task import TASK_FILE, Category, Review, Task
from studio.services.authoring.check_record import RECORD_FILE
from studio.services.authoring.errors import LibraryError
from studio.services.authoring.starter import (
    PLACEHOLDER_INSTRUCTION,
    default_project,
    starter_script,
)
from studio.services.authoring.trash import (
    TRASH_DIR,
    TrashEntry,
    delete_task,
    empty_trash,
    is_trashed,
    list_trash,
    restore_task,
)
from studio.services.core import atomic
from studio.services.core.errors import TaskFileError
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder, is_task_folder, load_task, save_task
from studio.services.core.untrusted_json import JsonInputError, read_json

__all__ = [
    "TRASH_DIR",
    "LibraryError",
    "TrashEntry",
    "create_task",
    "delete_task",
    "duplicate_task",
    "empty_trash",
    "is_trashed",
    "list_trash",
    "open_task_folder",
    "rename_task",
    "restore_task",
    "validate_new_id",
]

# Same characters as Task.id; a leading dot is refused too (hidden folders, ".trash", "..").
_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")
_NEEDS_PROJECT = (Category.DEBUG, Category.EXTEND)


def _check_syntax(task_id: str) -> None:
    if not _ID.fullmatch(task_id):
        raise LibraryError(
            f"'{task_id}' is not a valid task id: use letters, digits, '_', '-' and '.', "
            "not starting with '.'"
        )


def validate_new_id(root: Path, task_id: str) -> None:
    """Raise LibraryError unless `task_id` is a valid id that no folder or task in `root` uses."""
    _check_syntax(task_id)
    if (Path(root) / task_id).exists():
        raise LibraryError(f"{Path(root) / task_id} already exists: choose another task id")
    if task_id in _ids_in_library(Path(root)):
        raise LibraryError(f"a task with id '{task_id}' already exists in {root}")


def _hidden(folder: Path, root: Path) -> bool:
    """Under a hidden folder of the library (trash, staging), as scan_library sees it."""
    return any(part.startswith(".") for part in folder.relative_to(root).parts)


def _ids_in_library(root: Path) -> set[str]:
    ids = set()
    for task_file in root.rglob(TASK_FILE) if root.is_dir() else []:
        if _hidden(task_file.parent, root):
            continue
        try:
            ids.add(str(read_json(task_file).get("id")))
        except (JsonInputError, AttributeError):
            continue  # a broken task.json cannot hold the id; scan_library reports it
    return ids


def create_task(
    root: Path,
    task_id: str,
    category: Category | str,
    instruction: str,
    author: str = "",
    from_project: Path | None = None,
) -> TaskFolder:
    """Create `root/<task_id>` with task.json, initial.sb3, golden.sb3 and a starter script.

    Create and compute tasks start from the default project unless `from_project` is given;
    debug and extend tasks need `from_project`, an .sb3 that is copied to both projects. An
    empty instruction is stored as a placeholder that the lint rules flag.
    """
    root = Path(root)
    category = Category(category)
    validate_new_id(root, task_id)
    project = _starting_project(category, from_project)
    task = Task(
        id=task_id,
        category=category,
        instruction=instruction.strip() or PLACEHOLDER_INSTRUCTION,
        author=author,
    )
    with _assembling(root, task_id) as staging:
        atomic.write_bytes(staging / task.initial_project, project)
        atomic.write_bytes(staging / (task.golden_project or "golden.sb3"), project)
        atomic.write_text(staging / task.evaluation.script, starter_script(task_id, category))
        save_task(TaskFolder(task, staging))
    return load_task(root / task_id)


def _starting_project(category: Category, from_project: Path | None) -> bytes:
    if from_project is None:
        if category in _NEEDS_PROJECT:
            raise LibraryError(
                f"a {category.value} task starts from an existing project: choose an .sb3 file"
            )
        return default_project()
    path = Path(from_project)
    if not path.is_file():
        raise LibraryError(f"{path}: the project to start from does not exist")
    data, _ = load_sb3(path)  # raises ProjectFileError naming the file
    return data


@contextmanager
def _assembling(root: Path, name: str) -> Iterator[Path]:
    """A hidden staging folder beside `root/<name>`, renamed into place when the block ends."""
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=root))
    try:
        yield staging
        target = root / name
        if target.exists():
            raise LibraryError(f"{target} appeared while the task was being written")
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def duplicate_task(entry: TaskFolder, new_id: str) -> TaskFolder:
    """Copy a task folder beside the original under `new_id`, as a fresh draft.

    The copy's review history and last check record are dropped: it is a new task.
    """
    parent = entry.folder.parent
    validate_new_id(parent, new_id)
    with _assembling(parent, new_id) as staging:
        shutil.copytree(entry.folder, staging, dirs_exist_ok=True)
        (staging / RECORD_FILE).unlink(missing_ok=True)
        task = entry.task.model_copy(update={"id": new_id, "review": Review()}, deep=True)
        save_task(TaskFolder(task, staging))
    return load_task(parent / new_id)


def rename_task(entry: TaskFolder, new_id: str) -> TaskFolder:
    """Rename the task's folder to `new_id` and set the id in task.json."""
    if new_id == entry.task.id and entry.folder.name == new_id:
        return entry
    _check_syntax(new_id)
    parent = entry.folder.parent
    target = parent / new_id
    if target != entry.folder and target.exists():
        raise LibraryError(f"{target} already exists: choose another task id")
    if new_id != entry.task.id and new_id in _ids_in_library(parent):
        raise LibraryError(f"a task with id '{new_id}' already exists in {parent}")
    if target != entry.folder:
        entry.folder.rename(target)
    try:
        save_task(TaskFolder(entry.task.model_copy(update={"id": new_id}, deep=True), target))
    except BaseException:
        if target != entry.folder:
            target.rename(entry.folder)
        raise
    return load_task(target)


def open_task_folder(path: Path) -> TaskFolder:
    """Load the task at `path`, explaining clearly when `path` is not a task folder."""
    path = Path(path)
    if path.is_file() and path.name == TASK_FILE:
        path = path.parent
    if path.is_file():
        raise TaskFileError(path, "is a file, not a task folder: open the folder that holds it")
    if path.is_dir() and not is_task_folder(path):
        inner = sum(1 for p in path.rglob(TASK_FILE) if not _hidden(p.parent, path))
        if path.name == TRASH_DIR:
            raise TaskFileError(path, "is the trash of a library: restore a task from it first")
        if inner:
            raise TaskFileError(
                path, f"is a task library, not one task: it holds {inner} task folder(s)"
            )
    return load_task(path)  # names the file and field of any other problem
