"""The script phase before and after its cuts, side by side in one run, with verdicts (issue 39).

Checks the same tasks twice in this process on the virtual clock, each pass on a fresh pool from
a fresh browser cache (a first check): "before" without the cuts named by `--cut`, "after" with
them. The cuts (`--cut`, default `check`):
  fast-forward  passes of the VM's sequencer that would find every thread still waiting on time
                are skipped (resources/js/virtual-clock.js; `evaluator.FAST_FORWARD`)
  check         the quick post-run check: the page's own check made at the end of the run, the
                listener queries and the storage wipe sent together (`page_reuse.QUICK_CHECK`)
A cut not named is on in both passes. Prints per pass the evaluations,
wall time, evaluations per minute and the script phase per evaluation in its parts (VM steps,
passes and those skipped, step time, stage draws, the helper library's timers, page turns,
the page's release and the post-run check; `studio check --profile` prints the same), the load
averages, the ratios, and whether every verdict (per test of golden and initial; each mutant's
over its reruns) is equal on both passes; each mismatch is printed.

Usage:
  .venv/bin/python bench/bench_script_phase.py [LIBRARY] [--like] [--published]
      [--mutants N] [--reruns N] [--every K] [--workers W] [--cut NAME ...] [--after-first]
  LIBRARY      a task library (default: the bundled tasks/)
  --like       the published-like set of bench/published_like.py (short real-time scripts:
               clones, touching, a colour test, asks, timed waits, the mouse)
  --published  the 83-task published-style set (tests/helpers/published_set)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_pages import load, published_library, task_verdicts  # noqa: E402
from bench.published_like import like_library  # noqa: E402
from studio.app.clocks import ClockPolicy  # noqa: E402
from studio.app.task_checks import TasksToCheck, check_and_record  # noqa: E402
from studio.models.check import PhaseTimes  # noqa: E402
from studio.services.checking.checker import CheckOptions  # noqa: E402
from studio.services.core.store import TaskFolder, scan_library  # noqa: E402
from studio.services.runtime import evaluator, page_reuse  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.pool_size import default_workers  # noqa: E402

CUTS = ("fast-forward", "check")


def set_cuts(off: set[str]) -> None:
    """Every cut on but those in `off`."""
    evaluator.FAST_FORWARD = "fast-forward" not in off
    page_reuse.QUICK_CHECK = "check" not in off


async def one_pass(
    entries: list[TaskFolder], off: set[str], options: CheckOptions, cache: Path
) -> dict[str, Any]:
    os.environ["XDG_CACHE_HOME"] = str(cache)  # a first check: a fresh browser cache
    set_cuts(off)
    before = load()
    async with BrowserPool(spares=options.workers) as pool:
        t0 = time.perf_counter()
        report = (
            await check_and_record(
                evaluator.Evaluator(pool),
                TasksToCheck(list(entries)),
                options,
                ClockPolicy(),
                record=False,
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
        "verdicts": task_verdicts(report),
        "load": f"{before} -> {load()}",
        "pages": f"{reused} evaluations on a reused page; pages closed: {discards or 'none'}",
    }


def parts(p: PhaseTimes) -> str:
    return (
        f"script {p.script_s:.3f} s = VM steps {p.vm_steps:.0f} ({p.vm_passes:.0f} passes, "
        f"{p.vm_skipped:.0f} fast-forwarded) {p.vm_step_s:.3f} s, draws {p.draws:.1f} "
        f"{p.draw_s:.3f} s, helper/script timers {p.timers:.0f} {p.timer_s:.3f} s, page turns "
        f"{p.turns:.0f} {p.turn_s:.3f} s, idle {p.idle_s:.3f} s; then release {p.release_s:.3f}"
        f" s, post-run check {p.check_s:.3f} s; total {p.total_s:.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", type=Path, default=ROOT / "tasks")
    parser.add_argument("--like", action="store_true")
    parser.add_argument("--published", action="store_true")
    parser.add_argument("--mutants", type=int, default=0)
    parser.add_argument("--reruns", type=int, default=1)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--cut", nargs="+", choices=CUTS, default=["check"])
    parser.add_argument("--after-first", action="store_true", help="run the 'after' pass first")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-script-"))
    if args.like:
        library = like_library(work)
    elif args.published:
        library = published_library(work)
    else:
        library = args.library
    entries = list(scan_library(library).tasks)[:: max(1, args.every)]
    options = CheckOptions(mutants=args.mutants, reruns=args.reruns, workers=args.workers)
    print(
        f"{len(entries)} tasks of {library}; mutants {args.mutants}, reruns {args.reruns}, "
        f"workers {args.workers}; the virtual clock; cuts compared: {', '.join(args.cut)}"
    )
    rows = {}
    for fast in (True, False) if args.after_first else (False, True):
        off = set() if fast else set(args.cut)
        rows[fast] = asyncio.run(one_pass(entries, off, options, work / f"cache-{fast}"))
        r = rows[fast]
        print(
            f"{'after' if fast else 'before':<7} {r['evals']} evaluations in "
            f"{r['wall']:.1f} s = {r['per_min']:.1f}/min; load average {r['load']}"
        )
        print(f"  per evaluation: {parts(r['phases'])}")
        print(f"  {r['pages']}")
    old, new = rows[False], rows[True]
    po, pn = old["phases"], new["phases"]
    print(
        f"evaluations per minute: {new['per_min'] / old['per_min']:.2f}x; script phase per "
        f"evaluation {po.script_s:.3f} s -> {pn.script_s:.3f} s "
        f"({pn.script_s / po.script_s if po.script_s else 0:.2f}); VM step time "
        f"{po.vm_step_s:.3f} s -> {pn.vm_step_s:.3f} s; passes {po.vm_passes:.0f} -> "
        f"{pn.vm_passes - pn.vm_skipped:.0f} run; post-run check {po.check_s:.3f} s -> "
        f"{pn.check_s:.3f} s; total per evaluation {po.total_s:.3f} s -> {pn.total_s:.3f} s"
    )
    a, b = old["verdicts"], new["verdicts"]
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    print(f"verdicts equal before and after: {len(a) - len(differ)}/{len(a)}")
    for key in differ:
        print(f"  MISMATCH {key}: before {a.get(key)} after {b.get(key)}")


if __name__ == "__main__":
    main()
