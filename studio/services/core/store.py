"""The task library on disk: one folder per task holding task.json, .sb3 files and a script."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from studio.models.task import TASK_FILE, Task
from studio.services.core import atomic, paths
from studio.services.core.errors import TaskFileError, cut
from studio.services.core.names import name_problem
from studio.services.core.untrusted_json import JsonInputError, read_json

__all__ = [
    "MAX_TASK_FILE", "LibraryScan", "TaskFolder", "is_task_folder", "load_task", "save_task",
    "scan_library",
]  # fmt: skip

MAX_TASK_FILE = 16 * 1024 * 1024  # bytes of a task.json


@dataclass(frozen=True)
class TaskFolder:
    """A task read from disk and the folder it lives in."""

    task: Task
    folder: Path

    def file(self, name: str) -> Path:
        return self.folder / name

    @property
    def initial_path(self) -> Path:
        return self.folder / self.task.initial_project

    @property
    def golden_path(self) -> Path | None:
        name = self.task.golden_project
        return self.folder / name if name else None

    @property
    def script_path(self) -> Path:
        return self.folder / self.task.evaluation.script

    @property
    def helper_path(self) -> Path:
        name = self.task.evaluation.helper_library
        return self.folder / name if name else paths.HELPER_LIBRARY


def is_task_folder(path: Path) -> bool:
    return (path / TASK_FILE).is_file()


def load_task(folder: Path) -> TaskFolder:
    """Read and validate one task folder; errors name the file and the field."""
    folder = Path(folder)
    task_file = folder / TASK_FILE
    if not folder.is_dir():
        raise TaskFileError(folder, "is not a folder")
    if not task_file.is_file():
        raise TaskFileError(folder, f"is not a task folder: it has no {TASK_FILE}")
    try:
        raw = read_json(task_file, max_bytes=MAX_TASK_FILE)
    except JsonInputError as exc:
        raise TaskFileError(task_file, exc.problem) from None
    try:
        task = Task.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        problem = first["msg"] if first["type"] != "missing" else "required field is missing"
        more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
        raise TaskFileError(task_file, problem + more, field=field) from None
    entry = TaskFolder(task, folder)
    _check_files_exist(entry, task_file)
    return entry


def _check_files_exist(entry: TaskFolder, task_file: Path) -> None:
    """Every file task.json names is a plain name of a file in the task folder."""
    task = entry.task
    named = {
        "initial_project": task.initial_project,
        "evaluation.script": task.evaluation.script,
        "golden_project": task.golden_project,
        "evaluation.helper_library": task.evaluation.helper_library,
    }
    for field, name in named.items():
        problem = None if name is None else name_problem(name)
        if problem is None and name == TASK_FILE:
            problem = "is the task file itself, not a file beside it"
        if problem is not None:
            raise TaskFileError(task_file, f"{cut(repr(name), 80)} {problem}", field=field)
    required = {"initial_project": entry.initial_path, "evaluation.script": entry.script_path}
    if entry.golden_path is not None:
        required["golden_project"] = entry.golden_path
    if entry.task.evaluation.helper_library:
        required["evaluation.helper_library"] = entry.helper_path
    for field, path in required.items():
        if not path.is_file():
            raise TaskFileError(task_file, f"names {path.name}, which does not exist", field=field)


def save_task(entry: TaskFolder) -> None:
    """Write task.json atomically."""
    data = entry.task.model_dump(mode="json", exclude_none=False)
    atomic.write_json(entry.folder / TASK_FILE, data)


@dataclass(frozen=True)
class LibraryScan:
    """The tasks found under a folder and the folders that failed to load."""

    tasks: list[TaskFolder]
    errors: list[TaskFileError]


def scan_library(root: Path) -> LibraryScan:
    """Find every task folder under `root` (the root itself may be one task; hidden folders
    such as the trash are skipped)."""
    root = Path(root)
    if not root.exists():
        raise TaskFileError(root, "does not exist")
    if is_task_folder(root):
        candidates = [root]
    else:  # hidden folders hold deleted tasks (.trash) and tasks being written: not the library
        found = (p.parent for p in root.rglob(TASK_FILE))
        candidates = sorted(
            f for f in found if not any(part.startswith(".") for part in f.relative_to(root).parts)
        )
    tasks, errors = [], []
    for folder in candidates:
        atomic.clean_folder(folder)  # temporaries of saves that were killed
        try:
            tasks.append(load_task(folder))
        except TaskFileError as exc:
            errors.append(exc)
    return LibraryScan(tasks, errors)
