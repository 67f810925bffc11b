"""`studio export submission RUNS --out FILE.jsonl`: a campaign as a ScratchWorld leaderboard
submission (studio.services.formats.scratchworld.submission says what each row holds).

Exit codes: 0 written; 2 RUNS cannot be one submission (several agents or modes, several
episodes of a task without --epoch, no runs), named.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from studio.app.formats import EXPORT_FORMATS
from studio.cli.common import EXIT_OK

FORMAT = "submission"


def register_export(formats: Any) -> None:
    """Add `submission` to the formats of `studio export`."""
    sub = formats.add_parser(
        FORMAT,
        help=EXPORT_FORMATS.help(FORMAT),
        description="Write the episodes below RUNS (one agent in one mode) as the published "
        "leaderboard's JSONL: a row per task {take, type, mode, interactions [{turn, action "
        "{api, args}}], source_interaction_log, source_task_dir}, actions as executed "
        "(element indexes grounded to pixels).",
    )
    sub.add_argument("src", type=Path, metavar="RUNS", help="a campaign folder")
    sub.add_argument("--out", type=Path, required=True, metavar="FILE", help="FILE.jsonl")
    sub.add_argument("--epoch", type=int, help="with several epochs: the one to submit")
    sub.set_defaults(handler=export_submission)


def export_submission(args: argparse.Namespace) -> int:
    """`studio export submission`: write the file, say what it holds."""
    from studio.services.formats.scratchworld.submission import write_submission

    rows = write_submission(args.src, args.out, args.epoch)
    turns = sum(len(r["interactions"]) for r in rows)
    print(f"{args.out}: {len(rows)} rows ({rows[0]['mode']} mode), {turns} interactions")
    return EXIT_OK
