"""Regions of published-style drag items, set up in place: seconds per item and IoU with the
stored regions.

Imports a checkout in the published layout (default: the fixture tests/fixtures/
scratchworld_diag), then for each drag item: a fresh set of `--pages` editor windows set up as
the published runner sets the item up (small stage, sprite switch, palette clicks and scrolls,
workspace zoom and scroll), both regions computed from the item's stored drag start point,
and the IoU of each with the stored region. Prints one line per item and the worst time; the
target is under 20 s per item on 2 cores.

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
from studio.services.drag.item import scan_items  # noqa: E402
from studio.services.drag.regions import RegionComputer, compare_with_stored  # noqa: E402
from studio.services.scratchworld.checkout import import_checkout  # noqa: E402
from tests.helpers.published_diag import FIXTURE  # noqa: E402


async def run(checkout: Path, pages: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        import_checkout(checkout, Path(tmp))
        async with BrowserPool(spares=0) as pool:
            assert pool.server is not None
            for entry in scan_items(Path(tmp) / "diagnostics" / "drag"):
                start = entry.item.evaluation_config.drag_start_point
                t0 = time.perf_counter()
                computer = RegionComputer(
                    pool.context,
                    pool.server,
                    entry,
                    pages=pages,
                    start_at=(start[0], start[1]) if start else None,
                )
                result = await computer.compute()
                seconds = time.perf_counter() - t0  # window opening and set-up included
                compared = compare_with_stored(entry, result)
                rows.append(
                    {
                        "item": entry.item.id,
                        "seconds": round(seconds, 1),
                        "drags": result.drags,
                        "start_iou": compared["start"]["iou"],
                        "end_iou": compared["end"]["iou"],
                    }
                )
                r = rows[-1]
                print(
                    f"{r['item']}: {r['seconds']:5.1f} s, {r['drags']:3d} drags, "
                    f"start IoU {r['start_iou']:.3f}, end IoU {r['end_iou']:.3f}",
                    file=sys.stderr,
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", type=Path, default=FIXTURE)
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = asyncio.run(run(args.checkout, args.pages))
    summary = {
        "items": len(rows),
        "worst_seconds": max(r["seconds"] for r in rows),
        "mean_seconds": round(statistics.mean(r["seconds"] for r in rows), 1),
        "min_start_iou": min(r["start_iou"] for r in rows),
        "min_end_iou": min(r["end_iou"] for r in rows),
    }
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
    else:
        print(
            f"{summary['items']} published-style items: worst {summary['worst_seconds']} s, "
            f"mean {summary['mean_seconds']} s per item (target < 20 s); lowest IoU "
            f"start {summary['min_start_iou']:.3f}, end {summary['min_end_iou']:.3f}"
        )


if __name__ == "__main__":
    main()
