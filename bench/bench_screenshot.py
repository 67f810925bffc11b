"""What one screenshot of an editor page costs: Playwright's `page.screenshot` against the
studio's direct capture (`runtime.screenshots.shot_png`), side by side in one run.

Opens one composite episode on a bundled task (the editor at 1280x720, at rest as an agent's
page waits), then takes `--shots` shots with each way, alternating them (A B A B ...) so that
the machine's load falls on both alike. Printed per way: wall milliseconds per shot (median,
p90) and CPU milliseconds per shot of this process and every process under it (the Playwright
driver and Chromium: /proc utime + stime, children that ended included: suite_cost.ProcessTree)
over the way's own shots, the PNG's size, and whether both ways gave the same pixels on the
last pair (decoded). Wall figures on a shared machine are noisy; the CPU ones and the ratio
are the figures to read.

Usage: .venv/bin/python bench/bench_screenshot.py [--shots 40] [--task tasks/<id>]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for place in (ROOT, ROOT / "bench"):
    if str(place) not in sys.path:
        sys.path.insert(0, str(place))

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from suite_cost import ProcessTree  # noqa: E402  (CPU of a process tree, ended children too)

from studio.models.agent import Mode  # noqa: E402
from studio.services.core.store import load_task  # noqa: E402
from studio.services.episodes.manager import EpisodeManager  # noqa: E402
from studio.services.runtime.screenshots import shot_png  # noqa: E402


def _cpu() -> float:
    return ProcessTree(os.getpid()).cpu_s


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


async def main(task_dir: Path, shots: int) -> None:
    manager = EpisodeManager(step_limit=10_000)
    await manager.start()
    episode = await manager.create(load_task(task_dir), Mode.COMPOSITE)
    page = episode.page
    assert page is not None
    await page.wait_for_function("() => window.studioRest && studioRest.stats().resting")
    ways: dict[str, Callable[[], Awaitable[bytes]]] = {
        "page.screenshot": lambda: page.screenshot(type="png"),
        "shot_png (CDP)": lambda: shot_png(page),
    }
    wall: dict[str, list[float]] = {name: [] for name in ways}
    cpu = dict.fromkeys(ways, 0.0)
    last: dict[str, bytes] = {}
    for shoot in ways.values():  # one unmeasured shot each (sessions, scripts)
        await shoot()
    for _ in range(shots):
        for name, shoot in ways.items():
            c0, t0 = _cpu(), time.perf_counter()
            last[name] = await shoot()
            wall[name].append((time.perf_counter() - t0) * 1000)
            cpu[name] += _cpu() - c0
    print(f"task {task_dir.name}, {shots} shots each, alternating; load {os.getloadavg()}")
    for name in ways:
        ms = sorted(wall[name])
        p90 = ms[int(0.9 * (len(ms) - 1))]
        print(
            f"  {name:16} wall median {statistics.median(ms):6.1f} ms  p90 {p90:6.1f} ms  "
            f"CPU {cpu[name] / shots * 1000:6.1f} ms/shot  PNG {len(last[name]) / 1024:.0f} KiB"
        )
    a, b = (cpu[name] for name in ways)
    wa, wb = (statistics.median(wall[name]) for name in ways)
    print(f"  ratio (Playwright / direct): CPU {a / b:.2f}x, wall median {wa / wb:.2f}x")
    pa, pb = (_pixels(last[name]) for name in ways)
    print(f"  same pixels on the last pair: {pa.shape == pb.shape and bool((pa == pb).all())}")
    await manager.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", type=Path, default=ROOT / "tasks" / "debug_game_over")
    parser.add_argument("--shots", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(main(args.task, args.shots))
