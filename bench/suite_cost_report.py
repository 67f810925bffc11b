"""Sum what bench/suite_cost.py recorded: per file, per worker, and the slowest tests.

Usage: .venv/bin/python bench/suite_cost_report.py FOLDER [--top N]

Prints, for the N costliest files by CPU: CPU seconds, wall seconds, tests, browsers launched and
Python processes started; then per worker the sum of wall time (how evenly xdist shared the
files) and the whole run's CPU. `--json` prints the same as JSON.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

__all__ = ["load", "main", "per_file"]


def load(folder: Path) -> list[dict[str, Any]]:
    """Every recorded phase of every worker in `folder`."""
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{number}: not a JSON line ({exc})") from None
    return rows


def per_file(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """file -> {cpu_s, wall_s, tests, browsers, pythons, worker}."""
    files: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"cpu_s": 0.0, "wall_s": 0.0, "tests": 0, "browsers": 0, "pythons": 0}
    )
    for row in rows:
        entry = files[row["nodeid"].split("::")[0]]
        for key in ("cpu_s", "wall_s", "browsers", "pythons"):
            entry[key] += row[key]
        entry["tests"] += row["when"] == "call"
        entry["worker"] = row["worker"]
    return dict(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = load(args.folder)
    if not rows:
        raise SystemExit(f"{args.folder}: no *.jsonl lines (run pytest with -p suite_cost)")
    files = per_file(rows)
    workers: dict[str, dict[str, float]] = defaultdict(lambda: {"wall_s": 0.0, "cpu_s": 0.0})
    for row in rows:
        workers[row["worker"]]["wall_s"] += row["wall_s"]
        workers[row["worker"]]["cpu_s"] += row["cpu_s"]
    top = sorted(files.items(), key=lambda kv: -kv[1]["cpu_s"])[: args.top]
    if args.json:
        print(json.dumps({"files": dict(top), "workers": workers}, indent=2))
        return
    print(f"{'cpu s':>8} {'wall s':>8} {'tests':>5} {'brows':>5} {'pys':>4}  file")
    for name, f in top:
        print(
            f"{f['cpu_s']:8.1f} {f['wall_s']:8.1f} {f['tests']:5d} {f['browsers']:5d} "
            f"{f['pythons']:4d}  {name}"
        )
    total_cpu = sum(f["cpu_s"] for f in files.values())
    print(
        f"\nall {len(files)} files: cpu {total_cpu:.0f} s, browsers "
        f"{sum(f['browsers'] for f in files.values())}, pythons "
        f"{sum(f['pythons'] for f in files.values())}"
    )
    for worker, w in sorted(workers.items()):
        print(f"worker {worker}: wall {w['wall_s']:.0f} s, cpu {w['cpu_s']:.0f} s")


if __name__ == "__main__":
    main()
