"""Proposed scripts on a task library, each task's own script removed (issue 17).

For each task: copy it to a scratch folder with an empty evaluate.js, run `propose` (timed),
put the proposed script in place as evaluate.js and check the task with the studio's checker
(golden and initial on 3 seeded reruns, mutants of the golden). Per task it prints: valid
(golden passes every rerun, a debug task's initial fails), the share of mutants killed (of
those that ran, less those the task marks equivalent: the first N, the mutants `studio check
--mutants N` makes, which the selection saw), seconds per proposal. The summary says
how many tasks reach 90 %. With --check-mutants M above the proposal's --mutants N, the
mutants N+1..M were never seen by the selection: their kill rate is printed as held out.
With --published N the library is our published-style set instead (tests/helpers/published_set:
the ScratchWorld layout, long sampling windows, the set's own helper library), built and
imported with `studio import scratchworld`'s code: its first N tasks with a golden program in
each category, in the set's order.
Usage: .venv/bin/python bench/bench_propose.py [LIBRARY] [--mutants N] [--check-mutants M]
       [--only ID,ID] [--published N]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from pathlib import Path

from studio.app.clocks import ClockPolicy
from studio.app.task_checks import check_task_and_record
from studio.models.errors import StudioError
from studio.models.task import Category
from studio.services.checking.checker import CheckOptions
from studio.services.core.store import load_task, scan_library
from studio.services.formats.scratchworld.tasks.importer import import_scratchworld
from studio.services.propose.pipeline import ProposeOptions, propose
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.evaluator import Evaluator

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.9


async def bench_task(evaluator: Evaluator, source: Path, args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-propose-") as tmp:
        folder = Path(tmp) / source.name
        shutil.copytree(source, folder)
        entry = load_task(folder)
        entry.script_path.write_text("", encoding="utf-8")
        t0 = time.perf_counter()
        try:
            report = await propose(evaluator, entry, ProposeOptions(mutants=args.mutants))
        except StudioError as exc:
            return {"id": entry.task.id, "error": str(exc), "seconds": time.perf_counter() - t0}
        seconds = time.perf_counter() - t0
        entry.script_path.write_text(report.script, encoding="utf-8")
        options = CheckOptions(mutants=args.check_mutants, reruns=3)
        check = (await check_task_and_record(evaluator, entry, options, ClockPolicy())).check
    equivalent = {m.mutant_id for m in entry.task.equivalent_mutants}
    ran = [m for m in check.mutants if m.status != "invalid" and m.id not in equivalent]
    seen = [m for m in check.mutants[: args.mutants] if m in ran]  # `studio check`'s mutants
    held = [m for m in check.mutants[args.mutants :] if m in ran]
    debug = entry.task.category is Category.DEBUG
    return {
        "id": entry.task.id,
        "valid": bool(check.golden_passed) and (not debug or bool(check.initial_failed)),
        "initial_failed": bool(check.initial_failed),
        "verdict": check.verdict.value,  # what `studio check` says of the proposed script
        "tests": len(report.kept),
        "killed": sum(m.status == "killed" for m in seen),
        "ran": len(seen),
        "held_killed": sum(m.status == "killed" for m in held),
        "held": len(held),
        "seconds": seconds,
        "errors": check.errors,
    }


def published_library(per_category: int, scratch: Path) -> Path:
    """The first `per_category` tasks with a golden of each category of our published-style
    set, written in the published layout and imported into a library under `scratch`."""
    import sys

    sys.path.insert(0, str(ROOT))
    from tests.helpers.published_set import all_specs, build_published_set

    chosen: dict[str, list[str]] = {}
    for spec in all_specs():
        picked = chosen.setdefault(spec.category, [])
        if spec.golden and len(picked) < per_category:
            picked.append(spec.id)
    ids = [i for picked in chosen.values() for i in picked]
    published = build_published_set(scratch / "checkout", ids)
    import_scratchworld(published.root, scratch / "library")
    return scratch / "library"


def _rate(killed: int, ran: int) -> float:
    return killed / ran if ran else 1.0


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("library", nargs="?", type=Path, default=ROOT / "tasks")
    parser.add_argument("--mutants", type=int, default=10)
    parser.add_argument("--check-mutants", type=int, default=10)
    parser.add_argument("--only", default="")
    parser.add_argument("--published", type=int, default=0, metavar="N")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-propose-set-"))
    if args.published:
        args.library = published_library(args.published, scratch)
    tasks = scan_library(args.library).tasks
    if args.only:
        tasks = [t for t in tasks if t.task.id in args.only.split(",")]
    rows = []
    async with BrowserPool(spares=2) as pool:
        evaluator = Evaluator(pool)
        for entry in tasks:
            row = await bench_task(evaluator, entry.folder, args)
            rows.append(row)
            if "error" in row:
                print(f"{row['id']:<32} NO SCRIPT ({row['seconds']:.0f} s): {row['error']}")
                continue
            held = f", held out {row['held_killed']}/{row['held']}" if row["held"] else ""
            print(
                f"{row['id']:<32} {'valid' if row['valid'] else 'INVALID':<8} "
                f"{row['tests']:>2} tests  killed {row['killed']}/{row['ran']} "
                f"({_rate(row['killed'], row['ran']):.0%}{held})  {row['seconds']:.0f} s  "
                f"check: {row['verdict']}"
                + ("" if row["initial_failed"] else ", the initial program passes")
                + (f"  {'; '.join(row['errors'])}" if row["errors"] else ""),
                flush=True,
            )
    good = [
        r for r in rows if "error" not in r and r["valid"] and _rate(r["killed"], r["ran"]) >= GOAL
    ]
    scripts = [r for r in rows if "error" not in r]
    mean_s = sum(r["seconds"] for r in rows) / max(1, len(rows))
    max_s = max((r["seconds"] for r in rows), default=0)
    held = [r for r in scripts if r["held"]]
    held_good = [r for r in held if r["valid"] and _rate(r["held_killed"], r["held"]) >= GOAL]
    held_note = f"; on the held-out mutants alone {len(held_good)}/{len(held)}" if held else ""
    print(
        f"{len(good)}/{len(rows)} tasks valid with >= {GOAL:.0%} of mutants killed{held_note}; "
        f"{sum(r['valid'] for r in scripts)}/{len(rows)} valid; "
        f"{sum(r['verdict'] == 'valid' for r in scripts)}/{len(rows)} valid by `studio check`, "
        f"{sum(r['initial_failed'] for r in scripts)}/{len(rows)} failed by the initial program; "
        f"mean {mean_s:.0f} s per proposal (max {max_s:.0f} s)"
    )
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
