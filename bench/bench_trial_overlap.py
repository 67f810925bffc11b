"""Trial drags with the baseline check overlapping the mouse's way to the start, against the
same trials made one step after the other, side by side in one run.

A trial drag (studio/services/diagnostics/drag/page.py, `TrialPage.trial`) moves the mouse
to the start, checks that the page is at the item's baseline (`ready`), presses, moves, releases
and reads the verdict (`finish`). Each is a round trip to the page; the check now runs while
the mouse goes to the start. This bench sets up one published-style item on `--pages` editor
windows and runs the same batch of start and end trials (a start trial: grab point of the
stored start region to an empty spot; an end trial: the item's grab point to a stored end
point, with the steps the replay keeps) alternately with the sequential trial (the former
code, kept here) and the current one, `--rounds` times, and prints the ms per trial of each
and the ratio current / sequential, and per batch how many verdicts disagree with the stored
regions.

    .venv/bin/python bench/bench_trial_overlap.py [--item T2_103] [--pages 1] [--rounds 3]
        [--checkout tests/fixtures/scratchworld_grab]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.services.diagnostics.drag.item import scan_items  # noqa: E402
from studio.services.diagnostics.drag.page import TrialPage, TrialPages, Verdict  # noqa: E402
from studio.services.diagnostics.drag.regions import choose_destination  # noqa: E402
from studio.services.diagnostics.drag.replay import needed_steps  # noqa: E402
from studio.services.formats.scratchworld.checkout import import_checkout  # noqa: E402
from studio.services.runtime import page_scripts  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.editions import Edition  # noqa: E402
from studio.services.runtime.page_scripts import DRAG  # noqa: E402
from tests.helpers.published_grab import FIXTURE  # noqa: E402

CURRENT = TrialPage.trial


async def sequential(
    self: TrialPage,
    start: tuple[float, float],
    end: tuple[float, float],
    steps: Sequence[int] | None = None,
) -> Verdict:
    """The trial as it was: the move to the start, then the baseline check."""
    page = self.page
    await page.mouse.move(start[0], start[1])
    if not await self.ready():
        await self._reload()
        await page.mouse.move(start[0], start[1])
        await self.ready()
    await page.mouse.down()
    try:
        n = self.steps
        for i in steps or range(1, n + 1):
            f = i / n
            await page.mouse.move(
                start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
            )
    finally:
        await page.mouse.up()
    self.drags += 1
    out = await page_scripts.call(page, DRAG, "finish", self.spec)
    return Verdict(bool(out.get("moved")), bool(out.get("connected")))


async def run(checkout: Path, item_id: str, pages: int, rounds: int) -> None:
    async with BrowserPool(spares=0) as pool:
        assert pool.server is not None
        with tempfile.TemporaryDirectory() as tmp:
            import_checkout(checkout, Path(tmp))
            entries = {e.item.id: e for e in scan_items(Path(tmp) / "diagnostics" / "drag")}
            entry = entries[item_id]
            cfg = entry.item.evaluation_config
            assert cfg.drag_start_point is not None
            grab = (float(cfg.drag_start_point[0]), float(cfg.drag_start_point[1]))
            async with TrialPages(
                pool.context, pool.server, entry, pages, None, Edition.CLASSIC
            ) as tp:
                while len(tp.pages) < pages:  # every window set up before timing
                    await asyncio.sleep(0.1)
                lead = tp.lead()
                snap = await lead.ask("snapTargets", lead.spec)
                dest = await choose_destination(tp, tp.geometry)
                starts = [(float(x), float(y)) for x, y in cfg.feasible_start_points[::7][:15]]
                ends = [(float(x), float(y)) for x, y in cfg.feasible_points[::5][:15]]
                jobs: list[Any] = [(p, dest, (tp.steps,)) for p in starts]
                jobs += [(grab, p, needed_steps(snap, grab, p, tp.steps)) for p in ends]
                spent = {"sequential": 0.0, "current": 0.0}
                for r in range(rounds):
                    for name, trial in (("sequential", sequential), ("current", CURRENT)):
                        TrialPage.trial = trial  # type: ignore[method-assign]
                        t0 = time.perf_counter()
                        out = await tp.run(jobs)
                        spent[name] += time.perf_counter() - t0
                        wrong = sum(1 for v in out[: len(starts)] if not v.moved)
                        wrong += sum(1 for v in out[len(starts) :] if not v.connected)
                        print(
                            f"round {r} {name}: {time.perf_counter() - t0:.1f} s for "
                            f"{len(jobs)} trials, {wrong} against the stored regions",
                            file=sys.stderr,
                        )
                TrialPage.trial = CURRENT  # type: ignore[method-assign]
    count = rounds * len(jobs)
    seq, cur = spent["sequential"] / count * 1000, spent["current"] / count * 1000
    print(
        f"{item_id} on {pages} window(s), {count} trials each: sequential {seq:.0f} ms per "
        f"trial, overlapped {cur:.0f} ms; ratio {cur / seq:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--item", default="T2_103")
    parser.add_argument("--pages", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checkout", type=Path, default=FIXTURE)
    args = parser.parse_args()
    asyncio.run(run(args.checkout, args.item, args.pages, args.rounds))


if __name__ == "__main__":
    main()
