"""The static bundle's speed (issue 29): write the bundle of a 200-episode campaign, then open
it in Chromium from disk.

A synthetic campaign is written first (not timed): two runs of 100 episodes each, 10 steps per
episode with a 1280x720 PNG screenshot each (drawn with OpenCV, about the size of a real
editor screenshot), element lists, clicks, drags and scrolls, and each episode's verdict.

1. `write_bundle` over it (`studio report RUNS --bundle DIR`: read every run, copy every
   screenshot, compute every mark, write data.js). Target: under 30 s.
2. Opening DIR/index.html in the system Chromium (headless, file://): from navigation until
   the page has drawn its tables and the 200-row episode list (`body[data-ready]`).
   Target: under 2 s. The browser is started before the clock starts.

On a shared 2-core machine, other work inflates the figures (the load average is printed).
Usage: .venv/bin/python bench/bench_bundle.py [--episodes 200] [--steps 10] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from studio.models.agent import Element, EpisodeStatus, Mode, Observation, StepRecord  # noqa: E402
from studio.models.evaluation import EvalResult, TestDetail  # noqa: E402
from studio.models.trajectory import RunInfo, observation_name, screenshot_name  # noqa: E402
from studio.services.core import paths  # noqa: E402
from studio.services.runs.bundle import write_bundle  # noqa: E402

WRITE_TARGET_S = 30.0
OPEN_TARGET_S = 2.0
CATEGORIES = ("create", "debug", "extend", "compute")


def screenshot(seed: int) -> bytes:
    """A 1280x720 editor-like picture: palette, blocks, stage, text."""
    rng = np.random.default_rng(seed)
    img = np.full((720, 1280, 3), 246, np.uint8)
    cv2.rectangle(img, (0, 0), (1280, 48), (190, 110, 70), -1)
    cv2.rectangle(img, (0, 48), (310, 720), (236, 236, 236), -1)
    for i in range(14):
        y = 70 + 44 * i
        color = tuple(int(c) for c in rng.integers(60, 230, 3))
        cv2.rectangle(img, (20, y), (20 + int(rng.integers(120, 260)), y + 34), color, -1)
        cv2.putText(img, f"block {seed % 97}-{i}", (28, y + 23), 0, 0.55, (255, 255, 255), 1)
    cv2.rectangle(img, (900, 60), (1270, 340), (255, 255, 255), -1)
    cv2.circle(img, (1080, 200), 40 + seed % 30, (40, 150, 240), -1)
    ok, data = cv2.imencode(".png", img)
    assert ok
    return data.tobytes()


def write_campaign(root: Path, episodes: int, steps: int) -> None:
    shots = [screenshot(i) for i in range(12)]
    elements = [
        Element(index=i, type="blocks", text=f"block {i}", x=20, y=70 + 44 * i, w=200, h=34)
        for i in range(14)
    ]
    t0 = datetime(2026, 11, 1, tzinfo=UTC)
    for n in range(episodes):
        agent = ("llm", "oracle")[n % 2]
        task = f"{CATEGORIES[n % 4]}_task_{n // 2:03d}"
        folder = root / f"{agent}-primitive-20261101" / task
        folder.mkdir(parents=True)
        lines = []
        for i in range(1, steps + 1):
            if i % 3 == 0:
                action = {"api": "drag_and_drop", "args": {"start_x": 80, "start_y": 90 + i,
                          "end_x": 500 + i, "end_y": 300}}  # fmt: skip
            elif i % 3 == 1:
                action = {"api": "click", "args": {"index": i % 14}}
            else:
                action = {"api": "scroll", "args": {"direction": "down", "x": 600, "y": 400}}
            record = StepRecord(index=i, at=t0 + timedelta(seconds=i), action=action,
                                ok=i % 7 != 0, screenshot=screenshot_name(i))  # fmt: skip
            lines.append(record.model_dump_json())
            (folder / screenshot_name(i)).write_bytes(shots[(n + i) % len(shots)])
            obs = Observation(mode=Mode.PRIMITIVE, step=i, elements=elements)
            (folder / observation_name(i)).write_text(obs.model_dump_json())
        (folder / "steps.jsonl").write_text("\n".join(lines) + "\n")
        passed = [(n * 7 + k) % 5 != 0 for k in range(4)]
        result = EvalResult(
            task_id=task, project="final.sb3", success=all(passed), passed_tests=sum(passed),
            total_tests=4, partial_success_rate=sum(passed) / 4,
            details=[TestDetail(name=f"test {k}", passed=p) for k, p in enumerate(passed)],
        )  # fmt: skip
        run = RunInfo(
            episode_id=f"e{n}", task_id=task, mode=Mode.PRIMITIVE, agent=agent, started_at=t0,
            ended_at=t0 + timedelta(seconds=40), status=EpisodeStatus.DONE, steps=steps,
            eval=result, meta={"category": CATEGORIES[n % 4]},
        )  # fmt: skip
        (folder / "run.json").write_text(run.model_dump_json())
        (folder / "final.png").write_bytes(shots[n % len(shots)])


async def open_in_chromium(index: Path) -> tuple[float, int, list[str]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=str(paths.chromium_path()), args=["--no-sandbox"]
        )
        page = await browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        t0 = time.perf_counter()
        await page.goto(index.as_uri())
        await page.wait_for_selector("body[data-ready='1']")
        seconds = time.perf_counter() - t0
        rows = await page.locator("#episodes tr.episode").count()
        await browser.close()
    return seconds, rows, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--keep", type=Path, help="write the bundle here and keep it")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-bundle-"))
    try:
        runs = work / "runs"
        write_campaign(runs, args.episodes, args.steps)
        out = args.keep or work / "site"
        summary = write_bundle(runs, out)
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
        opened, rows, errors = asyncio.run(open_in_chromium(summary.index))
        print(f"load average: {os.getloadavg()[0]:.2f} (2 cores)")
        print(
            f"write: {summary.episodes} episodes, {summary.steps} steps, {summary.images} "
            f"screenshots ({size:.0f} MB) in {summary.seconds:.2f} s "
            f"(target < {WRITE_TARGET_S:.0f} s)"
        )
        print(
            f"open:  {rows} episode rows drawn in {opened:.2f} s from file:// "
            f"(target < {OPEN_TARGET_S:.0f} s); console errors: {len(errors)}"
        )
        return 0 if rows == summary.episodes and not errors else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
