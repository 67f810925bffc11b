"""CPU per trial drag with the trial pages drawing and with their painting held, and the
verdicts of both side by side (resources/js/trial-paint.js, `TrialPages(painted=...)`).

For each item, on `--pages` editor windows of the item's edition opened once per edition
(the process tree's CPU: Chromium's processes and Playwright's driver, from /proc, as
/work/exp/drag_cpu.py measured it):
1. the window of grid points around each stored region (`feasible_start_points`, and
   `feasible_points` for the item's grab point), grown by `--margin` grid steps, as
   bench/bench_regions.py takes it;
2. exhaustive verification of every point of both windows (`regions.verify_points`: a real
   drag each; start points dropped on an empty spot of the code area, end points from the
   item's grab point) on painted pages, then on held pages (the other way round for every
   other item, so a change of the machine's load falls on both alike);
3. per item: CPU per drag of each way, their ratio, and "verdicts equal N/N" (points whose
   verdict is the same both ways); overall: the same summed, and the load average.

Items (both editor editions): the shipped items (diagnostics/drag, current edition), the
published-style items of tests/fixtures/scratchworld_diag (current) and of
tests/fixtures/scratchworld_grab (classic), each checkout imported into a temporary library
as `studio library import` imports it.

    .venv/bin/python bench/bench_trial_cost.py [--sets shipped,diag,grab] [--only ID...]
        [--per-set 2] [--pages 2] [--margin 1] [--stride 1] [--json]

`--stride 2` verifies every other grid point of each window across and down (a quarter of the
drags) for a quicker run.

The figures are CPU seconds, not wall time: another job on the machine changes them less than
it changes seconds, but it does change them (caches, frequency): compare the two ways of one
run, and read them with the load average printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.services.diagnostics.drag.grid import bbox, window_points  # noqa: E402
from studio.services.diagnostics.drag.item import ItemFolder, load_item, scan_items  # noqa: E402
from studio.services.diagnostics.drag.page import TrialPages, item_edition, open_window  # noqa: E402
from studio.services.diagnostics.drag.regions import (  # noqa: E402
    choose_destination,
    item_grab,
    verify_points,
)
from studio.services.formats.scratchworld.checkout import import_checkout  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.editions import Edition  # noqa: E402

SETS = {  # the edition each set was built on (None: the one its library records)
    "shipped": (ROOT / "diagnostics" / "drag", None),
    "diag": (ROOT / "tests" / "fixtures" / "scratchworld_diag", Edition.CURRENT),
    "grab": (ROOT / "tests" / "fixtures" / "scratchworld_grab", Edition.CLASSIC),
}
Point = tuple[int, int]


def tree_cpu() -> float:
    """CPU seconds (user + system, with reaped children) of this process's descendants."""
    me = os.getpid()
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rfind(")") + 2 :].split()
        cpu = sum(int(fields[i]) for i in (11, 12, 13, 14)) / tick
        procs[int(name)] = (int(fields[1]), cpu)
    total = 0.0
    for pid, (_, cpu) in procs.items():
        p = pid
        while p in procs and p != me:
            p = procs[p][0]
        if p == me and pid != me:
            total += cpu
    return total


def grown_window(points: list[list[int]], grid: int, margin: int, stride: int = 1) -> list[Point]:
    """The grid points of the stored region's box grown by `margin` grid steps, on the page;
    with `stride` > 1 every stride-th one across and down (1: all of them)."""
    box = bbox([(int(p[0]), int(p[1])) for p in points])
    if box is None:
        return []
    m = margin * grid
    pts = window_points(box[0] - m, box[1] - m, box[2] + m, box[3] + m, grid)
    step = grid * max(1, stride)
    return [
        p
        for p in pts
        if 0 <= p[0] < 1280
        and 0 <= p[1] < 720
        and not (p[0] - pts[0][0]) % step
        and not (p[1] - pts[0][1]) % step
    ]


async def verify_both(
    pool: Any,
    windows: list[Any],
    entry: ItemFolder,
    edition: Edition,
    painted: bool,
    margin: int,
    stride: int,
) -> tuple[dict[str, set[Point]], int, float]:
    """Both windows verified on pages that draw (`painted`) or not: the points that succeed
    per kind, the drags made and the process tree's CPU seconds for them."""
    cfg = entry.item.evaluation_config
    out: dict[str, set[Point]] = {}
    drags = 0
    cpu = 0.0
    async with TrialPages(
        pool.context, pool.server, entry, len(windows), windows, edition, painted=painted
    ) as pages:
        destination = await choose_destination(pages, pages.geometry)
        grab = item_grab(entry) or (
            pages.geometry["source_box"]["x"] + 8,
            pages.geometry["source_box"]["y"] + 8,
        )
        for kind, stored in (("start", cfg.feasible_start_points), ("end", cfg.feasible_points)):
            win = grown_window(stored, cfg.grid, margin, stride)
            before = pages.drags
            c0 = tree_cpu()
            out[kind] = await verify_points(pages, win, kind, grab, destination)
            cpu += tree_cpu() - c0
            drags += pages.drags - before
            out[kind + "_window"] = set(win)
    return out, drags, cpu


async def bench_item(
    pool: Any,
    windows: list[Any],
    entry: ItemFolder,
    edition: Edition,
    order: int,
    margin: int,
    stride: int,
) -> dict:
    runs: dict[bool, tuple[dict[str, set[Point]], int, float]] = {}
    ways = (True, False) if order % 2 == 0 else (False, True)
    for painted in ways:
        runs[painted] = await verify_both(pool, windows, entry, edition, painted, margin, stride)
    (p_sets, p_drags, p_cpu), (h_sets, h_drags, h_cpu) = runs[True], runs[False]
    points = 0
    equal = 0
    for kind in ("start", "end"):
        for point in p_sets[kind + "_window"]:
            points += 1
            equal += (point in p_sets[kind]) == (point in h_sets[kind])
    return {
        "id": entry.item.id,
        "edition": edition.value,
        "points": points,
        "equal": equal,
        "painted_drags": p_drags,
        "held_drags": h_drags,
        "painted_cpu_s": round(p_cpu, 2),
        "held_cpu_s": round(h_cpu, 2),
        "painted_ms_per_drag": round(1000 * p_cpu / max(1, p_drags), 1),
        "held_ms_per_drag": round(1000 * h_cpu / max(1, h_drags), 1),
        "start_region": [len(p_sets["start"]), len(h_sets["start"])],
        "end_region": [len(p_sets["end"]), len(h_sets["end"])],
    }


def entries_of(name: str, tmp: Path) -> list[tuple[ItemFolder, Edition]]:
    source, edition = SETS[name]
    if name == "shipped":
        folder = tmp / name
        shutil.copytree(source, folder)
        found = scan_items(folder)
    else:
        import_checkout(source, tmp / name)
        found = scan_items(tmp / name / "diagnostics" / "drag")
    return [(e, edition or item_edition(e)) for e in found]


async def run(args: argparse.Namespace) -> list[dict]:
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bench-trial-cost-") as tmp:
        chosen: list[tuple[ItemFolder, Edition]] = []
        for name in args.sets.split(","):
            found = entries_of(name.strip(), Path(tmp))
            if args.only:
                found = [(e, ed) for e, ed in found if e.item.id in args.only]
            found = [(e, ed) for e, ed in found if e.item.evaluation_config.feasible_points]
            chosen.extend(found[: args.per_set] if args.per_set else found)
        async with BrowserPool(spares=0) as pool:
            server = pool.server
            assert server is not None, "the pool serves the editor once started"
            by_edition: dict[Any, list[Any]] = {}
            for n, (entry, edition) in enumerate(chosen):
                if edition not in by_edition:
                    by_edition[edition] = [
                        await open_window(pool.context, server, edition) for _ in range(args.pages)
                    ]
                t0 = time.perf_counter()
                try:
                    row = await bench_item(
                        pool,
                        by_edition[edition],
                        load_item(entry.path),
                        edition,
                        n,
                        args.margin,
                        args.stride,
                    )
                except Exception as exc:  # a broken item is reported, the others go on
                    row = {"id": entry.item.id, "error": str(exc)}
                row["seconds"] = round(time.perf_counter() - t0, 1)
                rows.append(row)
                print(json.dumps(row), file=sys.stderr)
    return rows


def print_table(rows: list[dict], load: tuple[list[float], list[float]]) -> None:
    print(
        f"{'item':<28} {'edition':<8} {'drags':>6} {'painted ms/drag':>15} "
        f"{'held ms/drag':>12} {'held/painted':>12}  verdicts"
    )
    good = [r for r in rows if "error" not in r]
    for r in rows:
        if "error" in r:
            print(f"{r['id']:<28} error: {r['error']}")
            continue
        ratio = r["held_ms_per_drag"] / r["painted_ms_per_drag"] if r["painted_ms_per_drag"] else 0
        print(
            f"{r['id']:<28} {r['edition']:<8} {r['painted_drags']:>6} "
            f"{r['painted_ms_per_drag']:>15.1f} {r['held_ms_per_drag']:>12.1f} "
            f"{ratio:>12.2f}  equal {r['equal']}/{r['points']} (succeeded: start "
            f"{r['start_region'][0]}, end {r['end_region'][0]})"
        )
    for edition in [*sorted({r["edition"] for r in good}), "all"]:
        mine = [r for r in good if edition in ("all", r["edition"])]
        pd = sum(r["painted_drags"] for r in mine)
        hd = sum(r["held_drags"] for r in mine)
        pc = sum(r["painted_cpu_s"] for r in mine)
        hc = sum(r["held_cpu_s"] for r in mine)
        if not pd or not hd:
            continue
        cut = 1 - (hc / hd) / (pc / pd)
        print(
            f"{edition}: {len(mine)} items, CPU per drag painted {1000 * pc / pd:.1f} ms, held "
            f"{1000 * hc / hd:.1f} ms ({cut:.0%} less); verdicts equal "
            f"{sum(r['equal'] for r in mine)}/{sum(r['points'] for r in mine)}"
        )
    print(f"load average at start {load[0]}, at end {load[1]} (2-core machine: see the doc)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="shipped,diag,grab", help="of " + ",".join(SETS))
    parser.add_argument("--only", nargs="*", help="item ids to run")
    parser.add_argument("--per-set", type=int, default=2, help="items per set (0: all)")
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--margin", type=int, default=1, help="window margin in grid steps")
    parser.add_argument("--stride", type=int, default=1, help="every n-th point (1: all)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load0 = [round(x, 2) for x in os.getloadavg()]
    result = asyncio.run(run(args))
    load1 = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps({"items": result, "load": [load0, load1]}, indent=2))
    else:
        print_table(result, (load0, load1))
