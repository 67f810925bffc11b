"""The task being authored: its two projects as documents, its script, its task.json.

One project is shown in the editor at a time; the other may hold unsaved content here
(`pending`). Saving writes every part atomically, so a task folder is never half written: each
file is either its old or its new version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from studio.models.errors import StudioError
from studio.models.task import Task
from studio.services.core import atomic
from studio.services.core.store import TaskFolder, load_task, save_task

__all__ = ["DOCUMENTS", "GOLDEN_FILE", "Document", "TaskSession"]

DOCUMENTS = ("initial", "golden")
GOLDEN_FILE = "golden.sb3"


@dataclass
class Document:
    """One project of the task: what is on disk and what is held unsaved."""

    name: str
    path: Path
    saved: bytes | None  # None: the file does not exist yet (a task without a golden project)
    pending: bytes | None = None

    @property
    def dirty(self) -> bool:
        return self.pending is not None and self.pending != self.saved

    def content(self) -> bytes | None:
        return self.pending if self.pending is not None else self.saved


@dataclass
class TaskSession:
    """Editing state of one task folder (Qt-free; the window drives it)."""

    entry: TaskFolder
    docs: dict[str, Document] = field(default_factory=dict)
    script_saved: str = ""
    active: str = "initial"

    @classmethod
    def open(cls, entry: TaskFolder) -> TaskSession:
        docs = {"initial": _document("initial", entry.initial_path)}
        golden = entry.golden_path or entry.folder / GOLDEN_FILE
        docs["golden"] = _document("golden", golden)
        path = entry.script_path
        script = path.read_text(encoding="utf-8") if path.is_file() else ""
        return cls(entry, docs, script)

    @property
    def task(self) -> Task:
        return self.entry.task

    def stash(self, name: str, data: bytes) -> None:
        """Keep `data` as the unsaved content of document `name` (nothing if it equals disk)."""
        doc = self.docs[name]
        doc.pending = None if data == doc.saved else data

    def copy(self, source: str, target: str, data: bytes | None = None) -> None:
        """Make `target` a copy of `source` (its unsaved content, or `data` when given)."""
        content = data if data is not None else self.docs[source].content()
        if content is None:
            raise StudioError(f"{self.entry.folder}: the {source} project does not exist yet")
        self.docs[target].pending = content

    def revert(self, name: str) -> bytes | None:
        self.docs[name].pending = None
        return self.docs[name].saved

    def dirty_documents(self) -> list[str]:
        return [n for n in DOCUMENTS if self.docs[n].dirty]

    def save(self, task: Task, script: str, live: dict[str, bytes] | None = None) -> TaskFolder:
        """Write task.json, the script and every project with unsaved content (`live`: the
        documents read from the editor just now). Returns the task folder as read back."""
        for name, data in (live or {}).items():
            self.stash(name, data)
        golden = self.docs["golden"]
        if golden.content() is not None and task.golden_project is None:
            task = task.model_copy(update={"golden_project": golden.path.name})
        for doc in self.docs.values():
            if doc.dirty and doc.pending is not None:
                atomic.write_bytes(doc.path, doc.pending)
                doc.saved, doc.pending = doc.pending, None
        if script != self.script_saved:
            atomic.write_text(self.entry.script_path, script)
            self.script_saved = script
        save_task(TaskFolder(task, self.entry.folder))
        self.entry = load_task(self.entry.folder)
        return self.entry

    def save_task_only(self, task: Task) -> TaskFolder:
        """Write task.json alone (a review step, an equivalent mutant); projects stay as held."""
        save_task(TaskFolder(task, self.entry.folder))
        self.entry = load_task(self.entry.folder)
        return self.entry


def _document(name: str, path: Path) -> Document:
    return Document(name, path, path.read_bytes() if path.is_file() else None)
