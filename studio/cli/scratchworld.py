"""`studio import scratchworld` and `studio export scratchworld`: a ScratchWorld checkout (tasks,
single-step drag items, perception QA items) to a library and back.

`studio export inspect` is studio.cli.inspect_log's (registered here, among the formats).
Exit codes: 0 everything done, 1 some files skipped (each named), 2 unusable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.app.formats import EXPORT_FORMATS, IMPORT_FORMATS, export_set, import_set
from studio.cli import blocktext, formats, inspect_log, submission
from studio.cli.common import EXIT_FAILED, EXIT_OK
from studio.models.errors import StudioError
from studio.services.core.errors import cut
from studio.services.formats.scratchworld.tasks import ExportReport, ImportReport

FORMAT = "scratchworld"


def register(subparsers: Any) -> None:
    """Add `import scratchworld` and `export scratchworld` (and `export inspect`) to the
    studio's sub-commands."""
    imp = subparsers.add_parser("import", help="import a task set into a library")
    imp_formats = imp.add_subparsers(dest="format", required=True, metavar="FORMAT")
    sw_imp = imp_formats.add_parser(
        FORMAT,
        help=IMPORT_FORMATS.help(FORMAT),
        description="Import a ScratchWorld checkout: one task folder per task under DEST, the "
        "single-step drag items and perception QA items under DEST/diagnostics/.",
    )
    sw_imp.add_argument("root", type=Path, metavar="ROOT", help="the checkout's folder")
    sw_imp.add_argument("dest", type=Path, metavar="DEST", help="library folder to write into")
    sw_imp.add_argument("--tasks", type=Path, help="task JSON folder (default: ROOT/tasks)")
    sw_imp.add_argument(
        "--scripts",
        type=Path,
        help="evaluation scripts folder (default: ROOT/scratch-bench-api/api/evaluation_scripts)",
    )
    sw_imp.add_argument(
        "--projects", type=Path, help=".sb3 folder (default: ROOT/scratch-gui/static)"
    )
    sw_imp.add_argument(
        "--overwrite", action="store_true", help="replace task folders and items that exist"
    )
    sw_imp.add_argument("--json", action="store_true", help="print the report as JSON")
    sw_imp.set_defaults(handler=import_scratchworld)

    exp = subparsers.add_parser("export", help="export a library as a task set")
    exp_formats = exp.add_subparsers(dest="format", required=True, metavar="FORMAT")
    sw_exp = exp_formats.add_parser(
        FORMAT,
        help=EXPORT_FORMATS.help(FORMAT),
        description="Write the task folders under SRC (and the drag and QA items of "
        "SRC/diagnostics/) to DEST in the ScratchWorld layout.",
    )
    sw_exp.add_argument("src", type=Path, metavar="SRC", help="task folder or library")
    sw_exp.add_argument("dest", type=Path, metavar="DEST", help="folder to write the set into")
    sw_exp.add_argument(
        "--overwrite", action="store_true", help="write into a folder that is not empty"
    )
    sw_exp.add_argument("--json", action="store_true", help="print the report as JSON")
    sw_exp.set_defaults(handler=export_scratchworld)
    inspect_log.register_export(exp_formats)
    submission.register_export(exp_formats)
    blocktext.register_exchange(imp_formats, exp_formats)
    formats.add_registered(imp_formats, "import")
    formats.add_registered(exp_formats, "export")


def import_scratchworld(args: argparse.Namespace) -> int:
    """`studio import scratchworld`: print the report; the exit code (see the module doc)."""
    try:
        report: Any = import_set(
            FORMAT,
            args.root,
            args.dest,
            tasks_dir=args.tasks,
            scripts_dir=args.scripts,
            projects_dir=args.projects,
            overwrite=args.overwrite,
        )
    except OSError as exc:
        raise os_error(exc) from None
    return _show(args, report)


def export_scratchworld(args: argparse.Namespace) -> int:
    """`studio export scratchworld`: print the report; the exit code (see the module doc)."""
    try:
        report: Any = export_set(FORMAT, args.src, args.dest, overwrite=args.overwrite)
    except OSError as exc:
        raise os_error(exc) from None
    return _show(args, report)


def os_error(exc: OSError) -> StudioError:
    """A file the import or export could not read or write, as bad input naming it."""
    return StudioError(f"{exc.filename or ''}: {exc.strerror or exc}")


def _show(args: argparse.Namespace, report: ImportReport | ExportReport) -> int:
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        _print(report)
    return EXIT_OK if report.ok else EXIT_FAILED


def _print(report: ImportReport | ExportReport) -> None:
    if isinstance(report, ImportReport):
        if not report.imported and report.skipped:  # the reason first, with what helps
            exist = sum("--overwrite" in str(p) for p in report.skipped)
            why = f" ({exist} already in {report.dest}: --overwrite replaces them)" if exist else ""
            print(f"imported no task from {report.root}: {len(report.skipped)} skipped{why}")
        else:
            print(f"imported {len(report.imported)} tasks from {report.root} into {report.dest}")
        for task_id in report.imported:
            print(f"  {task_id}")
        if report.without_golden:
            print(f"without golden project: {', '.join(report.without_golden)}")
        if report.task_lists:
            print(f"task lists kept: {', '.join(report.task_lists)}")
    else:
        print(
            f"exported {len(report.exported)} tasks from {report.src} to {report.dest} "
            f"({len(report.files)} files)"
        )
    print_problems(report)


def print_problems(report: ImportReport | ExportReport) -> None:
    """The drag and QA items a report counts, then its problems and warnings."""
    if report.drag_items or report.qa_items:
        verb = "imported" if isinstance(report, ImportReport) else "exported"
        print(f"{verb} {len(report.drag_items)} drag items and {len(report.qa_items)} QA items")
    if report.skipped:
        print(f"skipped {len(report.skipped)}:", file=sys.stderr)
        for problem in report.skipped:
            print(f"  {problem}", file=sys.stderr)
    for warning in report.warnings:
        print(f"warning: {cut(warning)}", file=sys.stderr)
