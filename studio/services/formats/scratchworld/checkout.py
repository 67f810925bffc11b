"""A whole ScratchWorld checkout, both ways: tasks, single-step drag items and QA items.

`import_checkout(ROOT, DEST)` imports the tasks into task folders `DEST/<id>/`
(`scratchworld.tasks`) and the drag and QA items into `DEST/diagnostics/`
(`scratchworld.items`); `export_checkout(SRC, DEST)`
writes a library's tasks and, when `SRC/diagnostics/` exists, its drag and QA items back in the
published layout. A checkout may hold tasks only, diagnostics only, or both. The task scanner
looks for task.json only, so the item folders under `diagnostics/` are never taken for tasks.
"""

from __future__ import annotations

from pathlib import Path

from studio.models.errors import StudioError
from studio.services.core.store import scan_library
from studio.services.formats.scratchworld.items.common import Output, check_dest
from studio.services.formats.scratchworld.items.drag import drag_project_names
from studio.services.formats.scratchworld.items.sets import (
    DIAGNOSTICS_DIR,
    export_diagnostics,
    has_diagnostics,
    import_diagnostics,
)
from studio.services.formats.scratchworld.tasks.exporter import export_scratchworld
from studio.services.formats.scratchworld.tasks.importer import import_scratchworld
from studio.services.formats.scratchworld.tasks.layout import TASKS_DIR
from studio.services.formats.scratchworld.tasks.reports import ExportReport, ImportReport

__all__ = ["export_checkout", "import_checkout"]


def import_checkout(
    root: Path | str,
    dest: Path | str,
    tasks_dir: Path | str | None = None,
    scripts_dir: Path | str | None = None,
    projects_dir: Path | str | None = None,
    *,
    overwrite: bool = False,
) -> ImportReport:
    """Import the tasks, drag items and QA items of the checkout `root` into the library `dest`.

    Raises StudioError when the checkout is unusable (neither tasks nor diagnostics, or a
    folder the tasks need is missing); problems with single files are in the report."""
    root, dest = Path(root), Path(dest)
    tdir = Path(tasks_dir) if tasks_dir else root / TASKS_DIR
    diagnostics = has_diagnostics(root)
    has_tasks = tdir.is_dir() and any(p.is_file() for p in tdir.glob("*/*.json"))
    if has_tasks or not diagnostics:  # without diagnostics the task importer names the problem
        report = import_scratchworld(
            root,
            dest,
            tasks_dir,
            scripts_dir,
            projects_dir,
            overwrite=overwrite,
            also_used=drag_project_names(root) if diagnostics else (),
        )
    else:
        report = ImportReport(root, dest)
        dest.mkdir(parents=True, exist_ok=True)
    if diagnostics:
        projects = Path(projects_dir) if projects_dir else None
        import_diagnostics(root, dest, report, projects, overwrite=overwrite)
    return report


def export_checkout(src: Path | str, dest: Path | str, *, overwrite: bool = False) -> ExportReport:
    """Export the library `src` (its tasks, and `src/diagnostics/` when there is one) to `dest`
    in the published layout.

    Raises StudioError when there is nothing to export or `dest` is a folder that is not empty
    (unless `overwrite`)."""
    src, dest = Path(src), Path(dest)
    folder = src / DIAGNOSTICS_DIR
    if not folder.is_dir():
        return export_scratchworld(src, dest, overwrite=overwrite)
    check_dest(dest, overwrite)
    scan = scan_library(src)
    if scan.tasks or scan.errors:
        report = export_scratchworld(src, dest, overwrite=True)
    else:
        report = ExportReport(src, dest)
    out = Output(dest, report.files)
    export_diagnostics(folder, out, report)
    if not (report.exported or report.drag_items or report.qa_items or report.skipped):
        raise StudioError(f"{src}: no task folders and no drag or QA items in it")
    report.files = sorted(out.files)
    return report
