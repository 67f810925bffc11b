"""Feasible-region computation: seconds, real drags and agreement with exhaustive verification.

For each drag item (default: the shipped items in diagnostics/drag), on a copy of the item:
1. compute both regions the fast way (predicted regions, boundaries verified by real drags)
   on `--pages` editor pages (default 2) that were opened once for the whole run;
2. verify every grid point of a bounding window (the computed region's box grown by
   `--margin` grid steps) with a real drag each, on the same pages;
3. print seconds, real drags and the IoU of the fast region with the exhaustive one inside
   the window, per item and overall (mean and worst), by interaction type too.

    .venv/bin/python bench/bench_regions.py [ITEMS_DIR] [--pages 2] [--margin 2] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.app.regions import RegionOptions, RegionWorkshop  # noqa: E402
from studio.services.diagnostics.drag.grid import bbox, iou, window_points  # noqa: E402
from studio.services.diagnostics.drag.item import ItemFolder, load_item, scan_items  # noqa: E402
from studio.services.diagnostics.drag.page import TrialPages, open_window  # noqa: E402
from studio.services.diagnostics.drag.regions import verify_points  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402


def window(points: list[tuple[int, int]], grid: int, margin: int) -> list[tuple[int, int]]:
    box = bbox(points)
    if box is None:
        return []
    m = margin * grid
    pts = window_points(box[0] - m, box[1] - m, box[2] + m, box[3] + m, grid)
    return [p for p in pts if 0 <= p[0] < 1280 and 0 <= p[1] < 720]


async def bench_item(pool: Any, pages: list[Any], entry: ItemFolder, margin: int) -> dict:
    t0 = time.perf_counter()
    options = RegionOptions(pages=len(pages), resume=False)  # stored in the item's copy
    result = (await RegionWorkshop(pool, pages).compute(entry, options)).result
    seconds = time.perf_counter() - t0
    grid = entry.item.evaluation_config.grid
    out: dict[str, Any] = {
        "id": entry.item.id,
        "category": entry.item.category,
        "seconds": round(seconds, 2),
        "drags": result.drags,
        "start_points": len(result.start_points),
        "end_points": len(result.end_points),
    }
    t1 = time.perf_counter()
    exhaustive_drags = 0
    async with TrialPages(pool.context, pool.server, entry, len(pages), pages) as tp:
        for kind, fast in (("start", result.start_points), ("end", result.end_points)):
            win = window(fast, grid, margin)
            truth = await verify_points(tp, win, kind, result.drag_start_point, result.destination)
            exhaustive_drags += len(win)
            out[f"{kind}_window"] = len(win)
            out[f"{kind}_truth"] = len(truth)
            out[f"{kind}_iou"] = round(iou(set(fast) & set(win), truth), 4)
    out["exhaustive_drags"] = exhaustive_drags
    out["exhaustive_seconds"] = round(time.perf_counter() - t1, 1)
    out["iou"] = round((out["start_iou"] + out["end_iou"]) / 2, 4)
    return out


def summary(rows: list[dict]) -> dict:
    if not rows:
        return {}
    return {
        "items": len(rows),
        "seconds_mean": round(statistics.mean(r["seconds"] for r in rows), 2),
        "seconds_max": max(r["seconds"] for r in rows),
        "drags_mean": round(statistics.mean(r["drags"] for r in rows), 1),
        "start_iou_mean": round(statistics.mean(r["start_iou"] for r in rows), 4),
        "end_iou_mean": round(statistics.mean(r["end_iou"] for r in rows), 4),
        "iou_min": min(min(r["start_iou"], r["end_iou"]) for r in rows),
        "exhaustive_drags_mean": round(statistics.mean(r["exhaustive_drags"] for r in rows), 1),
    }


async def main(args: argparse.Namespace) -> dict:
    entries = scan_items(args.items)
    if args.only:
        entries = [e for e in entries if e.item.id in args.only]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bench-regions-") as tmp:
        async with BrowserPool(spares=0) as pool:
            t0 = time.perf_counter()
            pages = [await open_window(pool.context, pool.server) for _ in range(args.pages)]
            open_s = time.perf_counter() - t0
            print(f"opened {args.pages} editor windows in {open_s:.1f} s", file=sys.stderr)
            for entry in entries:
                copy = Path(tmp) / entry.item.id
                shutil.copytree(entry.path, copy)
                (copy / "regions.partial.json").unlink(missing_ok=True)
                try:
                    row = await bench_item(pool, pages, load_item(copy), args.margin)
                except Exception as exc:  # a broken item is reported, the others go on
                    row = {"id": entry.item.id, "error": str(exc)}
                rows.append(row)
                print(json.dumps(row), file=sys.stderr)
    good = [r for r in rows if "error" not in r]
    return {
        "pages": args.pages,
        "items": rows,
        "overall": summary(good),
        "T1": summary([r for r in good if r["category"] == "T1"]),
        "T2": summary([r for r in good if r["category"] == "T2"]),
    }


def print_table(out: dict) -> None:
    print(
        f"{'item':<28} {'type':<4} {'s':>6} {'drags':>6} {'start':>6} {'end':>5} "
        f"{'IoU start':>9} {'IoU end':>8} {'exhaustive':>10}"
    )
    for r in out["items"]:
        if "error" in r:
            print(f"{r['id']:<28} error: {r['error']}")
            continue
        print(
            f"{r['id']:<28} {r['category']:<4} {r['seconds']:>6.1f} {r['drags']:>6} "
            f"{r['start_points']:>6} {r['end_points']:>5} {r['start_iou']:>9.3f} "
            f"{r['end_iou']:>8.3f} {r['exhaustive_drags']:>10}"
        )
    for part in ("overall", "T1", "T2"):
        s = out[part]
        if s:
            print(
                f"{part}: {s['items']} items, {s['seconds_mean']} s mean ({s['seconds_max']} s "
                f"max), {s['drags_mean']} drags mean vs {s['exhaustive_drags_mean']} exhaustive "
                f"in the window, IoU start {s['start_iou_mean']}, end {s['end_iou_mean']}, "
                f"worst {s['iou_min']}"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("items", type=Path, nargs="?", default=ROOT / "diagnostics" / "drag")
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--margin", type=int, default=2, help="window margin in grid steps")
    parser.add_argument("--only", nargs="*", help="item ids to run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(main(args))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
