"""`studio eval TASK_DIR`: run a task's evaluation script on a project (default: the golden).

Prints each test's verdict, SR/PSR and where the time went, or with --json the result (with
`sr`, `psr` and the browser's start time). `--protocol published` evaluates as the published
ScratchWorld service does (live editor page, real time), as a reference. Exit codes: 0 the
project passes; 1 it fails (or the script errs at run time); 2 unusable input (task, project
or script that cannot be loaded, an edition that is not installed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from studio.cli.ranges import seconds
from studio.models.evaluation import EvalResult
from studio.services.core.store import load_task
from studio.services.runtime import editions
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.evaluator import Evaluator


def register(sub: Any) -> None:
    """Add `eval` to the studio's sub-commands."""
    ev = sub.add_parser("eval", help="run a task's evaluation script on a project")
    ev.add_argument("task_dir", type=Path)
    ev.add_argument("--project", type=Path, help=".sb3 to evaluate (default: the golden project)")
    ev.add_argument(
        "--timeout", type=seconds(), help="time limit in seconds, above 0 (default: the task's)"
    )
    ev.add_argument("--realtime", action="store_true", help="run on the real clock")
    ev.add_argument("--seed", type=int, default=0, help="seed of the page's randomness")
    ev.add_argument(
        "--protocol",
        choices=("studio", "published"),
        default="studio",
        help="studio: our evaluation page, on the task's clock (default); published: as the "
        "published ScratchWorld service does, on a live editor page in real time (a reference)",
    )
    ev.add_argument("--json", action="store_true", help="print the result as JSON")
    editions.add_argument(ev)
    ev.set_defaults(handler=evaluate)


def evaluate(args: argparse.Namespace) -> int:
    """`studio eval`: the exit code (see the module doc)."""
    return asyncio.run(_eval(args))


async def _eval(args: argparse.Namespace) -> int:
    entry = load_task(args.task_dir)
    project = args.project or entry.golden_path or entry.initial_path
    edition = editions.choose(args.edition, [args.task_dir])
    editions.require_installed(edition, f"{args.task_dir}")
    spares = 0 if args.protocol == "published" else 1
    async with BrowserPool(spares=spares, edition=edition) as pool:
        if args.protocol == "published":
            from studio.services.formats.scratchworld.published_protocol import PublishedProtocol

            result = await PublishedProtocol(pool).evaluate(entry, project)
        else:
            from studio.app.clocks import clock_policy

            result = await clock_policy(args.realtime).evaluate(
                Evaluator(pool), entry, project, timeout_s=args.timeout, seed=args.seed
            )
        result_browser_s = pool.browser_start_s
    if args.json:
        data = result.model_dump(mode="json")
        data["sr"] = 1.0 if result.ok else 0.0
        data["psr"] = result.partial_success_rate
        data["timings"]["browser_start_s"] = round(result_browser_s, 3)
        data["edition"] = edition.value
        print(json.dumps(data, indent=2))
    else:
        _print_result(result, result_browser_s, edition.value)
    if result.error is not None:
        return (
            EXIT_BAD_INPUT
            if result.error.kind.value in {"project", "syntax", "setup"}
            else EXIT_FAILED
        )
    return EXIT_OK if result.success else EXIT_FAILED


def _print_result(result: EvalResult, browser_s: float, edition: str) -> None:
    print(f"task {result.task_id}  project {result.project}  edition {edition}")
    for d in result.details:
        mark = "PASS" if d.passed else ("TIME" if d.timeout else "FAIL")
        extra = f"  ({d.error})" if d.error and not d.passed else ""
        dur = f"{d.duration_ms:.0f} ms" if d.duration_ms is not None else ""
        print(f"  {mark}  {d.name}  {dur}{extra}")
    if result.error is not None:
        loc = f"{result.error.file or result.project}"
        loc += f":{result.error.line}" if result.error.line else ""
        print(f"  ERROR ({result.error.kind.value}) in {loc}: {result.error.message}")
    if result.clock_note:
        print(f"  clock: {result.clock_note}")
    sr = 1.0 if result.ok else 0.0
    t = result.timings
    print(
        f"SR {sr:.2f}  PSR {result.partial_success_rate:.2f}  "
        f"({result.passed_tests}/{result.total_tests} tests)"
    )
    print(
        f"time: browser start {browser_s:.2f} s, page ready {t.page_ready_s:.2f} s "
        f"(waited {t.page_wait_s:.2f} s), "
        f"project load {t.project_load_s:.2f} s, script {t.script_s:.2f} s, "
        f"total {t.total_s:.2f} s"
    )
