"""What the studio knows of a task beyond the published fields, kept beside them on export.

A published task file has `name`, `description`, `type`, `instruction`, `initial_project` and
`evaluation` (FORMATS.md section 1). The studio also keeps a task's author, its metadata
(difficulty, tags, the block types used, the blocks changed, anything else an author added),
its review state and history, and the mutants marked equivalent. Export writes those under one
more key, `STUDIO_KEY`, only when one of them is not the default (a published set imported and
exported again stays byte for byte); import reads them back (`task_fields`), so export, import
gives the same task. The `scratchworld` record the import itself keeps in the metadata is not
among them.
"""

from __future__ import annotations

from typing import Any

from studio.models.task import Task
from studio.services.formats.scratchworld.tasks.record import METADATA_KEY

__all__ = ["STUDIO_KEY", "studio_fields", "task_fields"]

STUDIO_KEY = "studio"


def studio_fields(task: Task) -> dict[str, Any] | None:
    """The task's studio-only fields as JSON, or None when every one is the default."""
    fresh = Task(id=task.id, category=task.category, instruction=task.instruction)
    metadata = task.metadata.model_dump(mode="json")
    metadata.pop(METADATA_KEY, None)
    fields: dict[str, Any] = {
        "author": task.author,
        "metadata": metadata,
        "review": task.review.model_dump(mode="json"),
        "equivalent_mutants": [m.model_dump(mode="json") for m in task.equivalent_mutants],
    }
    default = {
        "author": fresh.author,
        "metadata": fresh.metadata.model_dump(mode="json"),
        "review": fresh.review.model_dump(mode="json"),
        "equivalent_mutants": [],
    }
    return None if fields == default else fields


def task_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """The task.json fields a task file's `STUDIO_KEY` gives back ({} without one); the Task
    model validates them (a bad value is named by its field)."""
    kept = raw.get(STUDIO_KEY)
    if not isinstance(kept, dict):
        return {}
    out = {k: kept[k] for k in ("author", "review", "equivalent_mutants") if k in kept}
    if isinstance(kept.get("metadata"), dict):
        out["metadata"] = {k: v for k, v in kept["metadata"].items() if k != METADATA_KEY}
    return out
