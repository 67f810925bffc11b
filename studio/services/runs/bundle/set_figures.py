"""The statistics of the tasks a bundle's runs played, for the bundle's "Task set" section:
the figures of `studio stats` (`authoring.set_stats`) over those tasks, with the table and the
bar charts as inline SVG (`authoring.set_charts`), so the page draws them with no script of its
own and nothing fetched.

Each task is found through the task folder its episodes recorded (run.json `task_folder`); the
first episode whose folder is still a readable task folder gives it. A task found nowhere (a
ScratchWorld runner's result folder records none, a library moved since) is named in
`missing` and left out of the figures, never guessed.

`bundle_stats(entries)` is `{tasks, missing, table, charts: [{id, title, svg}], stats}`, or
None when no task of the runs could be found (the page then shows no such section).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.report import RunEntry
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.authoring.set_charts import chart_svg, stats_charts, stats_table
from studio.services.authoring.set_stats import set_stats
from studio.services.core.store import TaskFolder, load_task

__all__ = ["bundle_stats", "recorded_task"]


def recorded_task(episode_folder: Path) -> TaskFolder | None:
    """The task folder an episode recorded in its run.json, if it can still be read."""
    try:
        run = RunInfo.model_validate_json((episode_folder / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not run.task_folder:
        return None
    try:
        return load_task(Path(run.task_folder))
    except (OSError, StudioError):
        return None


def bundle_stats(entries: list[RunEntry]) -> dict[str, Any] | None:
    """The figures of the tasks the entries played (see the module doc)."""
    found: dict[str, TaskFolder] = {}
    wanted: list[str] = list(dict.fromkeys(e.task_id for e in entries))
    for entry in entries:
        if entry.task_id in found or not entry.folder:
            continue
        task = recorded_task(Path(entry.folder))
        if task is not None and task.task.id == entry.task_id:
            found[entry.task_id] = task
    if not found:
        return None
    tasks = [found[t] for t in wanted if t in found]
    stats = set_stats(tasks)
    return {
        "tasks": len(tasks),
        "missing": [t for t in wanted if t not in found],
        "table": stats_table(stats),
        "charts": [
            {"id": c["id"], "title": c["title"], "svg": chart_svg(c)} for c in stats_charts(stats)
        ],
        "stats": stats,
    }
