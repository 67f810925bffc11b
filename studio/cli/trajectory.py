"""`studio trajectory show|export|compare`: recorded runs offline, archived, side by side.

Exit codes: 0 done; 2 unusable input (a path that is not a trajectory folder or archive, an
archive with unsafe members, no manifest or members past the size limits), with a message
naming the file. `export` packs the task folder given with `--task`, else only the `task/`
folder the run folder itself holds (an opened archive's): a path that run.json names is never
followed, since a run folder may come from elsewhere, and the note printed says to pass --task.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_OK
from studio.models.errors import StudioError

COMMAND = "trajectory"


def register(subparsers: Any) -> None:
    """Add `trajectory` (with show, export, compare) to the studio's subcommands."""
    tr = subparsers.add_parser(
        COMMAND,
        help="view, export and compare recorded runs (trajectory folders or .zip archives)",
    )
    sub = tr.add_subparsers(dest="trajectory_command", required=True)
    dest_help = "where .zip archives are extracted (default: the studio's data folder)"

    sh = sub.add_parser("show", help="the timeline of a run, with flags and missing files")
    sh.add_argument("path", type=Path, metavar="PATH", help="trajectory folder or exported .zip")
    sh.add_argument("--json", action="store_true", help="print the timeline as JSON")
    sh.add_argument("--dest", type=Path, help=dest_help)
    sh.set_defaults(handler=show_run)

    ex = sub.add_parser("export", help="pack a run and its task into one .zip")
    ex.add_argument("folder", type=Path, metavar="FOLDER", help="trajectory folder")
    ex.add_argument("-o", "--out", type=Path, required=True, metavar="OUT.zip")
    task_help = "task folder (default: only the task/ folder inside the run folder)"
    ex.add_argument("--task", type=Path, metavar="DIR", help=task_help)
    ex.set_defaults(handler=export_run)

    cp = sub.add_parser("compare", help="two runs of one task side by side, by step")
    cp.add_argument("a", type=Path, metavar="A", help="trajectory folder or .zip")
    cp.add_argument("b", type=Path, metavar="B", help="trajectory folder or .zip")
    cp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cp.add_argument("--dest", type=Path, help=dest_help)
    cp.set_defaults(handler=compare_runs)


def resolve(path: Path, dest: Path | None) -> Path:
    """A trajectory folder for `path`: the folder itself, or an archive extracted below `dest`."""
    from studio.services.core import paths
    from studio.services.runs.trajectories.archive import open_archive

    if path.is_dir():
        return path
    if path.is_file():
        return open_archive(path, dest or paths.data_dir() / "archives")
    raise StudioError(f"{path}: does not exist")


def show_run(args: argparse.Namespace) -> int:
    """`trajectory show`: the timeline of a run, as text or JSON."""
    from studio.services.runs.trajectories.text import format_timeline, timeline_json
    from studio.services.runs.trajectories.view import load_view

    view = load_view(resolve(args.path, args.dest))
    if args.json:
        print(json.dumps(timeline_json(view), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(format_timeline(view))
    return EXIT_OK


def export_run(args: argparse.Namespace) -> int:
    """`trajectory export`: pack a run (and its task) into one .zip; what was left out."""
    from studio.services.runs.trajectories.archive import read_manifest
    from studio.services.runs.trajectories.export import export_archive

    if not args.folder.is_dir():
        raise StudioError(f"{args.folder}: is not a trajectory folder")
    if args.task is not None and not args.task.is_dir():
        raise StudioError(f"{args.task}: is not a task folder")
    out = export_archive(args.folder, args.out, args.task)
    manifest = read_manifest(out)
    print(f"exported {args.folder} to {out} ({len(manifest['files'])} files)")
    task = manifest["task"]
    if not task["included"]:
        print(f"note: task not included: {task['note']} ({task['source'] or 'no folder'})")
    for problem in manifest["problems"]:
        print(f"problem: {problem}")
    return EXIT_OK


def compare_runs(args: argparse.Namespace) -> int:
    """`trajectory compare`: two runs of one task side by side, by step."""
    from studio.services.runs.trajectories.compare import compare
    from studio.services.runs.trajectories.text import format_comparison
    from studio.services.runs.trajectories.view import load_view

    a = load_view(resolve(args.a, args.dest))
    b = load_view(resolve(args.b, args.dest))
    result = compare(a, b)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(format_comparison(result))
    return EXIT_OK
