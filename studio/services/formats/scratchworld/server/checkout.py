"""What a ScratchWorld session finds by name: projects in the checkout, tasks by task name.

`SwCheckout(root, library)` serves `studio serve --scratchworld ROOT`:

- `project(name)`: the bytes of `ROOT/scratch-gui/static/<name>` (what the published page
  fetches from `/static/<name>`). The name must be a plain file name (no folder, no `..`);
  the file is read only up to the .sb3 size bound.
- `task(name)`: the task a `task_name` means. The checkout's tasks are imported (the studio's
  importer, into a private folder, at start) and found by task id or by script name (the
  published server runs `evaluation_scripts/<task_name>.js`); then the studio library's
  tasks by id; then a script of the checkout that no task file names (also one added after
  the start), judged under the published convention with the checkout's helper library.
  The private folder (`studio-sw-tasks-<pid>-<host>.…` in the system temporary folder) is
  removed by `close()`; one a killed server left is removed when the next one starts.
- `session_task()`: the stand-in task of a session that names none (a drag run), recorded
  under the name of the project it loads.
- `starts(task)`: the projects a session bound to `task` may load (sealed sessions, see
  `seal`): the task's initial project; for a bare script, which lists none, every project
  of the checkout but the goldens (`is_golden`: a `*_golden.sb3` name, a task's golden, or
  the bytes of one under another name).
- A name the file system cannot take (too long, say) is no task and no project, never an
  OSError.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
from pathlib import Path

from studio.models.errors import StudioError
from studio.models.task import Category, Convention, Evaluation, Task
from studio.services.core.leftovers import clean_temp_dirs, owner_tag
from studio.services.core.store import TaskFolder, scan_library
from studio.services.formats.scratchworld.tasks.importer import import_scratchworld
from studio.services.formats.scratchworld.tasks.layout import (
    GOLDEN_SUFFIX,
    HELPER_NAME,
    PROJECTS_DIR,
    SCRIPTS_DIR,
    TASKS_DIR,
)
from studio.services.formats.scratchworld.tasks.reports import ImportReport

__all__ = [
    "MAX_NAME_BYTES", "MAX_PROJECT_BYTES", "SESSION_TASK_ID", "TEMP_PREFIX", "SwCheckout",
    "plain_name",
]  # fmt: skip

log = logging.getLogger(__name__)

MAX_PROJECT_BYTES = 100 * 1024 * 1024
SESSION_TASK_ID = "scratchworld-session"
TEMP_PREFIX = "studio-sw-tasks-"
MAX_NAME_BYTES = 255  # what a file name may take on the file systems the studio runs on


def plain_name(name: str) -> str:
    """`name` when it is a plain file name; StudioError otherwise."""
    if (
        not name
        or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES
        or name in (".", "..")
        or any(c in name for c in "/\\\0")
        or Path(name).name != name
    ):
        raise StudioError(f"{name[:80]!r} is not a plain file name")
    return name


class SwCheckout:
    """Projects and tasks of one checkout (see the module doc); `close()` removes the import."""

    def __init__(self, root: Path | str, library: Path | None = None) -> None:
        self.root = Path(root).expanduser().resolve()
        self.static = self.root / PROJECTS_DIR
        self.scripts = self.root / SCRIPTS_DIR
        if not self.static.is_dir():
            raise StudioError(f"{self.static}: not found; is {self.root} a ScratchWorld checkout?")
        self.library = library
        self._imported: Path | None = None
        self._by_name: dict[str, TaskFolder] = {}
        self._golden_hashes: set[str] | None = None
        self.import_report: ImportReport | None = None
        if any((self.root / TASKS_DIR).glob("*/*.json")):
            self._import()
        if library is not None and library.is_dir():
            for entry in scan_library(library).tasks:
                self._by_name.setdefault(entry.task.id, entry)

    def _import(self) -> None:
        clean_temp_dirs(TEMP_PREFIX)  # a killed server's imported tasks
        self._imported = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{owner_tag()}."))
        report = import_scratchworld(self.root, self._imported)
        self.import_report = report
        for problem in report.skipped:
            log.warning("%s", problem)
        for entry in scan_library(self._imported).tasks:
            self._by_name[entry.task.id] = entry
            self._by_name.setdefault(Path(entry.task.evaluation.script).stem, entry)

    @property
    def task_count(self) -> int:
        return len({id(t) for t in self._by_name.values()})

    def task(self, name: str) -> TaskFolder | None:
        """The task `name` means: an imported or library task, else a bare script
        `evaluation_scripts/<name>.js` of the checkout (as the published server runs it)."""
        if not name or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            return None
        return (
            self._by_name.get(name) or self._by_name.get(Path(name).stem) or self._script_task(name)
        )

    def is_script_task(self, task: TaskFolder) -> bool:
        """Whether `task` is a bare script of the checkout (no task file lists its start)."""
        return task.folder == self.scripts and task.task.golden_project is None

    def starts(self, task: TaskFolder) -> frozenset[str] | None:
        """The projects a session bound to `task` may load; None: any project but a golden."""
        if self.is_script_task(task):
            return None
        return frozenset({task.task.initial_project})

    def is_golden(self, name: str, data: bytes | None = None) -> bool:
        """Whether `name` (with its bytes `data`) is a golden project of the checkout."""
        if name.endswith(GOLDEN_SUFFIX):
            return True
        if self._golden_hashes is None:
            self._golden_hashes = self._goldens()
        return data is not None and hashlib.sha256(data).hexdigest() in self._golden_hashes

    def _goldens(self) -> set[str]:
        """The sha256 of every golden: the checkout's `*_golden.sb3` and the tasks' goldens."""
        files = list(self.static.glob("*" + GOLDEN_SUFFIX))
        for entry in {id(t): t for t in self._by_name.values()}.values():
            if entry.task.golden_project:
                files.append(entry.folder / entry.task.golden_project)
        found = set()
        for path in files:
            try:
                found.add(hashlib.sha256(path.read_bytes()).hexdigest())
            except OSError:
                continue
        return found

    def _script_task(self, name: str) -> TaskFolder | None:
        """A task made of the checkout's script `<name>.js` alone, under the published
        convention and with the checkout's helper library; None without such a script."""
        stem = name[:-3] if name.endswith(".js") else name
        try:
            script = plain_name(f"{stem}.js")
        except StudioError:
            return None
        try:
            if stem == Path(HELPER_NAME).stem or not (self.scripts / script).is_file():
                return None
        except OSError:  # a name the file system cannot take
            return None
        helper = HELPER_NAME if (self.scripts / HELPER_NAME).is_file() else None
        try:
            task = Task(
                id=stem,
                category=Category.CREATE,
                instruction=f"the checkout's evaluation script {script}",
                golden_project=None,
                evaluation=Evaluation(
                    script=script, helper_library=helper, convention=Convention.SCRATCHWORLD
                ),
            )
        except ValueError:  # an id the studio cannot take
            return None
        return TaskFolder(task, self.scripts)

    def project(self, name: str) -> bytes:
        path = self.static / plain_name(name)
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_PROJECT_BYTES + 1)
        except OSError as exc:
            raise StudioError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if len(data) > MAX_PROJECT_BYTES:
            raise StudioError(f"{path}: over {MAX_PROJECT_BYTES // 1024 // 1024} MB")
        return data

    def session_task(self, project: str | None = None) -> TaskFolder:
        """A task that stands for a session naming none: its id is the loaded project's stem."""
        ident = Path(project).stem if project else SESSION_TASK_ID
        task = Task(
            id=ident
            if ident.replace("-", "").replace("_", "").replace(".", "").isalnum()
            else SESSION_TASK_ID,
            category=Category.CREATE,
            instruction="a ScratchWorld session that named no task",
            initial_project=project or "initial.sb3",
            golden_project=None,
        )
        return TaskFolder(task, self.static)

    def close(self) -> None:
        if self._imported is not None:
            shutil.rmtree(self._imported, ignore_errors=True)
            self._imported = None
