"""Warm evaluation pages against a fresh page per evaluation, side by side in one run (issue 28).

Checks the same tasks twice in this process, once with today's path (every evaluation on a page
of its own: BrowserPool(reuse=False)) and once with pages reused when proved clean, and prints
for each: evaluations per minute, the mean phases per evaluation (page ready, page wait,
project load, script) and the ratios the issue asks for (speed-up, time outside the script).
Targets (issue 28): >= 3x evaluations per minute; page + load per evaluation <= 1/4 of today's.
Usage: .venv/bin/python bench/bench_reuse.py [LIBRARY] [--mutants N] [--reruns N] [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.app.clocks import ClockPolicy  # noqa: E402
from studio.app.task_checks import TasksToCheck, check_and_record  # noqa: E402
from studio.services.checking.checker import CheckOptions  # noqa: E402
from studio.services.core.store import scan_library  # noqa: E402
from studio.services.runtime.browser import BrowserPool, default_spares  # noqa: E402
from studio.services.runtime.evaluator import Evaluator  # noqa: E402


async def one_pass(library: Path, reuse: bool, options: CheckOptions) -> dict[str, float]:
    scan = scan_library(library)
    entries = list(scan.tasks)
    async with BrowserPool(spares=options.workers, reuse=reuse) as pool:
        t0 = time.perf_counter()
        report = (
            await check_and_record(
                Evaluator(pool), TasksToCheck(list(entries)), options, ClockPolicy(), record=False
            )
        ).report
        wall = time.perf_counter() - t0
        s = report.summary
        verdicts = {t.id: (t.verdict.value, t.mutants_killed) for t in report.tasks}
        return {
            "wall": wall,
            "evals": s.evaluations,
            "per_min": s.evaluations / wall * 60 if wall else 0.0,
            "ready": s.phases.page_ready_s,
            "wait": s.phases.page_wait_s,
            "load": s.phases.project_load_s,
            "script": s.phases.script_s,
            "reused": pool.reused,
            "verdicts": verdicts,  # type: ignore[dict-item]
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", type=Path, default=ROOT / "tasks")
    parser.add_argument("--mutants", type=int, default=0)
    parser.add_argument("--reruns", type=int, default=1)
    parser.add_argument("--workers", type=int, default=default_spares() + 1)
    args = parser.parse_args()
    options = CheckOptions(mutants=args.mutants, reruns=args.reruns, workers=args.workers)
    rows = {}
    for reuse in (False, True):
        rows[reuse] = asyncio.run(one_pass(args.library, reuse, options))
        r = rows[reuse]
        print(
            f"{'reused pages' if reuse else 'page per eval':<14} {r['evals']:.0f} evaluations "
            f"in {r['wall']:.1f} s = {r['per_min']:.1f}/min; per evaluation: page ready "
            f"{r['ready']:.2f} s, page wait {r['wait']:.2f} s, project load {r['load']:.2f} s, "
            f"script {r['script']:.2f} s; pages reused {r['reused']:.0f}"
        )
    old, new = rows[False], rows[True]
    outside_old = old["wait"] + old["load"]
    outside_new = new["wait"] + new["load"]
    print(
        f"speed-up {new['per_min'] / old['per_min']:.2f}x evaluations per minute (target >= 3x); "
        f"page wait + load per evaluation {outside_new:.2f} s against {outside_old:.2f} s "
        f"= {outside_new / outside_old if outside_old else 0:.2f} (target <= 0.25); "
        f"script share of the new time {new['script'] / max(1e-9, outside_new + new['script']):.0%}"
    )
    same = old["verdicts"] == new["verdicts"]  # type: ignore[comparison-overlap]
    print(f"verdicts (and mutants killed) equal on both paths: {same}")
    if not same:
        for task, verdict in old["verdicts"].items():  # type: ignore[attr-defined]
            other = new["verdicts"].get(task)  # type: ignore[attr-defined]
            if other != verdict:
                print(f"  {task}: page per evaluation {verdict}, reused pages {other}")


if __name__ == "__main__":
    main()
