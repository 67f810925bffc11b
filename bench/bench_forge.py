"""Forging debug tasks from published-style goldens (issue 40): validated bugs per minute.

Builds the 83-task published-style set (tests/helpers/published_set), imports it with
`studio import scratchworld`, takes N goldens spread over it (every K-th task) and forges them
with R seeded reruns into a fresh library, one browser pool (warm pages shared by the golden
runs, the candidates' reruns and the derived tests). Prints per golden: tried, candidates run,
kept, rejected by reason, error; then the totals: validated bugs per minute of wall time,
seconds per candidate run, the share of wall time per phase (golden validation, candidates on
the golden's own script, tests derived from behaviour) and which phase limits the forge; the
mechanisms of the kept bugs; and the load averages (the machine may be shared: figures are
noisy, compare ratios measured in one run).

Usage:
  .venv/bin/python bench/bench_forge.py [--goldens 10] [--reruns 5] [--per-golden 2]
      [--tries 20] [--workers 2] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.services.core.store import scan_library  # noqa: E402
from studio.services.forge.pipeline import ForgeOptions, forge_golden  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.evaluator import Evaluator  # noqa: E402


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


async def forge_all(entries: list, out: Path, opts: ForgeOptions) -> tuple[list, float]:
    async with BrowserPool(spares=opts.workers) as pool:
        evaluator = Evaluator(pool)
        t0 = time.perf_counter()
        outcomes = [await forge_golden(evaluator, e, out, opts) for e in entries]
        return outcomes, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goldens", type=int, default=10)
    parser.add_argument("--reruns", type=int, default=5)
    parser.add_argument("--per-golden", type=int, default=2)
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from bench.bench_pages import published_library

    with tempfile.TemporaryDirectory(prefix="bench-forge-") as tmp:
        work = Path(tmp)
        library = published_library(work)
        entries = [t for t in scan_library(library).tasks if t.task.golden_project]
        every = max(1, len(entries) // max(1, args.goldens))
        chosen = entries[::every][: args.goldens]
        out = args.out or work / "forged"
        opts = ForgeOptions(
            per_golden=args.per_golden, reruns=args.reruns, tries=args.tries, workers=args.workers
        )
        before = load()
        outcomes, wall = asyncio.run(forge_all(chosen, out, opts))
        kept = sum(o.kept for o in outcomes)
        run = sum(o.candidates_run for o in outcomes)
        phases: Counter[str] = Counter()
        mechs: Counter[str] = Counter()
        for o in outcomes:
            phases.update(o.phases)
            mechs.update(r.mechanism for r in o.records.values())
            rejected = ", ".join(f"{n} {r}" for r, n in sorted(o.rejected.items()))
            print(
                f"{o.golden}: tried {o.tried}, run {o.candidates_run}, kept {o.kept}"
                f"{', rejected: ' + rejected if rejected else ''}"
                f"{'; ' + o.error if o.error else ''} ({o.seconds:.1f} s)"
            )
        print(
            f"\n{len(chosen)} goldens of {len(entries)}, R={args.reruns}, "
            f"per golden {args.per_golden}, K={args.tries}, workers {args.workers}"
        )
        print(f"wall {wall:.1f} s; {kept} validated bugs: {kept / wall * 60:.2f} per minute")
        print(
            f"{run} candidates run: {wall / max(1, run):.2f} s per candidate "
            f"({sum(o.evaluations for o in outcomes)} evaluations)"
        )
        total = sum(phases.values()) or 1.0
        for phase, secs in phases.most_common():
            print(f"  {phase:<10} {secs:7.1f} s  {secs / total:5.1%}")
        if phases:
            print(f"limited by: {phases.most_common(1)[0][0]}")
        print(f"mechanisms kept: {dict(mechs)} ({len(mechs)} of 8)")
        print(f"load average {before} -> {load()}")


if __name__ == "__main__":
    main()
