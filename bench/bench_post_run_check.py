"""The post-run check before and after its quick form, alternating on the same pages (issue 39).

Evaluates the first TASKS tasks of a library (their golden projects, on the virtual clock)
ROUNDS times over, each round once with the check as before (`page_reuse.QUICK_CHECK = False`:
the page's own check, the listeners and the storage wipe asked in turn) and once with the quick
form (the page's own check made at the end of the run, the listener queries and the wipe sent
together), the order alternating from round to round so that load drift falls on both. Prints
per form the evaluations, the check's median and mean (`timings.check_s`), the total's median,
the pages closed and why, the load averages, and the ratio of the medians.

Usage:
  .venv/bin/python bench/bench_post_run_check.py [LIBRARY] [--tasks N] [--rounds R] [--workers W]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_pages import load  # noqa: E402
from studio.models.evaluation import Clock  # noqa: E402
from studio.services.core.store import scan_library  # noqa: E402
from studio.services.runtime import evaluator, page_reuse  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402


async def run(library: Path, tasks: int, rounds: int, workers: int) -> None:
    entries = list(scan_library(library).tasks)[:tasks]
    found: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    before = load()
    async with BrowserPool(spares=workers) as pool:
        ev = evaluator.Evaluator(pool)
        gate = asyncio.Semaphore(workers)

        async def one(entry):  # type: ignore[no-untyped-def]
            async with gate:
                return await ev.evaluate(entry, clock=Clock.VIRTUAL)

        await one(entries[0])  # the first page's load counts for neither form
        for n in range(rounds):
            for quick in (n % 2 == 0, n % 2 == 1):
                page_reuse.QUICK_CHECK = quick
                results = await asyncio.gather(*(one(e) for e in entries))
                found[quick] += [(r.timings.check_s, r.timings.total_s) for r in results]
        discards = dict(pool.discards)
    print(f"{len(entries)} tasks of {library}, {rounds} rounds, {workers} at once")
    medians = {}
    for quick in (False, True):
        rows = found[quick]
        checks = [c for c, _ in rows]
        medians[quick] = statistics.median(checks)
        print(
            f"{'quick ' if quick else 'before'} {len(rows)} evaluations: check median "
            f"{medians[quick]:.3f} s, mean {statistics.mean(checks):.3f} s; total median "
            f"{statistics.median(t for _, t in rows):.3f} s"
        )
    print(f"pages closed: {discards or 'none'}; load average {before} -> {load()}")
    print(f"check median, quick / before: {medians[True] / medians[False]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", type=Path, default=ROOT / "tasks")
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.library, args.tasks, args.rounds, args.workers))


if __name__ == "__main__":
    main()
