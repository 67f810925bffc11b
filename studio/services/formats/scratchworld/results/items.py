"""The published drag and perception runners' result folders as rows of the diagnostics tables,
with the figures the published results scripts give (SCRATCHWORLD_API.md section 12).

- **Drag** `result_single_step_drag_benchmark_<model>/<id>/<run>/result.json` (`success`,
  `run_index`, the `action` tried, `1.png` before and `2.png` after): the runs of an item are
  its attempts in `run_index` order (else the run folder's number); Pass@k is the share of
  items with a success among their first k runs, for k = 1 .. the most runs any item has, over
  all items and per interaction type (T1, T2: the id's prefix). The component accuracies need
  the items' feasible regions, which the folder does not hold: they stay empty.
- **Perception** `result_visual_perception_benchmark_<model>/<task_id>/result.json` (`tag`,
  `success`, `ground_truth`, `model_response`): accuracy per question type (the tag's first
  word: connection, existence, field), overall, and per tag (`tag <name>` columns).

A run or question whose result.json is missing or torn is named and left out; a drag run
without its before/after screenshot is named and still counted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from studio.models.report import DiagnosticRow
from studio.services.formats.scratchworld.results.folders import (
    RESULT_FILE,
    ResultFolder,
    read_json,
)

__all__ = ["DRAG_SHOTS", "QA_TYPES", "drag_attempts", "pass_at", "read_drag", "read_perception"]

DRAG_SHOTS = ("1.png", "2.png")
QA_TYPES = ("connection", "existence", "field")


def _pct(n: int, d: int) -> float | None:
    return round(100.0 * n / d, 2) if d else None


def _subdirs(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))


def _run_order(run: Path, data: dict[str, Any]) -> tuple[int, str]:
    index = data.get("run_index")
    if isinstance(index, int) and not isinstance(index, bool):
        return index, run.name
    digits = re.findall(r"\d+", run.name)
    return (int(digits[-1]) if digits else 0), run.name


def drag_attempts(folder: ResultFolder, problems: list[str]) -> dict[str, list[bool]]:
    """Per item id, the success of each run in order."""
    items: dict[str, list[bool]] = {}
    for item in _subdirs(folder.path):
        runs: list[tuple[tuple[int, str], bool]] = []
        for run in _subdirs(item):
            path = run / RESULT_FILE
            if not path.exists():
                problems.append(f"{path}: missing (the run did not finish); left out")
                continue
            data = read_json(path, problems)
            if not isinstance(data, dict):
                if data is not None:
                    problems.append(f"{path}: not a result object; left out")
                continue
            lost = [name for name in DRAG_SHOTS if not (run / name).is_file()]
            if lost:
                problems.append(f"{run}: screenshot(s) missing: {', '.join(lost)}")
            runs.append((_run_order(run, data), data.get("success") is True))
        if runs:
            items[item.name] = [ok for _, ok in sorted(runs)]
    return items


def pass_at(items: dict[str, list[bool]], k: int) -> float | None:
    """Share (%) of items with a success among their first k runs."""
    return _pct(sum(any(runs[:k]) for runs in items.values()), len(items))


def read_drag(folder: ResultFolder) -> tuple[DiagnosticRow | None, list[str]]:
    """The drag runner's folder as one row: Pass@1..k overall and per T1 / T2."""
    problems: list[str] = []
    items = drag_attempts(folder, problems)
    if not items:
        problems.append(f"{folder.path}: no readable drag run; left out")
        return None, problems
    k = max(len(runs) for runs in items.values())
    scores: dict[str, float | None] = {}
    for i in range(1, k + 1):
        scores[f"pass@{i}"] = pass_at(items, i)
    scores["start_acc"] = scores["end_acc"] = None
    for part in ("T1", "T2"):
        mine = {i: r for i, r in items.items() if i.upper().startswith(part)}
        for i in range(1, k + 1):
            scores[f"{part} pass@{i}"] = pass_at(mine, i)
    row = DiagnosticRow(
        kind="drag", agent=folder.model, items=len(items), k=k, scores=scores,
        folder=str(folder.path),
    )  # fmt: skip
    return row, problems


def read_perception(folder: ResultFolder) -> tuple[DiagnosticRow | None, list[str]]:
    """The perception runner's folder as one row: accuracy per type, overall and per tag."""
    problems: list[str] = []
    by_type: dict[str, list[bool]] = {t: [] for t in QA_TYPES}
    by_tag: dict[str, list[bool]] = {}
    for question in _subdirs(folder.path):
        path = question / RESULT_FILE
        if not path.exists():
            problems.append(f"{path}: missing (the question was not answered); left out")
            continue
        data = read_json(path, problems)
        if not isinstance(data, dict) or not isinstance(data.get("success"), bool):
            if data is not None:
                problems.append(f"{path}: field 'success': missing or not true/false; left out")
            continue
        tag = str(data.get("tag") or data.get("task_type") or "untagged")
        kind = tag.split("_", 1)[0]
        by_type.setdefault(kind, []).append(data["success"])
        by_tag.setdefault(tag, []).append(data["success"])
    answers = [ok for oks in by_type.values() for ok in oks]
    if not answers:
        problems.append(f"{folder.path}: no readable answer; left out")
        return None, problems
    scores: dict[str, float | None] = {t: _pct(sum(v), len(v)) for t, v in by_type.items()}
    scores["field_exact"] = None
    scores["overall"] = _pct(sum(answers), len(answers))
    for tag, oks in sorted(by_tag.items()):
        scores[f"tag {tag}"] = _pct(sum(oks), len(oks))
    row = DiagnosticRow(
        kind="qa", agent=folder.model, items=len(answers), scores=scores, folder=str(folder.path)
    )
    return row, problems
