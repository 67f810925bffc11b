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

Semantic drift needs a browser: it is measured when the episode ends
(`forge.episode_measures`) and kept with d_edit under `meta.repair` of its run.json.
`repair_of` reads both from there (d_edit computed here for an episode recorded without them),
`repair_cell` summarizes a report cell's episodes (means over the episodes measured, with 95 %
t intervals over them: d_edit's from 0 up, drift's within [0, 1]) and `repair_line` is the
report's line of them. Understanding episodes (forged bugs' triggers and mechanism named) are
scored when they end and kept under `meta.understanding` (`understanding_of`): the line gives
the mean trigger F1 (t interval) and the mechanism accuracy (Wilson interval).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from statistics import mean
from typing import Any

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.report import CellStats, RunEntry
from studio.models.trajectory import FINAL_PROJECT, RunInfo
from studio.services.core import stats
from studio.services.core.gold_fix import gold_fix
from studio.services.core.patch import d_edit, match_replaced, patch_between
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task

__all__ = ["repair_cell", "repair_line", "repair_of", "run_d_edit", "understanding_of"]


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


def _number(value: Any) -> float | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    return float(value) if ok and math.isfinite(value) else None


def repair_of(run: RunInfo, folder: Path, category: str) -> tuple[int | None, float | None]:
    """(d_edit, drift) of a recorded episode: those its run.json keeps (`meta.repair`), else
    d_edit computed from its final program and no drift; (None, None) outside debug tasks."""
    if category != "debug" or run.mode is Mode.UNDERSTAND:  # an answer, not a repair
        return None, None
    kept = run.meta.get("repair")
    if isinstance(kept, dict) and "d_edit" in kept:
        edits = _number(kept.get("d_edit"))
        return (int(edits) if edits is not None else None), _number(kept.get("drift"))
    return run_d_edit(run, folder), None


def understanding_of(run: RunInfo) -> tuple[float | None, bool | None]:
    """(trigger F1, mechanism right) of a scored understanding episode (`meta.understanding`),
    else (None, None)."""
    kept = run.meta.get("understanding")
    if not isinstance(kept, dict):
        return None, None
    right = kept.get("mechanism_correct")
    return _number(kept.get("trigger_f1")), right if isinstance(right, bool) else None


def _interval(values: Sequence[float], top: float | None) -> tuple[float, float] | None:
    var = stats.sample_variance(values)
    if var is None:
        return None
    m, n = mean(values), len(values)
    half = stats.t_quantile(0.975, n - 1) * math.sqrt(var / n)
    low, high = max(0.0, m - half), m + half
    return low, (min(top, high) if top is not None else high)


def repair_cell(runs: Sequence[RunEntry]) -> dict[str, Any]:
    """The repair fields of a CellStats over `runs` (the cell's episodes)."""
    edits = [float(r.d_edit) for r in runs if r.d_edit is not None]
    drifts = [r.drift for r in runs if r.drift is not None]
    f1s = [r.trigger_f1 for r in runs if r.trigger_f1 is not None]
    rights = [r.mechanism_correct for r in runs if r.mechanism_correct is not None]
    return {
        "d_edit_mean": mean(edits) if edits else None,
        "d_edit_runs": len(edits),
        "d_edit_ci95": _interval(edits, None),
        "drift_mean": mean(drifts) if drifts else None,
        "drift_runs": len(drifts),
        "drift_ci95": _interval(drifts, 1.0),
        "understanding_runs": len(f1s),
        "trigger_f1_mean": mean(f1s) if f1s else None,
        "trigger_f1_ci95": _interval(f1s, 1.0),
        "mechanism_accuracy": mean(rights) if rights else None,
        "mechanism_ci95": stats.wilson(sum(rights), len(rights)) if rights else None,
    }


def _ci(ci: tuple[float, float] | None, digits: int) -> str:
    return "" if ci is None else f" 95% CI [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}] (t)"


def repair_line(cell: CellStats) -> str | None:
    """The report's line of a cell's repair measures (None without debug episodes measured)."""
    parts = []
    if cell.d_edit_mean is not None:
        parts.append(
            f"d_edit {cell.d_edit_mean:.2f} (mean over {cell.d_edit_runs} debug episodes; "
            f"0 = exactly the minimal fix){_ci(cell.d_edit_ci95, 2)}"
        )
    if cell.drift_mean is not None:
        parts.append(
            f"drift {cell.drift_mean:.3f} (mean over {cell.drift_runs} debug episodes; "
            f"0 = the golden's behaviour){_ci(cell.drift_ci95, 3)}"
        )
    if cell.trigger_f1_mean is not None:
        parts.append(
            f"trigger F1 {cell.trigger_f1_mean:.3f}{_ci(cell.trigger_f1_ci95, 3)}, "
            f"mechanism accuracy {cell.mechanism_accuracy or 0.0:.3f}"
            f"{_ci(cell.mechanism_ci95, 3).replace('(t)', '(Wilson)')} "
            f"(over {cell.understanding_runs} understanding items)"
        )
    return "; ".join(parts) or None
