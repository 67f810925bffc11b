"""Regions of published-style drag items, set up in place, on both editor editions side by side:
seconds per item and IoU with the stored regions.

For each edition a checkout in the published layout built on that edition is imported
(current: tests/fixtures/scratchworld_diag, built on the current editor; classic:
tests/fixtures/scratchworld_classic, built on the classic editor by
tools/build_classic_drag_items.py), then both regions of each drag item are computed from its
stored drag start point on `--pages` editor windows of that edition set up as the published
runner sets the item up (small stage, sprite switch, palette clicks and scrolls, workspace zoom
and scroll; on classic the published forced-transform restore), and the IoU of each with the
stored region. Two passes per edition:

- cold: each item opens its own windows (what `studio regions compute ITEM` costs alone;
  window opening and set-up included);
- warm: the items share windows opened once, as `studio regions compute ITEM...` and the
  labeling window share them (set-up of each item included).

Prints one line per item and pass, then one line per edition side by side (worst and mean
seconds of each pass, lowest IoU); the target is under 20 s per item on 2 cores.

    .venv/bin/python bench/bench_published_regions.py [--editions current,classic] [--pages 2]
        [--only ID...] [--no-cold] [--json] [--checkout DIR]

`--checkout DIR` runs a checkout of classic items instead (e.g. tests/fixtures/scratchworld_grab,
whose regions are for each item's own grab point). Each item's line also says where its time
went: set-up (windows, load, the published set-up steps, the seed's prediction) until the
first drag, the start seed (with the grab point's own check), the end seed, and the boundary
scans of both regions, with the drags made and the mean seconds per drag.
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

from studio.app.regions import RegionOptions, RegionWorkshop  # noqa: E402
from studio.services.diagnostics.drag.item import ItemFolder, scan_items  # noqa: E402
from studio.services.diagnostics.drag.page import open_window  # noqa: E402
from studio.services.formats.scratchworld.checkout import import_checkout  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.editions import Edition  # noqa: E402
from tests.helpers.published_diag import FIXTURE  # noqa: E402

CHECKOUTS = {
    Edition.CURRENT: FIXTURE,
    Edition.CLASSIC: ROOT / "tests" / "fixtures" / "scratchworld_classic",
}


async def one(
    pool: Any,
    entry: ItemFolder,
    pages: int,
    windows: list[Any] | None,
    mode: str,
    edition: Edition,
) -> dict[str, Any]:
    t0 = time.perf_counter()
    phases: dict[str, float] = {}
    last = ["set-up", t0]

    def progress(phase: str, done: int, asked: int) -> None:
        now = time.perf_counter()
        phases[str(last[0])] = phases.get(str(last[0]), 0.0) + now - float(last[1])
        last[:] = [phase, now]

    # the end region for the item's own grab point; compared with the stored regions (and
    # kept as the "computed" label of the item's copy)
    options = RegionOptions(pages=pages, resume=False, compare=True, edition=edition)
    outcome = await RegionWorkshop(pool, windows).compute(entry, options, progress)
    seconds = time.perf_counter() - t0
    progress("", 0, 0)
    result, compared = outcome.result, outcome.compared
    assert compared is not None
    row = {
        "edition": edition.value,
        "item": entry.item.id,
        "mode": mode,
        "seconds": round(seconds, 1),
        "drags": result.drags,
        "start_iou": compared["start"]["iou"],
        "end_iou": compared["end"]["iou"],
        "phases": {k: round(v, 1) for k, v in phases.items()},
    }
    dragging = seconds - phases.get("set-up", 0.0)
    print(
        f"{edition.value} {row['item']} ({mode}): {row['seconds']:5.1f} s, "
        f"{row['drags']:3d} drags, "
        f"start IoU {row['start_iou']:.3f}, end IoU {row['end_iou']:.3f}; "
        + ", ".join(f"{k} {v:.1f} s" for k, v in row["phases"].items())
        + f"; {dragging / max(1, result.drags):.2f} s per drag after set-up",
        file=sys.stderr,
    )
    return row


async def run(
    editions: list[Edition], pages: int, only: set[str], cold: bool, checkout: Path | None = None
) -> list[dict[str, Any]]:
    rows = []
    async with BrowserPool(spares=0) as pool:
        assert pool.server is not None
        for edition in editions:
            with tempfile.TemporaryDirectory() as tmp:
                import_checkout(checkout or CHECKOUTS[edition], Path(tmp))
                entries = scan_items(Path(tmp) / "diagnostics" / "drag")
                entries = [e for e in entries if not only or e.item.id in only]
                if cold:
                    for entry in entries:
                        rows.append(await one(pool, entry, pages, None, "cold", edition))
                t0 = time.perf_counter()
                windows = list(
                    await asyncio.gather(
                        *(open_window(pool.context, pool.server, edition) for _ in range(pages))
                    )
                )
                print(
                    f"{edition.value}: opened {pages} shared windows in "
                    f"{time.perf_counter() - t0:.1f} s",
                    file=sys.stderr,
                )
                try:
                    for entry in entries:
                        rows.append(await one(pool, entry, pages, windows, "warm", edition))
                finally:
                    for w in windows:
                        await w.close()
    return rows


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for edition in sorted({r["edition"] for r in rows}):
        mine = [r for r in rows if r["edition"] == edition]
        part: dict[str, Any] = {"items": len({r["item"] for r in mine})}
        for mode in ("cold", "warm"):
            seconds = [r["seconds"] for r in mine if r["mode"] == mode]
            if seconds:
                part[f"{mode}_worst_seconds"] = max(seconds)
                part[f"{mode}_mean_seconds"] = round(statistics.mean(seconds), 1)
        part["min_start_iou"] = min(r["start_iou"] for r in mine)
        part["min_end_iou"] = min(r["end_iou"] for r in mine)
        out[edition] = part
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--editions", default="current,classic")
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=[], help="item ids to run")
    parser.add_argument("--no-cold", action="store_true", help="only the warm pass")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--checkout", type=Path, help="a checkout of classic items to run")
    args = parser.parse_args()
    editions = [Edition.parse(e.strip()) for e in args.editions.split(",") if e.strip()]
    if args.checkout:
        editions = [Edition.CLASSIC]
    rows = asyncio.run(run(editions, args.pages, set(args.only), not args.no_cold, args.checkout))
    summary = summarize(rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
        return
    print("published-style items, target < 20 s per item, side by side:")
    for edition, part in summary.items():
        cold = (
            f"cold worst {part['cold_worst_seconds']} s, mean {part['cold_mean_seconds']} s; "
            if "cold_worst_seconds" in part
            else ""
        )
        print(
            f"  {edition:<8} {part['items']} items: {cold}warm worst "
            f"{part['warm_worst_seconds']} s, mean {part['warm_mean_seconds']} s; lowest IoU "
            f"start {part['min_start_iou']:.3f}, end {part['min_end_iou']:.3f}"
        )


if __name__ == "__main__":
    main()
