"""Full adversarial check of the bundled library: golden + initial + 10 mutants x 3 reruns.

Runs `studio check tasks` as a user would (progress bar on stderr) and prints the wall time,
evaluations per minute and the mutation kill rate. Target (issue 3): under 5 minutes on 2 cores.
Usage: .venv/bin/python bench/bench_check.py [LIBRARY] [--cold]   (--cold forgets the cached
real-time comparison, so the first-check cost is measured too)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    library = Path(args[0]) if args else ROOT / "tasks"
    env = dict(os.environ)
    if "--cold" in sys.argv:
        cache = tempfile.mkdtemp(prefix="bench-cache-")
        env["XDG_CACHE_HOME"] = cache
    cmd = [
        sys.executable,
        "-m",
        "studio",
        "check",
        str(library),
        "--json",
        "--mutants",
        "10",
        "--reruns",
        "3",
        "--no-record",  # the bundled library stays as the repository has it
    ]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env, check=False)
    wall = time.perf_counter() - t0
    report = json.loads(out.stdout)
    s = report["summary"]
    for t in report["tasks"]:
        valid = t["mutants_total"] - t["mutants_invalid"]
        print(
            f"{t['verdict']:<8} {t['id']:<36} mutants {t['mutants_killed']}/"
            f"{valid} killed  [{t['clock']}] {t['seconds']:.0f} s"
        )
    print(
        f"full check: {s['ok']}/{s['tasks']} valid, {s['evaluations']} evaluations in "
        f"{wall:.0f} s wall ({wall / 60:.1f} min; target < 5 min), "
        f"{s['evaluations'] / wall * 60:.0f} evaluations per minute, "
        f"mutation kill rate {s['kill_rate']:.1%}"
    )


if __name__ == "__main__":
    main()
