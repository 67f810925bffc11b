"""Accelerated (virtual clock) vs real-time evaluation of every bundled golden project.

Prints, for each task, the wall time of one evaluation on each clock and whether the
per-test verdicts agree, then the ratio of total wall times, measured in this one run.
Target (issue 3): at least 5x overall. Usage: .venv/bin/python bench/bench_accel.py [LIBRARY]
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.models.evaluation import Clock  # noqa: E402
from studio.services.core.store import scan_library  # noqa: E402
from studio.services.runtime.browser import BrowserPool, default_spares  # noqa: E402
from studio.services.runtime.clock_agreement import verdicts  # noqa: E402
from studio.services.runtime.evaluator import Evaluator  # noqa: E402


async def main(library: Path) -> None:
    entries = [e for e in scan_library(library).tasks if e.golden_path is not None]
    async with BrowserPool(spares=default_spares()) as pool:
        evaluator = Evaluator(pool)
        await evaluator.evaluate(entries[0], clock=Clock.VIRTUAL)  # warm the code cache
        totals = {Clock.REAL: 0.0, Clock.VIRTUAL: 0.0}
        agree = 0
        print(f"{'task':<36} {'real s':>7} {'virtual s':>9} {'ratio':>6}  verdicts")
        for entry in entries:
            results = {}
            for clock in (Clock.REAL, Clock.VIRTUAL):
                t0 = time.perf_counter()
                results[clock] = await evaluator.evaluate(entry, clock=clock)
                totals[clock] += time.perf_counter() - t0
            real, virtual = results[Clock.REAL], results[Clock.VIRTUAL]
            same = verdicts(real) == verdicts(virtual)
            agree += same
            wall_r, wall_v = real.timings.total_s, virtual.timings.total_s
            print(
                f"{entry.task.id:<36} {wall_r:7.2f} {wall_v:9.2f} {wall_r / wall_v:6.1f}  "
                f"{'same' if same else 'DIFFER'}"
            )
    ratio = totals[Clock.REAL] / totals[Clock.VIRTUAL]
    print(
        f"all {len(entries)} golden projects: real {totals[Clock.REAL]:.1f} s, "
        f"virtual {totals[Clock.VIRTUAL]:.1f} s -> accelerated is {ratio:.1f}x faster "
        f"(target >= 5x); verdicts equal on {agree}/{len(entries)}"
    )


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tasks"))
