"""Scoring drag predictions as in the seed paper's Table 2 (FORMATS.md section 2).

Predictions are JSON lines, one item each:
`{"id": ITEM, "attempts": [{"start": [x, y], "end": [x, y]}, ...]}` (or one attempt given
directly as `"start"` and `"end"`, or as `start_x, start_y, end_x, end_y`). An optional
`"model"` and `"setting"` group the report. An attempt `{"error": WHY}` without points is one
where the agent gave no usable drag (a reply that could not be read): it counts as wrong in
every figure and has no spatial error.

Per attempt: the start component is right when the start lies within half a grid step of a
feasible start point; the end component when the end, moved by the same amount as the start
differs from the item's drag start (the block moves with the point that grabbed it), lies
within half a grid step of a feasible end point. An attempt succeeds when both are right, or,
with `execute`, when the real drag performed in the editor makes the intended connection.
Pass@k counts an item once any of its first k attempts succeeds. Start accuracy is over all
attempts; end accuracy over the attempts whose start was right (Table 2's convention); spatial
error is the mean distance (px) of wrong points to the nearest feasible point.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.drag_item import DragItem
from studio.services.core.errors import TaskFileError
from studio.services.core.jsonl import json_lines
from studio.services.diagnostics.drag.grid import distance, inside
from studio.services.diagnostics.drag.item import ItemFolder

__all__ = [
    "K_MAX", "Attempt", "AttemptScore", "ItemScore", "Prediction", "Pt", "execute",
    "read_predictions", "report", "score_attempt", "score_items", "summarize",
]  # fmt: skip

K_MAX = 3
Pt = tuple[float, float]


@dataclass
class Attempt:
    start: Pt | None
    end: Pt | None
    error: str | None = None  # why there is no drag (None: start and end are given)


@dataclass
class Prediction:
    item_id: str
    attempts: list[Attempt]
    group: str = ""


@dataclass
class AttemptScore:
    start_ok: bool
    end_ok: bool
    start_error: float | None  # px to the nearest feasible start point, when outside
    end_error: float | None
    executed: bool | None = None  # the real drag's verdict, when executed

    @property
    def success(self) -> bool:
        return self.executed if self.executed is not None else self.start_ok and self.end_ok


@dataclass
class ItemScore:
    item_id: str
    category: str
    attempts: list[AttemptScore] = field(default_factory=list)


def _point(value: Any, what: str, line: int, path: Path) -> Pt:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise TaskFileError(path, f"line {line}: {what} must be [x, y]", what)
    try:
        return float(value[0]), float(value[1])
    except (TypeError, ValueError):
        raise TaskFileError(path, f"line {line}: {what} must hold numbers", what) from None


def _attempt(data: dict[str, Any], line: int, path: Path) -> Attempt:
    if data.get("error") and data.get("start") is None and data.get("end") is None:
        return Attempt(None, None, str(data["error"]))
    if "start" in data or "end" in data:
        return Attempt(
            _point(data.get("start"), "start", line, path),
            _point(data.get("end"), "end", line, path),
        )
    keys = ("start_x", "start_y", "end_x", "end_y")
    if all(k in data for k in keys):
        sx, sy, ex, ey = (data[k] for k in keys)
        return Attempt(_point([sx, sy], "start", line, path), _point([ex, ey], "end", line, path))
    raise TaskFileError(path, f"line {line}: an attempt needs start and end points")


def read_predictions(path: Path) -> list[Prediction]:
    """Parse a predictions .jsonl file; TaskFileError naming the line at fault."""
    out: list[Prediction] = []
    for n, data in json_lines(path):
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise TaskFileError(path, f"line {n}: needs an item id", "id")
        raw = data.get("attempts")
        attempts = [_attempt(a, n, path) for a in raw] if isinstance(raw, list) else []
        if not attempts:
            attempts = [_attempt(data, n, path)]
        group = "/".join(str(data[k]) for k in ("model", "setting") if data.get(k))
        out.append(Prediction(data["id"], attempts, group))
    return out


def score_attempt(item: DragItem, attempt: Attempt) -> AttemptScore:
    if attempt.start is None or attempt.end is None:
        return AttemptScore(False, False, None, None)
    cfg = item.evaluation_config
    grid = cfg.grid
    starts = [(p[0], p[1]) for p in cfg.feasible_start_points]
    ends = [(p[0], p[1]) for p in cfg.feasible_points]
    start_ok = inside(attempt.start, starts, grid)
    end = attempt.end
    if start_ok and cfg.drag_start_point:
        ds = cfg.drag_start_point
        end = (end[0] - (attempt.start[0] - ds[0]), end[1] - (attempt.start[1] - ds[1]))
    end_ok = inside(end, ends, grid)
    return AttemptScore(
        start_ok,
        end_ok,
        None if start_ok else distance(attempt.start, starts),
        None if end_ok else distance(end, ends),
    )


def score_items(
    items: dict[str, ItemFolder], predictions: Iterable[Prediction]
) -> dict[str, list[ItemScore]]:
    """Per group, the scores of each predicted item (unknown item ids raise)."""
    groups: dict[str, list[ItemScore]] = {}
    for pred in predictions:
        entry = items.get(pred.item_id)
        if entry is None:
            raise TaskFileError(pred.item_id, "no drag item with this id in the items folder")
        score = ItemScore(pred.item_id, entry.item.category)
        score.attempts = [score_attempt(entry.item, a) for a in pred.attempts]
        groups.setdefault(pred.group, []).append(score)
    return groups


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _pct(n: int, d: int) -> float | None:
    return round(100.0 * n / d, 2) if d else None


def summarize(scores: list[ItemScore], k_max: int = K_MAX) -> dict[str, Any]:
    """Pass@1..k, component accuracies and spatial errors of a list of item scores."""
    attempts = [a for s in scores for a in s.attempts]
    started = [a for a in attempts if a.start_ok]
    out: dict[str, Any] = {"items": len(scores), "attempts": len(attempts)}
    for k in range(1, k_max + 1):
        passed = sum(1 for s in scores if any(a.success for a in s.attempts[:k]))
        out[f"pass@{k}"] = _pct(passed, len(scores))
    out["start_acc"] = _pct(len(started), len(attempts))
    out["end_acc"] = _pct(sum(1 for a in started if a.end_ok), len(started))
    out["start_error_px"] = _mean([a.start_error for a in attempts if a.start_error is not None])
    out["end_error_px"] = _mean([a.end_error for a in attempts if a.end_error is not None])
    executed = [a for a in attempts if a.executed is not None]
    if executed:
        out["executed_success"] = _pct(sum(1 for a in executed if a.executed), len(executed))
    return out


def report(groups: dict[str, list[ItemScore]], k_max: int = K_MAX) -> dict[str, Any]:
    """Overall and per interaction type (T1, T2), for every group."""
    out: dict[str, Any] = {}
    for group, scores in sorted(groups.items()):
        out[group or "all"] = {
            "overall": summarize(scores, k_max),
            "T1": summarize([s for s in scores if s.category == "T1"], k_max),
            "T2": summarize([s for s in scores if s.category == "T2"], k_max),
            "items": [
                {
                    "id": s.item_id,
                    "category": s.category,
                    "attempts": [
                        {
                            "start_ok": a.start_ok,
                            "end_ok": a.end_ok,
                            "start_error_px": a.start_error,
                            "end_error_px": a.end_error,
                            "executed": a.executed,
                            "success": a.success,
                        }
                        for a in s.attempts
                    ],
                }
                for s in scores
            ],
        }
    return out


async def execute(
    context: Any,
    server: Any,
    items: dict[str, ItemFolder],
    groups: dict[str, list[ItemScore]],
    predictions: list[Prediction],
    pages: int = 1,
    windows: list[Any] | None = None,
) -> None:
    """Perform every predicted drag in the editor; store each verdict in its AttemptScore.

    The items share their editor windows: `windows`, the caller's (kept open, as
    `TrialPages` keeps them), or ones opened for the first item and closed at the end (a
    window is set up for each item as a fresh one is; opening one costs more than all the
    drags of an item)."""
    own: list[Any] = []
    kept = windows if windows is not None else own
    try:
        await _execute(context, server, items, groups, predictions, pages, kept)
    finally:
        for window in own:
            with contextlib.suppress(Exception):
                await window.close()


async def _execute(
    context: Any,
    server: Any,
    items: dict[str, ItemFolder],
    groups: dict[str, list[ItemScore]],
    predictions: list[Prediction],
    pages: int,
    windows: list[Any],
) -> None:
    """`execute`'s drags, item after item, on the editor windows `windows`."""
    from studio.services.diagnostics.drag.page import TrialPages

    by_item: dict[str, list[tuple[Attempt, AttemptScore]]] = {}
    cursor: dict[str, int] = {}
    for pred in predictions:
        scores = groups[pred.group]
        i = cursor.get(pred.group, 0)
        cursor[pred.group] = i + 1
        pairs = list(zip(pred.attempts, scores[i].attempts, strict=True))
        by_item.setdefault(pred.item_id, []).extend(pairs)
    for item_id, pairs in by_item.items():
        drags: list[tuple[Pt, Pt, AttemptScore]] = []
        for a, score in pairs:
            score.executed = False  # an attempt without a drag stays a failure
            if a.start is not None and a.end is not None:
                drags.append((a.start, a.end, score))
        if not drags:
            continue
        async with TrialPages(context, server, items[item_id], pages, windows) as tp:
            verdicts = await tp.run([(start, end) for start, end, _ in drags])
        for (_, _, score), verdict in zip(drags, verdicts, strict=True):
            score.executed = verdict.connected
