"""What an import or export did: tasks written, files skipped (and why), warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Problem:
    """A file that was skipped: which file, which field (if one), what is wrong."""

    file: Path
    problem: str
    field: str | None = None

    def __str__(self) -> str:
        where = f" (field '{self.field}')" if self.field else ""
        return f"{self.file}{where}: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        return {"file": str(self.file), "field": self.field, "problem": self.problem}


@dataclass
class ImportReport:
    """Result of import_scratchworld: ids imported, files skipped, tasks without golden."""

    root: Path
    dest: Path
    imported: list[str] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    without_golden: list[str] = field(default_factory=list)
    task_lists: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.skipped

    def to_json(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "dest": str(self.dest),
            "imported": self.imported,
            "skipped": [p.to_json() for p in self.skipped],
            "without_golden": self.without_golden,
            "task_lists": self.task_lists,
            "warnings": self.warnings,
        }


@dataclass
class ExportReport:
    """Result of export_scratchworld: ids exported, task folders skipped, files written."""

    src: Path
    dest: Path
    exported: list[str] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # relative to dest
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.skipped

    def to_json(self) -> dict[str, Any]:
        return {
            "src": str(self.src),
            "dest": str(self.dest),
            "exported": self.exported,
            "skipped": [p.to_json() for p in self.skipped],
            "files": self.files,
            "warnings": self.warnings,
        }
