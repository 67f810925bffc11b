"""All of ScratchWorld's result folders below a folder, as the runs feature reads them.

`load_field_results(root)` reads every result folder at or below `root` (`folders`): a task
runner's task folders become report entries (a task whose result.json cannot be read is only
its problem lines), a drag or perception runner's folder one diagnostics row (`items`).
`FIELD_READER` is what `runs.result_readers.RESULT_READERS` names for "scratchworld": calling it
is `load_field_results`, `run_folder` gives the task runner's result folder a task folder is in,
`view` a task folder or a drag run as a trajectory (`view`), flags set.
"""

from __future__ import annotations

from pathlib import Path

from studio.services.formats.scratchworld.results import view as sw_view
from studio.services.formats.scratchworld.results.folders import (
    FieldResults,
    classify,
    find_result_folders,
    task_results,
)
from studio.services.formats.scratchworld.results.items import read_drag, read_perception
from studio.services.runs.reports import entry_from_run
from studio.services.runs.trajectories.view import TrajectoryView, set_flags

__all__ = ["FIELD_READER", "SwFieldReader", "load_field_results"]


def load_field_results(root: Path) -> FieldResults:
    """Read every result folder at or below `root` for the report."""
    out = FieldResults(folders=find_result_folders(root))
    for folder in out.folders:
        if folder.kind == "task":
            for task in task_results(folder):
                out.problems.extend(task.problems)
                if task.run is not None:
                    out.entries.append(entry_from_run(task.run, task.folder, {}))
        else:
            reader = read_drag if folder.kind == "drag" else read_perception
            row, problems = reader(folder)
            out.problems.extend(problems)
            if row is not None:
                out.diagnostics.append(row)
    return out


class SwFieldReader:
    """ScratchWorld's runners' result folders for `runs.result_readers` (see the module)."""

    def __call__(self, root: Path) -> FieldResults:
        return load_field_results(root)

    def run_folder(self, folder: Path) -> Path | None:
        """The task runner's result folder `<folder>/../..` when it is one."""
        outer = classify(folder.parent.parent)
        return outer.path if outer is not None and outer.kind == "task" else None

    def view(self, folder: Path) -> TrajectoryView | None:
        if sw_view.is_sw_task_folder(folder):  # a task runner's task folder
            view = sw_view.load_sw_view(folder)
            set_flags(view)
            return view
        if sw_view.is_sw_drag_run(folder):  # a drag runner's run folder
            return sw_view.load_sw_drag_view(folder)
        return None


FIELD_READER = SwFieldReader()
