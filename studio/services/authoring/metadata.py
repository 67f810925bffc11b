"""Metadata derived from a task's projects: how many blocks the solution changes and which
block types the golden project uses. Author-set metadata (difficulty, tags) is kept."""

from __future__ import annotations

from typing import Any

from studio.models.task import Task
from studio.services.core.diff import block_types_used, blocks_changed
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder

__all__ = ["Project", "apply_metadata", "derive_metadata", "metadata_from_files"]

Project = dict[str, Any]


def derive_metadata(initial: Project, golden: Project) -> tuple[int, list[str]]:
    """(atomic block edits from initial to golden, sorted opcodes the golden project uses)."""
    return blocks_changed(initial, golden), block_types_used(golden)


def apply_metadata(task: Task, initial: Project, golden: Project | None) -> Task:
    """A copy of `task` with derived metadata; without a golden project only the block types
    of the initial project are known and blocks_changed is left unset."""
    if golden is None:
        changed, used = None, block_types_used(initial)
    else:
        changed, used = derive_metadata(initial, golden)
    metadata = task.metadata.model_copy(
        update={"blocks_changed": changed, "block_types_used": used}
    )
    return task.model_copy(update={"metadata": metadata}, deep=True)


def metadata_from_files(entry: TaskFolder) -> Task:
    """`apply_metadata` with the task's project files (ProjectFileError names a bad file)."""
    _, initial = load_sb3(entry.initial_path)
    golden = load_sb3(entry.golden_path)[1] if entry.golden_path is not None else None
    return apply_metadata(entry.task, initial, golden)
