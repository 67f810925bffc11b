"""Where an evaluation's CPU goes on a reused evaluation page, for one checkout's code.

Two measures (issue 39, the bundled library's check):

  page   A DevTools CPU profile of one reused evaluation page over N evaluations of the bundled
         tasks' goldens and initials (virtual clock, one at a time, after a warm-up), printed
         as milliseconds per evaluation of the page's main thread: in all, and for the parts
         named in PARTS (inclusive time of the functions of that name, or their own time).
  pool   The CPU of the whole browser (every process under this one) per call of each step of
         the pool's post-run check, on one page: the page's own check (a round trip), the
         listeners through DevTools (named per check, or named once), the storage wipe with
         "all" and with the pool's `WIPE` types.

`--checkout PATH` runs that checkout's code (its `studio` package first on the path; this
checkout's virtual environment), so two checkouts can be measured one after the other with the
same tasks (this checkout's `tasks/`). The machine's load is printed: on a shared machine the
figures are noisy, and the ratios between two runs close in time say more than either.

Usage:
  .venv/bin/python bench/bench_eval_cpu.py page [--checkout PATH] [--evaluations 40]
  .venv/bin/python bench/bench_eval_cpu.py pool [--checkout PATH] [--calls 30]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.proc_sampler import process_table  # noqa: E402

TASKS = ROOT / "tasks"
# (function name in the profile, "incl" for its inclusive time or "self" for its own)
PARTS = [
    ("createVM", "incl"),
    ("getContext", "self"),
    ("getExtension", "self"),
    ("A.sanitizeSvgText", "incl"),
    ("fresh", "incl"),
    ("loadProject", "incl"),
    ("drive", "incl"),
    ("check", "incl"),
    ("walk", "incl"),
    ("hostState", "incl"),
    ("release", "incl"),
    ("loseContext", "self"),
    ("AudioContext", "self"),
    ("(garbage collector)", "self"),
]


def tree_cpu() -> float:
    """User + sys CPU seconds of every process under this one (the browser's)."""
    hz = os.sysconf("SC_CLK_TCK")
    children, stats = process_table()
    total, todo = 0.0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        fields = stats[pid]
        total += (int(fields[11]) + int(fields[12])) / hz
        todo += children.get(pid, [])
    return total


def profile_parts(profile: dict[str, Any], evaluations: int) -> dict[str, float]:
    """Milliseconds per evaluation: the main thread busy, and each of PARTS."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    spent: collections.Counter[int] = collections.Counter()
    for sample, delta in zip(profile["samples"][:-1], profile["timeDeltas"][1:], strict=True):
        spent[sample] += delta
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    for node, us in spent.items():
        own[nodes[node]["callFrame"]["functionName"]] += us
        seen: set[str] = set()
        at: int | None = node
        while at is not None:
            name = nodes[at]["callFrame"]["functionName"]
            if name not in seen:
                inclusive[name] += us
                seen.add(name)
            at = parent.get(at)
    found = {"busy": (sum(spent.values()) - own["(idle)"]) / 1000 / evaluations}
    for name, kind in PARTS:
        found[name] = (inclusive if kind == "incl" else own)[name] / 1000 / evaluations
    return found


async def page(evaluations: int) -> None:
    from studio.models.evaluation import Clock
    from studio.services.core.store import load_task
    from studio.services.runtime.browser import BrowserPool
    from studio.services.runtime.evaluator import Evaluator

    pool = BrowserPool(spares=1)
    await pool.start()
    try:
        evaluator = Evaluator(pool)
        tasks = [load_task(p) for p in sorted(TASKS.iterdir()) if (p / "task.json").exists()]

        async def one(i: int) -> None:
            task = tasks[i % len(tasks)]
            project = task.golden_path if i % 2 == 0 else task.initial_path
            await evaluator.evaluate(task, project, clock=Clock.VIRTUAL, seed=i)

        for i in range(6):  # warm-up: the page's first evaluations
            await one(i)
        sessions = list(pool._cdp.values())  # the pool's DevTools session of each page
        for cdp in sessions:
            await cdp.send("Profiler.enable")
            await cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            await cdp.send("Profiler.start")
        t0 = time.perf_counter()
        for i in range(evaluations):
            await one(i)
        wall = time.perf_counter() - t0
        profiles = [(await cdp.send("Profiler.stop"))["profile"] for cdp in sessions]
    finally:
        await pool.close()
    print(f"{evaluations} evaluations in {wall:.1f} s on {len(profiles)} page(s); ms each:")
    parts = profile_parts(profiles[0], evaluations)
    for name, ms in parts.items():
        print(f"  {name:22s} {ms:7.1f}")


async def pool_steps(calls: int) -> None:
    from studio.services.runtime import page_reuse, page_scripts
    from studio.services.runtime.browser import BrowserPool

    pool = BrowserPool(spares=1)
    await pool.start()
    try:
        ready = await pool.acquire_eval_page()
        page, cdp = ready.page, pool._cdp[ready.page]
        origin = pool.slot_origin(ready.slot)
        named = await page_reuse.targets(cdp)
        steps = {
            "round trip (nothing)": lambda: page.evaluate("1"),
            "the page's own check": lambda: page_scripts.runner(page, "check"),
            "listeners, named per check": lambda: page_reuse.listeners(cdp),
            "listeners, named once": lambda: page_reuse.listeners(cdp, named),
            'storage wipe, "all"': lambda: cdp.send(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}
            ),
            "storage wipe, WIPE": lambda: cdp.send(
                "Storage.clearDataForOrigin",
                {"origin": origin, "storageTypes": getattr(page_reuse, "WIPE", "all")},
            ),
        }
        print(f"per call, {calls} calls each (CPU of the whole browser; wall):")
        for name, step in steps.items():
            await step()
            c0, t0 = tree_cpu(), time.perf_counter()
            for _ in range(calls):
                await step()
            cpu, wall = tree_cpu() - c0, time.perf_counter() - t0
            per = 1000 / calls
            print(f"  {name:28s} CPU {cpu * per:6.1f} ms   wall {wall * per:6.1f} ms")
    finally:
        await pool.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("measure", choices=("page", "pool"))
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--evaluations", type=int, default=40)
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))
    print(f"checkout {args.checkout}, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-eval-cpu-") as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        if args.measure == "page":
            asyncio.run(page(args.evaluations))
        else:
            asyncio.run(pool_steps(args.calls))
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
