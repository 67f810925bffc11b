"""`studio propose TASK_DIR`: propose an evaluation script from the behaviour of the programs.

Writes the kept tests as an evaluation script (default `evaluate.proposed.js` in the task
folder; the task's own script only with --replace) and prints the tests in plain words with
the mutants each kills, or with --json: tests, golden_passed, initial_failed, mutants_total,
mutants_killed, survivors, killed_nothing, edition. The programs run on the editor edition
the task's library records (`--edition` overrides), as `studio eval` does. Exit codes: 0 a
script was written; 1 a script was written, but no test in it fails the initial program (an
agent doing nothing would pass it: said plainly, first); 2 no script (a task that cannot be
read, a golden that does not run, no observable difference, a program that reads the time of
day, an edition that is not installed, ...) with one line on stderr that says why.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_FAILED, EXIT_OK, ProgressBar
from studio.cli.ranges import integer
from studio.services.runtime import editions

COMMAND = "propose"


def register(subparsers: Any) -> None:
    """Add `propose` to the studio's subcommands."""
    pr = subparsers.add_parser(
        COMMAND,
        help="propose an evaluation script by watching the golden and initial programs run",
    )
    pr.add_argument("task_dir", type=Path, metavar="TASK_DIR")
    pr.add_argument("--out", type=Path, help="where to write (default: evaluate.proposed.js)")
    pr.add_argument(
        "--mutants", type=integer(0), default=10, help="mutants that choose the tests (0 or more)"
    )
    pr.add_argument("--seed", type=int, default=0, help="base seed (rerun i uses seed + i)")
    pr.add_argument(
        "--workers", type=integer(1), default=2, help="evaluations in parallel (1 or more)"
    )
    pr.add_argument("--json", action="store_true", help="print the outcome as JSON")
    editions.add_argument(pr)
    pr.add_argument(
        "--replace", action="store_true", help="allow --out to be the task's own script"
    )
    pr.add_argument(
        "--llm",
        action="store_true",
        help="let a model rename the kept tests (STUDIO_LLM_URL, STUDIO_LLM_MODEL, "
        "STUDIO_LLM_KEY; the checks stay the same)",
    )
    pr.set_defaults(handler=propose_script)


def propose_script(args: argparse.Namespace) -> int:
    """`studio propose`: the exit code (see the module doc)."""
    return asyncio.run(_propose(args))


async def _propose(args: argparse.Namespace) -> int:
    from studio.services.core.store import load_task
    from studio.services.propose.model import ProposalError
    from studio.services.propose.pipeline import (
        ProposeOptions,
        output_path,
        propose,
        read_projects,
        write_script,
    )
    from studio.services.runtime.browser import BrowserPool
    from studio.services.runtime.evaluator import Evaluator

    entry = load_task(args.task_dir)
    out = output_path(entry, args.out)
    if out.resolve() == entry.script_path.resolve() and not args.replace:
        raise ProposalError(f"{out} is the task's own evaluation script; pass --replace")
    read_projects(entry)  # what cannot be watched is refused before a browser starts
    edition = editions.choose(args.edition, [args.task_dir])
    editions.require_installed(edition, str(args.task_dir))
    options = ProposeOptions(
        mutants=max(0, args.mutants), seed=args.seed, workers=max(1, args.workers)
    )
    if args.llm:
        from studio.services.episodes.agents.llm import LlmSettings

        options.llm = LlmSettings.from_env()
    with ProgressBar(None, "run", leave=False, show=not args.json) as bar:

        def progress(done: int, total: int, what: str) -> None:
            bar.advance(done, what, "", total=total)

        async with BrowserPool(spares=options.workers, edition=edition) as pool:
            report = await propose(Evaluator(pool), entry, options, progress)
    path = write_script(entry, report.script, args.out, args.replace)
    data = report.to_json()
    data["script"] = str(path)
    data["edition"] = edition.value
    code = EXIT_OK if report.catches_initial else EXIT_FAILED  # a script doing nothing passes
    if args.json:
        print(json.dumps(data, indent=2))
        return code
    if not report.catches_initial:
        print(f"{report.task_id}: WEAK SCRIPT: {report.warnings[0]}")
    print(f"{report.task_id}: {len(report.kept)} tests kept of {len(report.candidates)} proposed")
    for p in report.kept:
        initial = ", fails the initial program" if p.fails_initial else ""
        print(f"  - {p.words}  (kills {len(p.kills)}{initial})")
    s = report.selection
    initial = "fails" if report.catches_initial else "PASSES (weak: see above)"
    print(
        f"mutants killed {s.mutants_killed}/{s.mutants_total}; golden passes on every rerun; "
        f"the initial program {initial}"
    )
    for m in s.survivors:
        print(f"  survivor: {m}")
    for words in s.killed_nothing:
        print(f"  killed no mutant: {words}")
    for warning in report.warnings[0 if report.catches_initial else 1 :]:
        print(f"  warning: {warning}")
    print(f"written to {path} in {report.seconds:.1f} s (on the {edition.value} editor edition)")
    return code
