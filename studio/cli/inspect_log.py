"""`studio export inspect RUNS OUT`: a campaign's episodes as Inspect AI eval logs.

Exit codes: 0 written; 2 unusable input, or the optional `inspect_ai` package is missing.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from studio.app.formats import EXPORT_FORMATS
from studio.cli.common import EXIT_OK

FORMAT = "inspect"


def register_export(formats: Any) -> None:
    """Add `inspect` to the formats of `studio export`."""
    ins = formats.add_parser(
        FORMAT,
        help=EXPORT_FORMATS.help(FORMAT),
        description="Write the episodes below RUNS (studio runs, ScratchWorld task runner "
        "folders) as Inspect AI eval logs, one per agent and mode, through inspect_ai's own log "
        "API: `inspect view` opens them. OUT: a .eval file (one agent and mode) or a folder.",
    )
    ins.add_argument("src", type=Path, metavar="RUNS", help="folder of recorded runs")
    ins.add_argument("dest", type=Path, metavar="OUT", help="OUT.eval, or a folder for several")
    ins.set_defaults(handler=export_logs)


def export_logs(args: argparse.Namespace) -> int:
    """`studio export inspect`: write the logs, a line each; the exit code (module doc)."""
    from studio.services.runs.inspect_log import export_inspect

    done = export_inspect(args.src, args.dest)
    for path, agent, mode, samples in done.logs:
        print(f"{path}: {agent}, {mode} mode, {samples} samples")
    return EXIT_OK
