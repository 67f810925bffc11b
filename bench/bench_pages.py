"""Today's evaluation path against the new one, side by side in one run, with verdicts (issue 28).

Checks the same tasks twice in this process: once as before (every evaluation on a page of its
own, `BrowserPool(reuse=False)`), once with warm pages reused when proved clean and assets
decoded once per content (resources/js/asset-cache.js). Each pass starts from a fresh browser
cache (XDG_CACHE_HOME in a new folder): a first check, as a new user runs it. Prints per pass:
evaluations, wall time, evaluations per minute, mean phases per evaluation (page ready, page
wait, project load, script), the load averages; then the ratios issue 28 asks for:
  - evaluations per minute, new over old (target >= 3x);
  - time outside the script per evaluation (page wait + project load), new over old
    (target <= 1/4);
  - with --real-time N: the same evaluations one after another in real time as the published
    protocol runs them (studio.services.formats.scratchworld.published_protocol, as
    bench/bench_published.py),
    measured on N tasks spread over the set and scaled to every evaluation of the new pass,
    over the new pass's wall time (target >= 30x);
  - what limits the new path: the share of each phase, and the wall time over the scripts' own
    run time (the sum of the evaluations' script time divided by the evaluations run at once);
and whether every per-test verdict (golden and initial: error kind, success, each test) and
every mutant's verdicts over the reruns are equal on both paths; each mismatch is printed.

Usage:
  .venv/bin/python bench/bench_pages.py [LIBRARY] [--published] [--mutants N] [--reruns N]
      [--every K] [--first N] [--realtime] [--real-time N] [--workers W]
  LIBRARY       a task library (default: the bundled tasks/)
  --published   build the 83-task published-style set (tests/helpers/published_set) and import
                it with `studio import scratchworld`; that library is checked
  --every K     only every K-th task (a documented subset, the same for both passes)
  --first N     only the first N tasks (after --every)
  --realtime    force the real clock in both passes (verdicts on the other clock)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.app.clocks import ClockPolicy  # noqa: E402
from studio.app.task_checks import TasksToCheck, check_and_record  # noqa: E402
from studio.models.check import CheckReport  # noqa: E402
from studio.services.checking.checker import CheckOptions  # noqa: E402
from studio.services.core.store import TaskFolder, scan_library  # noqa: E402
from studio.services.formats.scratchworld.published_protocol import PublishedProtocol  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.clock_agreement import verdicts  # noqa: E402
from studio.services.runtime.evaluator import Evaluator  # noqa: E402
from studio.services.runtime.pool_size import default_workers, machine_cores  # noqa: E402


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def published_library(work: Path) -> Path:
    from tests.helpers.published_set import build_published_set

    checkout = work / "set"
    build_published_set(checkout)
    lib = work / "lib"
    subprocess.run(
        [sys.executable, "-m", "studio", "import", "scratchworld", str(checkout), str(lib)],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return lib


def task_verdicts(report: CheckReport) -> dict[str, Any]:
    """Per-test verdicts of golden and initial, and each mutant's verdicts over the reruns."""
    found: dict[str, Any] = {}
    for task in report.tasks:
        found[f"{task.id} verdict"] = (task.verdict.value, task.errors)
        for label in ("golden", "initial"):
            result = getattr(task, label)
            if result is not None:
                found[f"{task.id}/{label}"] = verdicts(result)
        for mutant in task.mutants:
            found[f"{task.id}/mutant {mutant.id}"] = (mutant.status, tuple(mutant.passes))
        found[f"{task.id} flaky"] = sorted(str(f) for f in task.flaky)
    return found


async def one_pass(
    entries: list[TaskFolder], reuse: bool, options: CheckOptions, cache: Path
) -> dict[str, Any]:
    os.environ["XDG_CACHE_HOME"] = str(cache)  # a first check: a fresh browser cache
    before = load()
    async with BrowserPool(spares=options.workers, reuse=reuse) as pool:
        t0 = time.perf_counter()
        report = (
            await check_and_record(
                Evaluator(pool), TasksToCheck(list(entries)), options, ClockPolicy(), record=False
            )
        ).report
        wall = time.perf_counter() - t0
        reused, discards = pool.reused, dict(pool.discards)
    s = report.summary
    return {
        "wall": wall,
        "evals": s.evaluations,
        "per_min": s.evaluations / wall * 60 if wall else 0.0,
        "phases": s.phases,
        "reused": reused,
        "discards": discards,
        "verdicts": task_verdicts(report),
        "load": f"{before} -> {load()}",
    }


async def real_time(entries: list[TaskFolder]) -> tuple[float, int]:
    """Golden and initial of each task, one after another, as the published service runs them."""
    t0 = time.perf_counter()
    count = 0
    async with BrowserPool(spares=0) as pool:
        protocol = PublishedProtocol(pool)
        for entry in entries:
            for path in (entry.golden_path, entry.initial_path):
                if path is not None:
                    await protocol.evaluate(entry, path)
                    count += 1
    return time.perf_counter() - t0, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", type=Path, default=ROOT / "tasks")
    parser.add_argument("--published", action="store_true")
    parser.add_argument("--mutants", type=int, default=0)
    parser.add_argument("--reruns", type=int, default=1)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--first", type=int)
    parser.add_argument("--realtime", action="store_true")
    parser.add_argument("--real-time", type=int, default=0, metavar="N")
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    library = published_library(work) if args.published else args.library
    entries = list(scan_library(library).tasks)
    total = len(entries)
    entries = entries[:: max(1, args.every)][: args.first]
    options = CheckOptions(
        mutants=args.mutants, reruns=args.reruns, workers=args.workers, realtime=args.realtime
    )
    print(
        f"{len(entries)} of {total} tasks of {library} (every {args.every}"
        f"{f', first {args.first}' if args.first else ''}); mutants {args.mutants}, reruns "
        f"{args.reruns}, workers {args.workers}, cores {machine_cores()}, "
        f"{'real clock forced' if args.realtime else 'each task on its clock'}"
    )
    rows = {}
    for reuse in (False, True):
        rows[reuse] = asyncio.run(one_pass(entries, reuse, options, work / f"cache-{reuse}"))
        r, p = rows[reuse], rows[reuse]["phases"]
        print(
            f"{'new (reused)' if reuse else 'old (page per eval)':<20} {r['evals']} evaluations "
            f"in {r['wall']:.1f} s = {r['per_min']:.1f}/min; per evaluation: page ready "
            f"{p.page_ready_s:.2f} s, page wait {p.page_wait_s:.2f} s, project load "
            f"{p.project_load_s:.2f} s, script {p.script_s:.2f} s, total {p.total_s:.2f} s; "
            f"pages reused {r['reused']}; load average {r['load']}"
        )
        if reuse and r["discards"]:
            print(f"  pages closed after use: {r['discards']}")
    old, new = rows[False], rows[True]
    po, pn = old["phases"], new["phases"]
    outside_old = po.page_wait_s + po.project_load_s
    outside_new = pn.page_wait_s + pn.project_load_s
    print(
        f"evaluations per minute: {new['per_min'] / old['per_min']:.2f}x (target >= 3x); "
        f"wall {old['wall']:.1f} s -> {new['wall']:.1f} s"
    )
    print(
        f"page wait + project load per evaluation: {outside_old:.3f} s -> {outside_new:.3f} s "
        f"= {outside_new / outside_old if outside_old else 0:.3f} (target <= 0.25)"
    )
    rest = max(0.0, pn.total_s - pn.page_wait_s - pn.project_load_s - pn.script_s)
    scripts = pn.script_s * new["evals"] / max(1, min(args.workers, machine_cores()))
    print(
        f"new path, per evaluation: page wait {pn.page_wait_s:.3f} s, project load "
        f"{pn.project_load_s:.3f} s, script {pn.script_s:.3f} s, the rest (page check and "
        f"release, driver) {rest:.3f} s; wall over the scripts' own run time "
        f"({scripts:.1f} s on {min(args.workers, machine_cores())} cores): "
        f"{new['wall'] / scripts if scripts else 0:.1f}x"
    )
    if args.real_time:
        step = len(entries) / min(args.real_time, len(entries))
        sample = [entries[int(i * step)] for i in range(min(args.real_time, len(entries)))]
        real_s, count = asyncio.run(real_time(sample))
        scaled = real_s / max(1, count) * new["evals"]
        print(
            f"real time, one after another (published protocol): {count} evaluations of "
            f"{len(sample)} tasks in {real_s:.0f} s, {real_s / max(1, count):.1f} s each -> "
            f"{scaled:.0f} s for the {new['evals']} evaluations; new path "
            f"{scaled / new['wall']:.1f}x faster (target >= 30x), old {scaled / old['wall']:.1f}x"
        )
    a, b = old["verdicts"], new["verdicts"]
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    same = len(a) - len(differ)
    print(f"verdicts equal on both paths: {same}/{len(a)} (mismatches {len(differ)})")
    for key in differ:
        print(f"  MISMATCH {key}: old {a.get(key)} new {b.get(key)}")


if __name__ == "__main__":
    main()
