"""`studio rescore RUN_DIR [--tasks DIR]`: judge a campaign's verdicts again.

Judges every finished episode's final project again with the evaluation script its task has
now, says which scripts changed since the campaign's manifest (content hash) and which verdicts
changed, test by test; it writes `rescore.json` in RUN_DIR. Exit codes: 0 no verdict changed;
1 some verdicts changed; 2 unusable input.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_FAILED, EXIT_OK
from studio.models.errors import StudioError
from studio.services.core.store import TaskFolder


def register(subparsers: Any) -> None:
    """Add `rescore` to the studio's sub-commands."""
    rs = subparsers.add_parser(
        "rescore",
        help="judge a run's final projects again with the current evaluation scripts",
        description="Evaluate each finished episode's final.sb3 below RUN_DIR with its task's "
        "evaluation script as it is now; compare script hashes with the campaign's manifest "
        "and list the verdicts that changed, test by test. Writes RUN_DIR/rescore.json; "
        "exit code 1 when some verdict changed.",
    )
    rs.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    rs.add_argument("--tasks", type=Path, metavar="DIR", help="task library to judge with")
    rs.add_argument("--realtime", action="store_true", help="evaluate on the real clock")
    rs.add_argument("--json", action="store_true", help="print the outcome as JSON")
    rs.set_defaults(handler=rescore_run)


def rescore_run(args: argparse.Namespace) -> int:
    """`studio rescore`: the exit code (see the module doc)."""
    return asyncio.run(_rescore(args))


async def _rescore(args: argparse.Namespace) -> int:
    from studio.app.clocks import clock_policy
    from studio.services.core import atomic
    from studio.services.runs.rescore import RESCORE_FILE, rescore
    from studio.services.runtime.browser import BrowserPool
    from studio.services.runtime.evaluator import Evaluator

    if not args.run_dir.is_dir():
        raise StudioError(f"{args.run_dir}: is not a folder")
    policy = clock_policy(args.realtime)
    async with BrowserPool(spares=1) as pool:
        evaluator = Evaluator(pool)

        async def judge(task: TaskFolder, project: Path) -> Any:
            return await policy.evaluate(evaluator, task, project)

        outcome = await rescore(args.run_dir, judge, args.tasks)
    if not outcome.episodes:
        raise StudioError(f"{args.run_dir}: no finished episode (run.json with a verdict)")
    atomic.write_text(args.run_dir / RESCORE_FILE, outcome.model_dump_json(indent=2) + "\n")
    if args.json:
        print(outcome.model_dump_json(indent=2))
    else:
        for tid, hashes in outcome.scripts.items():
            if hashes["manifest"] != hashes["now"]:
                print(f"script of {tid} changed since the campaign (sha256 {hashes['now'][:12]})")
        for episode in outcome.episodes:
            print(episode.line())
        print(
            f"{len(outcome.changed)} of {len(outcome.episodes)} verdicts changed; "
            f"written to {args.run_dir / RESCORE_FILE}"
        )
    return EXIT_FAILED if outcome.changed else EXIT_OK
