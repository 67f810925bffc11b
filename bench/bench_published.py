"""A published-style task set, first and second check, against the published protocol in real time.

Measured in one run, on 2 cores, from a fresh cache:
  1. the set is imported (`studio import scratchworld`), the published layout of 83 tasks
     built by tests/helpers/published_set (or any checkout given with --set);
  2. first check: `studio check LIB --mutants 0 --reruns 1 --json` as a user runs it, with a
     fresh browser cache (XDG_CACHE_HOME in a new folder): golden + initial of every task;
  3. second check: the same command again (warm cache);
  4. the same evaluations (golden + initial of every task) one after another as the published
     service runs them: a live editor page, real time, config {}, 120 s cap
     (studio.services.formats.scratchworld.published_protocol). This is the real-time baseline
     and the reference verdicts;
then prints the speed-ups (real-time total over each check's wall time), evaluations per
minute, mean time per phase, and whether every per-test verdict of the first check equals the
protocol's. Targets (issue 13): first check >= 10x, second >= 20x; verdicts equal.

Usage: .venv/bin/python bench/bench_published.py [--set ROOT] [--sample N] [--workers W]
  --sample N   run the real-time baseline on N tasks only (evenly spread) and scale its time up
               to the whole set (said so in the output); the checks always cover every task.
Takes about as long as the real-time baseline (about an hour for 83 tasks).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.services.core.store import TaskFolder, scan_library  # noqa: E402
from studio.services.formats.scratchworld.published_protocol import PublishedProtocol  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.clock_agreement import verdicts  # noqa: E402


def build_set(dest: Path) -> Path:
    from tests.helpers.published_set import build_published_set

    build_published_set(dest)
    return dest


def studio(*args: str, env: dict[str, str]) -> tuple[float, dict[str, object]]:
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "studio", *args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - t0
    return wall, json.loads(out.stdout)


async def real_time_baseline(entries: list[TaskFolder]) -> tuple[float, dict[str, tuple]]:
    """Golden and initial of each task, one after another, as the published service runs them."""
    found: dict[str, tuple] = {}
    t0 = time.perf_counter()
    async with BrowserPool(spares=0) as pool:
        protocol = PublishedProtocol(pool)
        for i, entry in enumerate(entries, 1):
            for label, path in (("golden", entry.golden_path), ("initial", entry.initial_path)):
                if path is None:
                    continue
                result = await protocol.evaluate(entry, path)
                found[f"{entry.task.id}/{label}"] = verdicts(result)
            print(f"  real time {i}/{len(entries)} {entry.task.id}", file=sys.stderr)
    return time.perf_counter() - t0, found


def check_verdicts(report: dict[str, object]) -> dict[str, tuple]:
    found: dict[str, tuple] = {}
    for task in report["tasks"]:  # type: ignore[attr-defined]
        for label in ("golden", "initial"):
            result = task.get(label)
            if result is None:
                continue
            kind = result["error"]["kind"] if result.get("error") else None
            details = tuple((d["name"], d["passed"]) for d in result["details"])
            found[f"{task['id']}/{label}"] = (kind, result["success"], details)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", type=Path, help="a checkout in the published layout")
    parser.add_argument("--sample", type=int, help="tasks in the real-time baseline")
    parser.add_argument("--workers", type=int, help="evaluations in parallel in the checks")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-published-"))
    checkout = args.set or build_set(work / "set")
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"))
    lib = work / "lib"
    wall, imported = studio("import", "scratchworld", str(checkout), str(lib), "--json", env=env)
    print(f"imported {len(imported['imported'])} tasks in {wall:.1f} s")  # type: ignore[arg-type]
    check = ["check", str(lib), "--mutants", "0", "--reruns", "1", "--json", "--with-results"]
    if args.workers:
        check += ["--workers", str(args.workers)]
    first_s, first = studio(*check, env=env)
    second_s, second = studio(*check, env=env)
    entries = [e for e in scan_library(lib).tasks]
    sample = entries
    if args.sample and args.sample < len(entries):
        step = len(entries) / args.sample
        sample = [entries[int(i * step)] for i in range(args.sample)]
    real_s, reference = asyncio.run(real_time_baseline(sample))
    scale = len(entries) / len(sample)
    real_total = real_s * scale
    ours = check_verdicts(first)
    same = [k for k in reference if ours.get(k) == reference[k]]
    differ = [k for k in reference if ours.get(k) != reference[k]]
    for label, report, wall in (("first", first, first_s), ("second", second, second_s)):
        s = report["summary"]  # type: ignore[index]
        p = s["phases"]
        print(
            f"{label} check: {s['evaluations']} evaluations in {wall:.0f} s wall "
            f"({s['evaluations'] / wall * 60:.0f} per minute), {s['ok']}/{s['tasks']} valid; "
            f"per evaluation: wait for page {p['page_wait_s']:.2f} s, page load "
            f"{p['page_ready_s']:.2f} s, project load {p['project_load_s']:.2f} s, script "
            f"{p['script_s']:.2f} s -> {real_total / wall:.1f}x faster than real time"
        )
    note = "" if scale == 1 else f" (measured on {len(sample)} tasks, scaled x{scale:.2f})"
    print(
        f"real time, one after another, published protocol: {real_total:.0f} s{note}; "
        f"targets: first >= 10x, second >= 20x"
    )
    print(f"per-test verdicts equal to the protocol's: {len(same)}/{len(reference)} evaluations")
    for key in differ:
        print(f"  DIFFER {key}: protocol {reference[key]} vs check {ours.get(key)}")


if __name__ == "__main__":
    main()
