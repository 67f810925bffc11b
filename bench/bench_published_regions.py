"""Regions of published-style drag items, set up in place: seconds per item and IoU with the
stored regions.

Imports a checkout in the published layout (default: the fixture tests/fixtures/
scratchworld_diag), then computes both regions of each drag item from its stored drag start
point on `--pages` editor windows set up as the published runner sets the item up (small
stage, sprite switch, palette clicks and scrolls, workspace zoom and scroll), and the IoU of
each with the stored region. Two passes:

- cold: each item opens its own windows (what `studio regions compute ITEM` costs alone;
  window opening and set-up included);
- warm: the items share windows opened once, as `studio regions compute ITEM...` and the
  labeling window share them (set-up of each item included).

Prints one line per item and pass, and the worst time of each pass; the target is under 20 s
per item on 2 cores.

    .venv/bin/python bench/bench_published_regions.py [CHECKOUT] [--pages 2] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.services.browser import BrowserPool  # noqa: E402
from studio.services.drag.item import ItemFolder, scan_items  # noqa: E402
from studio.services.drag.page import open_window  # noqa: E402
from studio.services.drag.regions import RegionComputer, compare_with_stored  # noqa: E402
from studio.services.scratchworld.checkout import import_checkout  # noqa: E402
from tests.helpers.published_diag import FIXTURE  # noqa: E402


async def one(
    pool: Any, entry: ItemFolder, pages: int, windows: list[Any] | None, mode: str
) -> dict[str, Any]:
    start = entry.item.evaluation_config.drag_start_point
    t0 = time.perf_counter()
    computer = RegionComputer(
        pool.context,
        pool.server,
        entry,
        pages=pages,
        resume=False,
        windows=windows,
        start_at=(start[0], start[1]) if start else None,
    )
    result = await computer.compute()
    seconds = time.perf_counter() - t0
    compared = compare_with_stored(entry, result)
    row = {
        "item": entry.item.id,
        "mode": mode,
        "seconds": round(seconds, 1),
        "drags": result.drags,
        "start_iou": compared["start"]["iou"],
        "end_iou": compared["end"]["iou"],
    }
    print(
        f"{row['item']} ({mode}): {row['seconds']:5.1f} s, {row['drags']:3d} drags, "
        f"start IoU {row['start_iou']:.3f}, end IoU {row['end_iou']:.3f}",
        file=sys.stderr,
    )
    return row


async def run(checkout: Path, pages: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        import_checkout(checkout, Path(tmp))
        entries = scan_items(Path(tmp) / "diagnostics" / "drag")
        async with BrowserPool(spares=0) as pool:
            assert pool.server is not None
            for entry in entries:
                rows.append(await one(pool, entry, pages, None, "cold"))
            t0 = time.perf_counter()
            windows = list(
                await asyncio.gather(
                    *(open_window(pool.context, pool.server) for _ in range(pages))
                )
            )
            print(
                f"opened {pages} shared windows in {time.perf_counter() - t0:.1f} s",
                file=sys.stderr,
            )
            for entry in entries:
                rows.append(await one(pool, entry, pages, windows, "warm"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", type=Path, default=FIXTURE)
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = asyncio.run(run(args.checkout, args.pages))
    summary: dict[str, Any] = {"items": len(rows) // 2}
    for mode in ("cold", "warm"):
        seconds = [r["seconds"] for r in rows if r["mode"] == mode]
        summary[f"{mode}_worst_seconds"] = max(seconds)
        summary[f"{mode}_mean_seconds"] = round(statistics.mean(seconds), 1)
    summary["min_start_iou"] = min(r["start_iou"] for r in rows)
    summary["min_end_iou"] = min(r["end_iou"] for r in rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
    else:
        print(
            f"{summary['items']} published-style items, target < 20 s per item: "
            f"cold (own windows) worst {summary['cold_worst_seconds']} s, mean "
            f"{summary['cold_mean_seconds']} s; warm (shared windows) worst "
            f"{summary['warm_worst_seconds']} s, mean {summary['warm_mean_seconds']} s; "
            f"lowest IoU start {summary['min_start_iou']:.3f}, end {summary['min_end_iou']:.3f}"
        )


if __name__ == "__main__":
    main()
