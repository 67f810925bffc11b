"""Seconds per primitive-mode step: live in the studio window vs the same agent headless.

Runs the oracle on a task for `--steps` steps in primitive mode twice: in the window (the real
studio window on Xvfb or offscreen, its own editor driven live, no delay, not paused) and
headless (`studio run`, Playwright's Chromium). For each it prints the wall time per step (the
time between the recorded steps' `at` stamps, so observing, the agent and acting) and the time
the action itself took (`duration_ms`), as medians.

Target (issue 31, point 9): a window step within 1.5x of a headless one.
Usage: xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python bench/bench_window_steps.py
       [--task tasks/create_cat_walk] [--steps 10]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def step_figures(steps_file: Path) -> tuple[float, float, int]:
    """(median seconds between steps, median action seconds, steps) of a recorded run."""
    rows = [json.loads(line) for line in steps_file.read_text().splitlines() if line.strip()]
    stamps = [datetime.fromisoformat(r["at"]) for r in rows]
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(stamps)]
    actions = [r["duration_ms"] / 1000 for r in rows if r.get("duration_ms") is not None]
    return statistics.median(gaps or [0.0]), statistics.median(actions or [0.0]), len(rows)


def in_window(task: Path, steps: int, home: Path) -> Path:
    """Run the oracle live in a fresh studio window; the recorded steps file."""
    env = dict(os.environ)
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))
    code = f"""
import asyncio, sys
from pathlib import Path
sys.path.insert(0, {str(ROOT)!r})
from studio.models.agent import Mode
from studio.views import app
from studio.views.viewer.start_run_dialog import RunChoice

async def script(window):
    await window.editor.wait_ready()
    await app.open_task(window, {task.name!r}, "initial")
    entry = window.library.current_entry()
    choice = RunChoice(agent="oracle", mode=Mode.PRIMITIVE, paused=False, seed=0)
    run = window.background.spawn(window.runs.run(entry, choice))
    while window.run_panel.model.rowCount() < {steps} and not run.done():
        await asyncio.sleep(0.1)
    window.run_panel.stop()
    await asyncio.wait([run], timeout=120)
    print("folder", window.runs.live.last_folder, flush=True)
    return 0

raise SystemExit(app.run_gui(app.GuiOptions(library=Path({str(task.parent)!r})), script))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    folders = [ln.split(" ", 1)[1] for ln in out.stdout.splitlines() if ln.startswith("folder ")]
    if out.returncode != 0 or not folders or folders[-1] == "None":
        sys.exit(f"the window run failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return Path(folders[-1]) / "steps.jsonl"


def headless(task: Path, steps: int, home: Path) -> Path:
    runs = home / "headless"
    cmd = [sys.executable, "-m", "studio", "run", str(task), "--agent", "oracle"]
    cmd += ["--mode", "primitive", "--steps", str(steps), "--out", str(runs)]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    found = sorted(runs.glob(f"*/{task.name}/steps.jsonl"))
    if not found:
        sys.exit(f"the headless run failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return found[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", type=Path, default=ROOT / "tasks" / "create_cat_walk")
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-steps-") as tmp:
        home = Path(tmp)
        rows = {
            "window": step_figures(in_window(args.task.resolve(), args.steps, home)),
            "headless": step_figures(headless(args.task.resolve(), args.steps, home)),
        }
    print(f"{'':>9} {'s/step':>7} {'action s':>9} {'steps':>6}   (medians)")
    for name, (gap, action, n) in rows.items():
        print(f"{name:>9} {gap:7.2f} {action:9.2f} {n:6d}")
    ratio = rows["window"][0] / max(rows["headless"][0], 1e-9)
    print(f"window / headless: {ratio:.2f}x (target <= 1.5x: {'OK' if ratio <= 1.5 else 'over'})")


if __name__ == "__main__":
    main()
