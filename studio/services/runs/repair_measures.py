"""Repair quality of a debug episode: d_edit, the edit distance to the task's minimal fix.

The gold fix is the inverse patch of the task's bug record (`bug.json`, written by the forge)
or, for a debug task without one, the minimal patch from its initial to its golden project.
The agent's fix is the minimal patch from the initial project to the episode's final program
(`final.sb3`), whatever the mode it worked in; a block the agent deleted and re-added in the
same place (the composite editor has no way to change an opcode in place) counts as the
changes it amounts to (`core.patch.match_replaced`). d_edit = |E_gold Δ E_model| over normalized
edits (`core.patch.d_edit`): 0 when the agent made exactly the gold fix. None when a side is
missing (no task folder, no final program) or when the agent's change is not a set of atomic
edits (e.g. blocks moved between scripts), so it is left out rather than guessed.
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.models.errors import StudioError
from studio.models.forge import BUG_FILE
from studio.models.patch import Edit
from studio.models.trajectory import FINAL_PROJECT, RunInfo
from studio.services.core.patch import d_edit, match_replaced, parse_patch, patch_between
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task

__all__ = ["gold_fix", "run_d_edit"]


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
    return patch_between(initial, golden)


def run_d_edit(run: RunInfo, folder: Path) -> int | None:
    """d_edit of a recorded debug episode in `folder`, or None (see the module doc)."""
    final = folder / FINAL_PROJECT
    if not run.task_folder or not final.is_file():
        return None
    task_folder = Path(run.task_folder)
    try:
        gold = gold_fix(task_folder)
        entry = load_task(task_folder)
        initial = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
        final_json = read_project_json(final.read_bytes(), final)
        model = patch_between(initial, match_replaced(initial, final_json))
    except (StudioError, OSError, ValueError, KeyError):
        return None
    if gold is None or model is None:
        return None
    return d_edit(gold, model)
