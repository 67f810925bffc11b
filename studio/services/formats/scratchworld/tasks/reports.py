"""What an import or export did: tasks written, files skipped (and why), warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.services.core.errors import cut

__all__ = ["ExportReport", "ImportReport", "Problem"]


@dataclass(frozen=True)
class Problem:
    """A file that was skipped: which file, which field (if one), what is wrong."""

    file: Path
    problem: str
    field: str | None = None

    def __post_init__(self) -> None:  # values echoed from files are cut to keep one line
        object.__setattr__(self, "problem", cut(self.problem))
        if self.field:
            object.__setattr__(self, "field", cut(self.field, 80))

    def __str__(self) -> str:
        where = f" (field '{self.field}')" if self.field else ""
        return f"{self.file}{where}: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        return {"file": str(self.file), "field": self.field, "problem": self.problem}


@dataclass
class ImportReport:
    """Result of an import: task ids imported, drag and QA item ids imported (a whole
    checkout), files skipped (the problems), tasks without golden."""

    root: Path
    dest: Path
    imported: list[str] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    without_golden: list[str] = field(default_factory=list)
    task_lists: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    drag_items: list[str] = field(default_factory=list)
    qa_items: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.skipped

    def to_json(self) -> dict[str, Any]:
        problems = [p.to_json() for p in self.skipped]
        return {
            "root": str(self.root),
            "dest": str(self.dest),
            "counts": _counts(self.imported, self.drag_items, self.qa_items),
            "imported": self.imported,
            "drag_items": self.drag_items,
            "qa_items": self.qa_items,
            "problems": problems,
            "skipped": problems,
            "without_golden": self.without_golden,
            "task_lists": self.task_lists,
            "warnings": [cut(w) for w in self.warnings],
        }


@dataclass
class ExportReport:
    """Result of an export: task, drag and QA item ids exported, what was skipped (the
    problems), files written."""

    src: Path
    dest: Path
    exported: list[str] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # relative to dest
    warnings: list[str] = field(default_factory=list)
    drag_items: list[str] = field(default_factory=list)
    qa_items: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.skipped

    def to_json(self) -> dict[str, Any]:
        problems = [p.to_json() for p in self.skipped]
        return {
            "src": str(self.src),
            "dest": str(self.dest),
            "counts": _counts(self.exported, self.drag_items, self.qa_items),
            "exported": self.exported,
            "drag_items": self.drag_items,
            "qa_items": self.qa_items,
            "problems": problems,
            "skipped": problems,
            "files": self.files,
            "warnings": [cut(w) for w in self.warnings],
        }


def _counts(tasks: list[str], drag: list[str], qa: list[str]) -> dict[str, int]:
    return {"tasks": len(tasks), "drag_items": len(drag), "qa_items": len(qa)}
