"""Seconds from process start to a ready Scratch editor in the studio window.

Starts the real app as a fresh process (the window harness, tests/helpers/window_harness.py;
offscreen Qt unless DISPLAY is set and --platform says otherwise) with `--exit-when-ready`; the
harness prints the seconds since its own process started when the editor and its VM are ready.
The first run uses an empty browser cache (cold), the others reuse it (warm, the usual case).

Target (issue: GUI shell): under 6 s.
Usage: .venv/bin/python bench/bench_gui_start.py [--runs N] [--library DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 6.0
APP = [sys.executable, "-m", "tests.helpers.window_harness"]


def start_once(library: Path, home: Path, platform: str) -> tuple[float, float]:
    """(seconds the app reports from its process start to ready, wall seconds to exit)."""
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM=platform,
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
    )
    t0 = time.perf_counter()
    out = subprocess.run(
        [*APP, "--library", str(library), "--exit-when-ready"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
        check=False,
    )
    wall = time.perf_counter() - t0
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("editor-ready ")]
    if out.returncode != 0 or not lines:
        sys.exit(f"the app did not report a ready editor ({out.returncode}):\n{out.stderr[-2000:]}")
    return float(lines[-1].split()[1]), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4, help="runs (the first one is cold)")
    parser.add_argument("--library", type=Path, help="task library (default: a sample task)")
    parser.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM to use")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.helpers.sample_task import write_sample_task

    with tempfile.TemporaryDirectory(prefix="bench-gui-") as tmp:
        home = Path(tmp)
        library = args.library or write_sample_task(home / "lib" / "cat-hello").parent
        print(f"{'run':>3} {'cache':>5} {'ready':>6} {'exit':>6}   (seconds from process start)")
        warm = []
        for i in range(args.runs):
            ready, wall = start_once(library, home, args.platform)
            kind = "cold" if i == 0 else "warm"
            if i:
                warm.append(ready)
            print(f"{i + 1:>3} {kind:>5} {ready:6.2f} {wall:6.2f}", flush=True)
    if warm:
        median = statistics.median(warm)
        verdict = "OK" if median < TARGET_S else "over"
        print(
            f"editor ready (warm, median of {len(warm)}): {median:.2f} s "
            f"(target < {TARGET_S:g} s: {verdict})"
        )


if __name__ == "__main__":
    main()
