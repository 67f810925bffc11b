"""`studio stats LIBRARY [--json] [--checks FILE]`: what a task set covers, figured as the
ScratchWorld paper describes its set (studio.services.authoring.set_stats defines each figure).

Exit codes: 0 done; 2 no tasks below LIBRARY, or a checks file that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_OK
from studio.models.errors import StudioError


def register(subparsers: Any) -> None:
    """Add `stats` to the studio's sub-commands."""
    st = subparsers.add_parser(
        "stats",
        help="what a task set covers: tasks per category and difficulty, blocks, tests",
        description="Figures of the tasks below LIBRARY, per category and overall, defined as "
        "the ScratchWorld paper describes its set: modified_blocks (block edits from initial "
        "to golden: mean, max), added_blocks (blocks only the golden has: mean, max), "
        "block_types (opcodes of the golden projects' blocks) and their palette categories, "
        "instruction lengths (words), tests per task and kill rates (from --checks, else the "
        "window's last check, else the task's test_cases), review states and difficulty.",
    )
    st.add_argument("library", type=Path, metavar="LIBRARY", help="a task library folder")
    st.add_argument(
        "--checks",
        type=Path,
        metavar="FILE",
        help="the output of `studio check LIBRARY --json --with-results`: tests per task "
        "(the golden run's) and kill rates",
    )
    st.add_argument("--json", action="store_true", help="print the figures as JSON")
    st.set_defaults(handler=show_stats)


def _checks(path: Path | None) -> dict[str, dict[str, Any]]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StudioError(
            f"{path}: cannot be read as `studio check --json` output ({exc})"
        ) from None
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, list):
        raise StudioError(f"{path}: has no 'tasks' list (is it `studio check --json` output?)")
    return {t["id"]: t for t in tasks if isinstance(t, dict) and isinstance(t.get("id"), str)}


def show_stats(args: argparse.Namespace) -> int:
    """`studio stats`: print the figures; the exit code (see the module doc)."""
    from studio.services.authoring.set_stats import format_stats, set_stats
    from studio.services.core.store import scan_library

    checks = _checks(args.checks)
    scan = scan_library(args.library)
    for err in scan.errors:
        print(f"skipped: {err}", file=sys.stderr)
    if not scan.tasks:
        raise StudioError(f"{args.library}: holds no task folder (with task.json)")
    stats = set_stats(scan.tasks, checks)
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        sys.stdout.write(format_stats(stats))
    return EXIT_OK
