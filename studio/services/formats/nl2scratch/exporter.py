"""`studio export nl2scratch`: a library's tasks as NL2Scratch rows `{key, nl, pseudocode}`.

A task imported from NL2Scratch (task.json `metadata.nl2scratch`) gives its row back exactly
as it was read, unless its golden program has been edited since (its text no longer renders
as it did at import): then the row carries the golden's program as it is now, in the
canonical dialect, and the description is the task's instruction. Any other task gives a row
keyed by its id, with its instruction and the text of the golden's scripts in every target
whose scripts differ from the initial project's. Tasks that cannot be read are listed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.services.core import atomic
from studio.services.core.blocks import target_name
from studio.services.core.blocktext.project_text import project_text
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder, load_task

__all__ = ["Nl2ScratchExport", "export_nl2scratch", "task_row"]


@dataclass
class Nl2ScratchExport:
    """Rows written and folders skipped (with why)."""

    rows: int = 0
    skipped: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows, "skipped": self.skipped}


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def task_row(entry: TaskFolder) -> dict[str, Any]:
    """The NL2Scratch row of one task (see the module doc)."""
    golden = load_sb3(entry.golden_path)[1] if entry.golden_path else None
    if golden is None:
        raise StudioError(f"{entry.folder}: the task has no golden project")
    meta = entry.task.metadata.model_extra or {}
    stored = meta.get("nl2scratch")
    if isinstance(stored, dict) and {"key", "nl", "pseudocode"} <= set(stored):
        sprite = str(stored.get("sprite", "Sprite1"))
        now = project_text(golden, sprite, str(entry.golden_path))
        if now == stored.get("rendered"):
            return {"key": stored["key"], "nl": stored["nl"], "pseudocode": stored["pseudocode"]}
        return {"key": stored["key"], "nl": entry.task.instruction, "pseudocode": _lines(now)}
    initial = load_sb3(entry.initial_path)[1]
    before = {target_name(t): t for t in initial["targets"]}
    lines: list[str] = []
    for target in golden["targets"]:
        name = target_name(target)
        text = project_text(golden, name)
        old = before.get(name)
        if old is None or project_text(initial, name) != text:
            lines += _lines(text)
    return {"key": entry.task.id, "nl": entry.task.instruction, "pseudocode": lines}


def export_nl2scratch(src: Path, out: Path) -> Nl2ScratchExport:
    """Write one row per task folder under `src` (or `src` itself) to the JSON-lines `out`."""
    folders = (
        [src]
        if (src / "task.json").is_file()
        else sorted(p for p in src.iterdir() if p.is_dir() and (p / "task.json").is_file())
    )
    report = Nl2ScratchExport()
    lines = []
    for folder in folders:
        try:
            row = task_row(load_task(folder))
        except StudioError as exc:
            report.skipped.append(f"{folder.name}: {exc}")
            continue
        lines.append(json.dumps(row, ensure_ascii=False))
    atomic.write_text(out, "".join(line + "\n" for line in lines))
    report.rows = len(lines)
    return report
