"""`studio forge PATHS... --out LIBRARY`: validated debug tasks forged from golden tasks.

Each PATH is a task folder or a library; every task with a golden project is a golden. From
each, the forge tries up to --tries candidate bugs (the mutation operators of ScratchEval's
patterns), keeps up to --per-golden of those that its own script (or, where that misses them,
tests derived from behaviour) catches under the R/θ rule over --reruns seeded runs, and
writes each as a debug task (review state draft) with its bug.json into LIBRARY. A golden that
fails its own tests, has nothing to mutate or whose script cannot run is named on stderr and
the others go on. A rerun keeps what an earlier (even interrupted) forge wrote and does not
forge it again. --json prints per golden: tried, kept, kept_before, rejected (by reason),
error, and the bug record of each kept task. Exit codes: 0 every golden forged (or was skipped
with its reason printed) and at least one task is in LIBRARY; 1 no task was kept at all;
2 unusable input; 130 interrupted (the tasks written so far are whole). With --ray ADDRESS
the evaluations run on a Ray cluster's workers, as `studio check --ray` runs them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_FAILED, EXIT_OK
from studio.services.runtime import editions

COMMAND = "forge"
MECHANISM_NAMES = (
    "missing_initialization",
    "desynchronization",
    "untriggered_event",
    "non_terminating_loop",
    "incorrect_conditional_logic",
    "sprite_state_mismatch",
    "clone_management",
    "event_handler_conflict",
)


def register(subparsers: Any) -> None:
    """Add `forge` to the studio's subcommands."""
    p = subparsers.add_parser(COMMAND, help="forge validated debug tasks from golden tasks")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--out", type=Path, required=True, metavar="LIBRARY")
    p.add_argument("--per-golden", type=int, default=3, help="bugs kept per golden (N)")
    p.add_argument("--reruns", type=int, default=5, help="seeded runs per program (R)")
    p.add_argument("--tries", type=int, default=20, help="candidate bugs per golden (K)")
    p.add_argument("--theta-pass", type=float, default=0.9, help="golden pass rate needed")
    p.add_argument("--theta-fail", type=float, default=0.1, help="bugged pass rate allowed")
    p.add_argument("--seed", type=int, default=0, help="base seed (rerun i uses seed + i)")
    p.add_argument("--workers", type=int, default=2, help="evaluations in parallel")
    p.add_argument(
        "--mechanism", action="append", choices=MECHANISM_NAMES, help="only these (repeatable)"
    )
    p.add_argument("--no-derive", action="store_true", help="only the golden's own script")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="evaluate on a Ray cluster as `check --ray` does: `local` starts one here, else "
        "HOST:PORT of a running cluster (--workers is then per node)",
    )
    editions.add_argument(p)
    p.set_defaults(handler=forge)


def forge(args: argparse.Namespace) -> int:
    """`studio forge`: the exit code (see the module doc)."""
    return asyncio.run(_forge(args))


async def _forge(args: argparse.Namespace) -> int:
    from studio.app import forging, runners
    from studio.services.forge.pipeline import ForgeOptions

    goldens, errors = forging.goldens_in(args.paths)
    for error in errors:
        print(f"skipped: {error}", file=sys.stderr)
    edition = editions.choose(args.edition, args.paths)
    if not args.ray:
        editions.require_installed(edition, str(args.paths[0]))
    options = ForgeOptions(
        per_golden=max(0, args.per_golden),
        reruns=max(1, args.reruns),
        seed=args.seed,
        tries=max(0, args.tries),
        theta_pass=args.theta_pass,
        theta_fail=args.theta_fail,
        workers=max(1, args.workers),
        mechanisms=args.mechanism or list(MECHANISM_NAMES),
        derive=not args.no_derive,
    )

    def progress(_index: int, _total: int, golden: str, what: str) -> None:
        if not args.json:
            print(f"{golden}: {what}", file=sys.stderr)

    async with runners.evaluator(args.ray, options.workers, edition) as evaluator:
        outcomes = await forging.forge_all(
            evaluator, goldens, args.out, options, forging.ForgeEvents(progress=progress)
        )
    for o in outcomes:
        if o.error:
            print(f"{o.golden}: {o.error}", file=sys.stderr)
    kept = sum(o.kept + o.kept_before for o in outcomes)
    if args.json:
        print(json.dumps([o.model_dump() for o in outcomes], indent=2))
    else:
        for o in outcomes:
            rejected = ", ".join(f"{n} {r}" for r, n in sorted(o.rejected.items()))
            print(
                f"{o.golden}: tried {o.tried}, kept {o.kept} (+{o.kept_before} before)"
                + (f", rejected: {rejected}" if rejected else "")
                + (f"; {o.error}" if o.error else "")
            )
            for tid, rec in o.records.items():
                print(f"  {tid}: {rec.mechanism} ({rec.operator}, {rec.tests_from} tests)")
        print(f"{kept} forged tasks in {args.out}")
    return EXIT_OK if kept else EXIT_FAILED
