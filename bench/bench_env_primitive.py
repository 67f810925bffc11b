"""Per-step latency of primitive mode in the real editor page, measured in one run.

1. observation without OCR (settle, 1280x720 screenshot, DOM element list): target < 300 ms
2. observation with OCR (RapidOCR, cache cleared before each run): target < 1.5 s
3. one drag_and_drop from a flyout block onto the code area: target < 300 ms

The page is opened once with a bundled task's initial project; every figure is the median of
`--runs` runs (min and max beside it). The machine's load average is printed too: on a
shared 2-core machine other work inflates the figures.
Usage: .venv/bin/python bench/bench_env_primitive.py [--task tasks/<id>] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.models.action_parse import parse_action  # noqa: E402
from studio.models.agent import Mode  # noqa: E402
from studio.services.episodes.modes import VIEWPORT  # noqa: E402
from studio.services.episodes.primitive import PrimitiveMode  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.server import EditorServer  # noqa: E402

TARGETS_MS = {"observe (no OCR)": 300, "observe (OCR)": 1500, "drag_and_drop": 300}


async def timed(runs: int, fn: Callable[[], Awaitable[Any]]) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def open_editor(pool: BrowserPool, server: EditorServer, task: Path) -> Any:
    page = await pool.context.new_page()
    await page.set_viewport_size(VIEWPORT)
    await page.goto(server.url("editor.html"), wait_until="load")
    await page.wait_for_function("window.studioEditorReady === true", timeout=120_000)
    b64 = base64.b64encode((task / "initial.sb3").read_bytes()).decode("ascii")
    await page.evaluate("(b) => window.studioBridge.loadProjectBase64(b, 'initial.sb3')", b64)
    return page


async def bench(task: Path, runs: int) -> dict[str, list[float]]:
    server = EditorServer(preferred_port=None).start()
    pool = BrowserPool(server=server, spares=0)
    await pool.start()
    try:
        page = await open_editor(pool, server, task)
        plain = PrimitiveMode(ocr=False)
        await plain.setup(page)
        with_ocr = PrimitiveMode(ocr=True)
        t0 = time.perf_counter()
        await with_ocr.setup(page)
        print(f"OCR setup (model load): {(time.perf_counter() - t0) * 1000:.0f} ms")
        obs = await plain.observe(page, 0)
        print(f"elements without OCR: {len(obs.elements)}")

        async def observe_ocr() -> None:
            engine = with_ocr._ocr_engine()
            engine._cache.clear()
            await with_ocr.observe(page, 0)
            for key, value in with_ocr.last_timings.items():
                parts.setdefault(key, []).append(value)

        parts: dict[str, list[float]] = {}

        async def observe_plain() -> None:
            await plain.observe(page, 0)
            for key, value in plain.last_timings.items():
                parts.setdefault(key, []).append(value)

        results = {"observe (no OCR)": await timed(runs, observe_plain)}
        print(
            "  observe (no OCR) parts, median: "
            + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in parts.items())
        )
        parts.clear()
        results["observe (OCR)"] = await timed(runs, observe_ocr)
        print(
            "  observe (OCR) parts, median: "
            + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in parts.items())
        )
        ocr_count = sum(1 for e in with_ocr.elements if e.source == "ocr")
        print(f"OCR text boxes appended: {ocr_count}")

        async def drag() -> None:
            await plain.observe(page, 0)  # not timed below: only the action is
            move = next(e for e in plain.elements if e.text == "motion_movesteps")
            action = parse_action(
                {
                    "api": "drag_and_drop",
                    "args": {"start_index": move.index, "end_x": 600, "end_y": 600},
                },
                Mode.PRIMITIVE,
            )
            t0 = time.perf_counter()
            await plain.execute(page, action)
            drags.append((time.perf_counter() - t0) * 1000)

        drags: list[float] = []
        for _ in range(runs):
            await drag()
        results["drag_and_drop"] = drags
        added = await page.evaluate(
            "() => Object.values(vm.editingTarget.blocks._blocks)"
            ".filter((b) => b.opcode === 'motion_movesteps').length"
        )
        print(f"motion_movesteps blocks the VM sees after {runs} drags: {added}")
        return results
    finally:
        await pool.close()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", type=Path, default=ROOT / "tasks" / "debug_game_over")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"task {args.task.name}, {args.runs} runs, load average {os.getloadavg()[0]:.1f}")
    results = asyncio.run(bench(args.task, args.runs))
    print(f"{'step':<18} {'median':>8} {'min':>8} {'max':>8} {'target':>8}")
    for name, values in results.items():
        target = TARGETS_MS[name]
        median = statistics.median(values)
        verdict = "ok" if median < target else "SLOW"
        print(
            f"{name:<18} {median:>6.0f}ms {min(values):>6.0f}ms {max(values):>6.0f}ms "
            f"{target:>6}ms {verdict}"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
