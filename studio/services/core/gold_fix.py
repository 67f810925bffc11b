"""A debug task's minimal fix (the gold fix), in the atomic-edit form of `models.patch`.

The gold fix is the inverse patch of the task's bug record (`bug.json`, written by the forge)
or, for a task without one, the minimal patch from its initial to its golden project
(`core.patch.patch_between`; when the two number their blocks apart, from the initial project
to the golden one with its blocks given the initial's ids, `core.align_ids`); None when the
task has no golden project or no patch of atomic edits turns its initial project into its
golden one. The oracle answers a patch-mode episode
with it, and d_edit measures an agent's fix against it.
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.models.forge import BUG_FILE
from studio.models.patch import Edit
from studio.services.core.align_ids import align_ids
from studio.services.core.patch import parse_patch, patch_between
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task

__all__ = ["gold_fix"]


def gold_fix(task_folder: Path) -> list[Edit] | None:
    """The task's minimal fix: its bug record's inverse patch, else initial → golden."""
    record = task_folder / BUG_FILE
    if record.is_file():
        return parse_patch(json.loads(record.read_text(encoding="utf-8"))["inverse_patch"])
    entry = load_task(task_folder)
    if entry.golden_path is None:
        return None
    initial = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
    golden = read_project_json(entry.golden_path.read_bytes(), entry.golden_path)
    return patch_between(initial, golden) or patch_between(initial, align_ids(initial, golden))
