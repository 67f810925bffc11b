"""Epochs in a report: a campaign run with `--epochs N` is one run whose tasks each have N
episodes (studio.services.runs.campaign records them under `<task>/epoch-<e>/`).

`episode_figures` lists a task's counted episodes in epoch order (the report's per-episode
figures: epoch, success, PSR, time); `epoch_figures` gives SR and PSR per epoch over the tasks
that have a counted episode in it, so a reader sees whether later epochs differ; `epoch_line`
and `epochs_cell` render them as text and HTML. Nothing here changes SR and PSR themselves:
a task's episodes still count once, averaged (studio.models.report).
"""

from __future__ import annotations

from collections import defaultdict
from statistics import mean

from studio.models.report import EpisodeFigure, EpochFigure, ReportRow, RunEntry, TaskStats

__all__ = ["episode_figures", "epoch_figures", "epoch_line", "epochs_cell"]


def episode_figures(runs: list[RunEntry]) -> list[EpisodeFigure]:
    """The episodes of one task as figures, in epoch order (episodes without one last)."""
    ordered = sorted(runs, key=lambda r: (r.epoch is None, r.epoch or 0))
    return [
        EpisodeFigure(epoch=r.epoch, success=r.success, psr=r.psr, seconds=r.seconds)
        for r in ordered
    ]


def epoch_figures(tasks: list[TaskStats]) -> list[EpochFigure]:
    """SR and PSR per epoch over the tasks' counted episodes; empty unless some task has an
    episode of an epoch above 1 (a single run has nothing to split)."""
    by_epoch: dict[int, dict[str, list[EpisodeFigure]]] = defaultdict(lambda: defaultdict(list))
    for task in tasks:
        for episode in task.episodes:
            if episode.epoch is not None:
                by_epoch[episode.epoch][task.task_id].append(episode)
    if not any(epoch > 1 for epoch in by_epoch):
        return []
    figures = []
    for epoch, per_task in sorted(by_epoch.items()):
        wins = [mean(1.0 if e.success else 0.0 for e in eps) for eps in per_task.values()]
        psrs = [mean(e.psr for e in eps) for eps in per_task.values()]
        figures.append(EpochFigure(epoch=epoch, tasks=len(per_task), sr=mean(wins), psr=mean(psrs)))
    return figures


def epoch_line(row: ReportRow) -> str | None:
    """'oracle: by epoch: 1 SR 100.00 PSR 100.00 (2 tasks); 2 SR 50.00 ...'; None without."""
    if not row.epochs:
        return None
    parts = [
        f"{f.epoch} SR {100 * f.sr:.2f} PSR {100 * f.psr:.2f} ({f.tasks} tasks)" for f in row.epochs
    ]
    return f"{row.agent}: by epoch: " + "; ".join(parts)


def epochs_cell(task: TaskStats) -> str:
    """A task's episodes for the HTML table's Epoch column: 'e1 pass 100.00 · e2 fail 50.00'
    (an episode without an epoch shows '-' for it)."""
    return " · ".join(
        f"e{e.epoch if e.epoch is not None else '-'} {'pass' if e.success else 'fail'} "
        f"{100 * e.psr:.2f}"
        for e in task.episodes
    )
