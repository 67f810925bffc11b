"""Evaluation speed on both editor editions, side by side in one run.

For each bundled task (or the ones named), evaluates its golden and its initial project on the
virtual clock in a pool of each edition (one browser per edition, started once, pages loaded
ahead as in `studio check`), and prints per evaluation the seconds on each edition and whether
the verdicts agree; then evaluations per minute and the first evaluation's time (page start
included) per edition. The editions take turns task by task, so a machine's load falls on both.

Usage: .venv/bin/python bench/bench_editions.py [TASK_DIR ...] [--spares N]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.models.evaluation import Clock, EvalResult  # noqa: E402
from studio.services.core import paths  # noqa: E402
from studio.services.core.store import load_task, scan_library  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.editions import Edition  # noqa: E402
from studio.services.runtime.evaluator import Evaluator  # noqa: E402
from studio.services.runtime.server import EditorServer  # noqa: E402

EDITIONS = (Edition.CURRENT, Edition.CLASSIC)


def verdict(result: EvalResult) -> str:
    if result.error is not None:
        return f"error:{result.error.kind.value}"
    return f"{result.passed_tests}/{result.total_tests}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", type=Path, nargs="*", help="task folders (default: bundled)")
    parser.add_argument("--spares", type=int, default=1, help="pages loaded ahead per edition")
    args = parser.parse_args()
    entries = [load_task(t) for t in args.tasks] or scan_library(paths.BUNDLED_TASKS).tasks
    server = EditorServer(preferred_port=None).start()
    pools = {e: BrowserPool(server, spares=args.spares, edition=e) for e in EDITIONS}
    spent = {e: 0.0 for e in EDITIONS}
    first: dict[Edition, float] = {}
    count = {e: 0 for e in EDITIONS}
    disagree = 0
    try:
        print(f"{'task':<28} {'project':<8} {'current s':>9} {'classic s':>9}  verdicts")
        for entry in entries:
            for project in (entry.golden_path, entry.initial_path):
                if project is None:
                    continue
                row: dict[Edition, tuple[float, str]] = {}
                for edition in EDITIONS:
                    pool = pools[edition]
                    t0 = time.perf_counter()
                    if edition not in first:
                        await pool.start()
                    result = await Evaluator(pool).evaluate(entry, project, clock=Clock.VIRTUAL)
                    took = time.perf_counter() - t0
                    first.setdefault(edition, took)
                    spent[edition] += took
                    count[edition] += 1
                    row[edition] = (took, verdict(result))
                    if result.error is not None:
                        print(f"  {edition.value}: {result.summary_line()}")
                same = row[Edition.CURRENT][1] == row[Edition.CLASSIC][1]
                disagree += not same
                print(
                    f"{entry.task.id:<28} {project.stem:<8} {row[Edition.CURRENT][0]:9.2f} "
                    f"{row[Edition.CLASSIC][0]:9.2f}  {row[Edition.CURRENT][1]} / "
                    f"{row[Edition.CLASSIC][1]}{'' if same else '  DIFFER'}"
                )
    finally:
        for pool in pools.values():
            await pool.close()
        server.stop()
    for edition in EDITIONS:
        rate = 60 * count[edition] / spent[edition] if spent[edition] else 0.0
        print(
            f"{edition.value:<8} {count[edition]} evaluations, {rate:.1f}/min, "
            f"first (browser and page start included) {first.get(edition, 0.0):.2f} s"
        )
    print(f"verdicts that differ between editions: {disagree}")


if __name__ == "__main__":
    asyncio.run(main())
