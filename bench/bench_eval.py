"""Speed of headless evaluation, measured in one run.

1. `studio eval --json` on a bundled task, as a fresh process: wall time from process start to
   result, split into browser start, page ready, project load and script time.
2. `studio check tasks --json`: evaluations per minute for the whole bundled library.

Targets (issue 2): page ready after browser start under 3 s.
Usage: .venv/bin/python bench/bench_eval.py [--task tasks/<id>] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUDIO = [sys.executable, "-m", "studio"]


def eval_once(task: Path) -> dict[str, float]:
    t0 = time.perf_counter()
    out = subprocess.run(
        [*STUDIO, "eval", str(task), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    wall = time.perf_counter() - t0
    if out.returncode not in (0, 1):
        sys.exit(f"studio eval failed ({out.returncode}): {out.stderr.strip()}")
    data = json.loads(out.stdout)
    return {"wall_s": wall, **data["timings"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", type=Path, help="task folder (default: first bundled task)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    task = args.task or sorted(p.parent for p in (ROOT / "tasks").rglob("task.json"))[0]

    print(f"studio eval {task.relative_to(ROOT) if task.is_relative_to(ROOT) else task}")
    print(
        f"{'run':>3} {'wall':>6} {'browser':>8} {'page':>6} {'load':>6} {'script':>7} {'total':>6}"
    )
    rows = []
    for i in range(args.runs):
        r = eval_once(task)
        rows.append(r)
        print(
            f"{i + 1:>3} {r['wall_s']:6.2f} {r['browser_start_s']:8.2f} {r['page_ready_s']:6.2f} "
            f"{r['project_load_s']:6.2f} {r['script_s']:7.2f} {r['total_s']:6.2f}"
        )
    best = min(rows, key=lambda r: r["wall_s"])
    print(
        f"page ready after browser start: {best['page_ready_s']:.2f} s (target < 3 s); "
        f"eval wall time {best['wall_s']:.2f} s (best of {args.runs})"
    )

    t0 = time.perf_counter()
    out = subprocess.run(
        [*STUDIO, "check", "tasks", "--json", "--no-record"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    wall = time.perf_counter() - t0
    summary = json.loads(out.stdout)["summary"]
    print(
        f"studio check tasks: {summary['ok']}/{summary['tasks']} ok, "
        f"{summary['evaluations']} evaluations in {wall:.1f} s wall -> "
        f"{summary['evaluations'] / wall * 60:.1f} evaluations per minute "
        f"({summary['evaluations_per_minute']:.1f} per minute inside the check)"
    )


if __name__ == "__main__":
    main()
