"""SR by task difficulty and by tag in `studio report` (MageBench-style breakdowns).

A task's difficulty and tags are its task.json's `metadata` (the task folder each run.json
names); a task without them counts as difficulty "unset" and under no tag. Per agent and mode,
SR over the tasks of each difficulty and each tag (a task's episodes averaged first, as in the
grid), with the number of tasks: `easy 50.00% (2)`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

from studio.models.report import RunEntry, RunReport
from studio.models.task import TASK_FILE
from studio.models.trajectory import RUN_FILE

__all__ = ["attach_breakdowns", "breakdown_lines", "task_labels"]


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def task_labels(folder: Path, cache: dict[str, tuple[str, list[str]]]) -> tuple[str, list[str]]:
    """(difficulty, tags) of the task the episode in `folder` played ("unset", [] unknown)."""
    task_folder = _json(Path(folder) / RUN_FILE).get("task_folder")
    if not isinstance(task_folder, str) or not task_folder:
        return "unset", []
    if task_folder not in cache:
        meta = _json(Path(task_folder) / TASK_FILE).get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        difficulty = meta.get("difficulty")
        tags = meta.get("tags")
        cache[task_folder] = (
            difficulty if isinstance(difficulty, str) and difficulty else "unset",
            [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else [],
        )
    return cache[task_folder]


def _sr(groups: dict[str, dict[str, list[bool]]]) -> dict[str, dict[str, float | int]]:
    return {
        key: {"tasks": len(tasks), "sr": mean(mean(v) for v in tasks.values())}
        for key, tasks in sorted(groups.items())
    }


def attach_breakdowns(report: RunReport, entries: list[RunEntry]) -> None:
    """Set each row's `breakdowns` ({"difficulty": {d: {tasks, sr}}, "tags": {...}})."""
    cache: dict[str, tuple[str, list[str]]] = {}
    for row in report.rows:
        by_difficulty: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
        by_tag: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
        for entry in entries:
            if (entry.agent, entry.mode) != (row.agent, row.mode) or not entry.folder:
                continue
            difficulty, tags = task_labels(Path(entry.folder), cache)
            by_difficulty[difficulty][entry.task_id].append(entry.success)
            for tag in tags:
                by_tag[tag][entry.task_id].append(entry.success)
        if set(by_difficulty) - {"unset"} or by_tag:
            row.breakdowns = {"difficulty": _sr(by_difficulty), "tags": _sr(by_tag)}


def breakdown_lines(report: RunReport) -> list[str]:
    """'SR by difficulty and tag' lines, one per row that has them."""
    rows = [r for r in report.rows if r.breakdowns]
    if not rows:
        return []
    lines = ["SR by difficulty and tag (tasks):"]
    for r in rows:
        parts = []
        for kind in ("difficulty", "tags"):
            cells = r.breakdowns.get(kind) or {}
            if cells:
                shown = ", ".join(
                    f"{k} {100 * v['sr']:.2f}% ({v['tasks']})" for k, v in cells.items()
                )
                parts.append(f"{'by tag' if kind == 'tags' else 'by difficulty'}: {shown}")
        lines.append(f"  {r.agent} ({r.mode}): " + "; ".join(parts))
    return [*lines, ""]
