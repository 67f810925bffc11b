"""Repair quality of a debug episode: d_edit, the edit distance to the task's minimal fix.

The gold fix is the task's minimal fix (`core.gold_fix`): the inverse patch of its bug record
(`bug.json`, written by the forge) or, without one, the minimal patch from initial to golden.
The agent's fix is the minimal patch from the initial project to the episode's final program
(`final.sb3`), whatever the mode it worked in; a block the agent deleted and re-added in the
same place (the composite editor has no way to change an opcode in place) counts as the
changes it amounts to (`core.patch.match_replaced`). d_edit = |E_gold Δ E_model| over normalized
edits (`core.patch.d_edit`): 0 when the agent made exactly the gold fix. None when a side is
missing (no task folder, no final program) or when the agent's change is not a set of atomic
edits (e.g. blocks moved between scripts), so it is left out rather than guessed.
"""

from __future__ import annotations

from pathlib import Path

from studio.models.errors import StudioError
from studio.models.trajectory import FINAL_PROJECT, RunInfo
from studio.services.core.gold_fix import gold_fix
from studio.services.core.patch import d_edit, match_replaced, patch_between
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task

__all__ = ["run_d_edit"]


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
