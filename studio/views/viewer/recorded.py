"""Recorded runs for the viewer: a trajectory folder or an exported archive, read tolerantly
(`trajectories.view.load_view`), turned into ViewerSteps and a title that says what is missing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studio.services.core import paths
from studio.services.episodes.limits import usage_text
from studio.services.runs.trajectories.archive import open_archive
from studio.services.runs.trajectories.view import TrajectoryView, load_view
from studio.views.viewer.steps import ViewerStep

ARCHIVES = "archives"


@dataclass
class OpenedRun:
    view: TrajectoryView
    steps: list[ViewerStep]
    source: Path  # what the user opened (folder or .zip)

    @property
    def title(self) -> str:
        run = self.view.run
        if run is None:
            head = f"<b>Recorded:</b> {self.view.folder} (run.json unreadable)"
        else:
            verdict = run.eval.summary_line() if run.eval is not None else "not evaluated"
            usage = run.meta.get("usage")
            spent = usage_text(usage if isinstance(usage, dict) else None)
            head = (
                f"<b>Recorded:</b> {run.agent} on {run.task_id} · {run.mode.value} mode · "
                f"{run.status.value} after {len(self.steps)} steps · {verdict}"
                + (f" · {_escape(spent)}" if spent else "")
            )
        lines = [head, f"<small>{_escape(str(self.source))}</small>"]
        marks = list(self.view.missing) + list(self.view.problems)
        if marks:
            shown = "<br>".join(_escape(m) for m in marks[:6])
            more = f" (+{len(marks) - 6} more)" if len(marks) > 6 else ""
            lines.append(f"<span style='color:#cf222e'>{shown}{more}</span>")
        return "<br>".join(lines)


def open_run(path: Path) -> OpenedRun:
    """Open a trajectory folder or an exported .zip (extracted below the data folder)."""
    path = Path(path)
    folder = path
    if path.is_file() and path.suffix.lower() == ".zip":
        folder = open_archive(path, paths.data_dir() / ARCHIVES)
    view = load_view(folder)
    return OpenedRun(view, steps_of(view), path)


def steps_of(view: TrajectoryView) -> list[ViewerStep]:
    return [
        ViewerStep(
            record=s.record,
            screenshot_path=s.screenshot,
            load_observation=s.observation,
            flags=set(s.flags),
            missing=list(s.missing),
        )
        for s in view.steps
    ]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
