"""The forge's "Done when" run at the scale of the sets (issue 40), in one run, through the CLI.

1. `studio forge` on the bundled library (tasks/) and on a sample of the 83-task
   published-style set (tests/helpers/published_set, imported with `studio import
   scratchworld`; `--published N` goldens spread over it, every (83 // N)-th, all 83 with
   `--published 83`), R seeded reruns, into two fresh libraries.
2. An independent `studio check --mutants 0` of every forged task, in a new process, with
   seeds the forge never used (`--check-seed`): per task, the golden passes in every run, the
   initial (bugged) program fails in every run, and the reruns agree (no flaky test).
3. `studio run FORGED --mode patch --agent oracle` and `--agent idle`: the oracle (each task's
   inverse patch) must solve every forged task, the idle agent none.
4. The mechanisms of the kept bugs across both sets (the issue wants at least 5 of the 8).
5. The speed figure on the published sample: validated bugs per minute and seconds per
   candidate run (forge time, the browser's start left out), the share of each phase and the
   phase that limits the forge.

Every step prints its figures and the tasks that fail it; the last lines say PASS or FAIL per
criterion. The machine may be shared: times are noisy (the load averages are printed).

On a busy machine the steps can be run apart on one `--work` folder: `--steps forge --sets
published` forges (and prints the speed figure of) the published-style sample alone; a later
`--steps check,runs` checks and plays the libraries forged there. A forge into a library that
holds tasks already goes on where it stopped (`studio forge` keeps what it wrote), and the
imported published-style set is reused.

Usage:
  .venv/bin/python bench/bench_forge_set.py [--published 10] [--bundled tasks]
      [--reruns 5] [--per-golden 2] [--tries 20] [--workers 2] [--check-seed 100]
      [--work DIR] [--steps forge,check,runs] [--sets bundled,published]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MECHANISMS = 8


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def studio(*args: str, quiet: bool = True) -> subprocess.CompletedProcess[str]:
    """`studio ARGS` in a new process; stdout captured, stderr shown unless quiet."""
    return subprocess.run(
        [sys.executable, "-m", "studio", *args],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if quiet else None,
        check=False,
    )


def sample(library: Path, n: int) -> list[Path]:
    """`n` task folders spread over `library` (every k-th, in id order)."""
    from studio.services.core.store import scan_library

    entries = [t for t in scan_library(library).tasks if t.task.golden_project]
    every = max(1, len(entries) // max(1, n))
    return [t.folder for t in entries[::every][:n]]


def forge(name: str, paths: list[Path], out: Path, args: argparse.Namespace) -> dict[str, Any]:
    """`studio forge PATHS --out OUT --json`: the outcomes and the wall time of the process."""
    t0 = time.perf_counter()
    done = studio(
        "forge",
        *map(str, paths),
        "--out",
        str(out),
        "--per-golden",
        str(args.per_golden),
        "--reruns",
        str(args.reruns),
        "--tries",
        str(args.tries),
        "--workers",
        str(args.workers),
        "--json",
    )
    wall = time.perf_counter() - t0
    if not done.stdout.strip():
        raise SystemExit(f"{name}: studio forge printed nothing (exit {done.returncode})")
    outcomes = json.loads(done.stdout)
    print(f"\n== forge: {name} ({len(paths)} goldens) exit {done.returncode}, {wall:.0f} s")
    for o in outcomes:
        rejected = ", ".join(f"{n} {r}" for r, n in sorted(o["rejected"].items()))
        mechs = ", ".join(r["mechanism"] for r in o["records"].values())
        print(
            f"  {o['golden']}: tried {o['tried']}, run {o['candidates_run']}, kept {o['kept']}"
            f"{' (' + mechs + ')' if mechs else ''}"
            f"{'; rejected: ' + rejected if rejected else ''}"
            f"{'; ERROR ' + o['error'] if o['error'] else ''} ({o['seconds']:.0f} s)"
        )
    return {"outcomes": outcomes, "wall": wall}


def speed(name: str, outcomes: list[dict[str, Any]]) -> None:
    kept = sum(o["kept"] for o in outcomes)
    run = sum(o["candidates_run"] for o in outcomes)
    secs = sum(o["seconds"] for o in outcomes)
    phases: Counter[str] = Counter()
    for o in outcomes:
        phases.update(o["phases"])
    print(f"\n== speed: {name}, {len(outcomes)} goldens")
    print(
        f"forge time {secs:.0f} s; {kept} validated bugs: "
        f"{kept / max(secs, 1e-9) * 60:.2f} per minute"
    )
    print(
        f"{run} candidates run: {secs / max(1, run):.2f} s per candidate "
        f"({sum(o['evaluations'] for o in outcomes)} evaluations)"
    )
    total = sum(phases.values()) or 1.0
    for phase, s in phases.most_common():
        print(f"  {phase:<10} {s:7.1f} s  {s / total:5.1%}")
    if phases:
        print(f"limited by: {phases.most_common(1)[0][0]}")


def check(libraries: list[Path], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The independent check: task id -> its JSON entry."""
    t0 = time.perf_counter()
    done = studio(
        "check",
        *map(str, libraries),
        "--mutants",
        "0",
        "--reruns",
        str(args.reruns),
        "--seed",
        str(args.check_seed),
        "--workers",
        str(args.workers),
        "--no-record",
        "--json",
    )
    if not done.stdout.strip():
        raise SystemExit(f"studio check printed nothing (exit {done.returncode})")
    tasks = {t["id"]: t for t in json.loads(done.stdout)["tasks"]}
    print(
        f"\n== independent check (seeds {args.check_seed}..{args.check_seed + args.reruns - 1}, "
        f"R={args.reruns}): {len(tasks)} tasks, exit {done.returncode}, "
        f"{time.perf_counter() - t0:.0f} s"
    )
    golden = sum(bool(t["golden_passed"]) for t in tasks.values())
    initial = sum(bool(t["initial_failed"]) for t in tasks.values())
    steady = sum(not t["flaky"] for t in tasks.values())
    valid = sum(t["verdict"] == "valid" for t in tasks.values())
    print(f"golden passes {golden}/{len(tasks)}, initial fails {initial}/{len(tasks)}, ")
    print(f"reruns agree {steady}/{len(tasks)}, verdict valid {valid}/{len(tasks)}")
    for tid, t in sorted(tasks.items()):
        if t["verdict"] != "valid":
            print(f"  NOT VALID {tid}: {t['verdict']}: {'; '.join(t['errors'])} {t['flaky']}")
    return tasks


def episodes(
    agent: str, libraries: list[Path], runs: Path, workers: int
) -> dict[str, dict[str, Any]]:
    """`studio run LIBS --mode patch --agent AGENT`: task id -> its results.jsonl line."""
    out = runs / agent
    t0 = time.perf_counter()
    done = studio(
        "run",
        *map(str, libraries),
        "--agent",
        agent,
        "--mode",
        "patch",
        "--workers",
        str(workers),
        "--out",
        str(out),
    )
    found = sorted(out.glob("*/results.jsonl"))
    if not found:
        raise SystemExit(f"studio run --agent {agent} wrote no results (exit {done.returncode})")
    lines = [json.loads(x) for x in found[-1].read_text(encoding="utf-8").splitlines() if x]
    by_task = {line["task"]: line for line in lines}
    solved = sum(line["success"] for line in lines)
    print(
        f"\n== studio run --mode patch --agent {agent}: solved {solved}/{len(by_task)}, "
        f"exit {done.returncode}, {time.perf_counter() - t0:.0f} s"
    )
    d_edit = [x["repair"]["d_edit"] for x in lines if x.get("repair", {}).get("d_edit") is not None]
    drift = [x["repair"]["drift"] for x in lines if x.get("repair", {}).get("drift") is not None]
    if d_edit:
        print(f"d_edit mean {sum(d_edit) / len(d_edit):.2f} over {len(d_edit)} episodes")
    if drift:
        print(f"drift mean {sum(drift) / len(drift):.3f} over {len(drift)} episodes")
    for tid, line in sorted(by_task.items()):
        if line["success"] == (agent == "idle"):
            print(f"  {'SOLVED' if line['success'] else 'NOT SOLVED'} {tid}: {line['failure']}")
    return by_task


def mechanisms(libraries: list[Path]) -> Counter[str]:
    found: Counter[str] = Counter()
    for lib in libraries:
        for bug in lib.glob("*/bug.json"):
            found[json.loads(bug.read_text(encoding="utf-8"))["mechanism"]] += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--published", type=int, default=10, help="published-style goldens")
    parser.add_argument("--bundled", type=Path, default=ROOT / "tasks")
    parser.add_argument("--reruns", type=int, default=5)
    parser.add_argument("--per-golden", type=int, default=2)
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check-seed", type=int, default=100)
    parser.add_argument("--work", type=Path, help="keep the libraries and runs here")
    parser.add_argument("--steps", default="forge,check,runs", help="of forge, check, runs")
    parser.add_argument("--sets", default="bundled,published", help="of bundled, published")
    args = parser.parse_args()
    steps, sets = set(args.steps.split(",")), set(args.sets.split(","))
    from bench.bench_pages import published_library

    with tempfile.TemporaryDirectory(prefix="bench-forge-set-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        before = load()
        bundled_out, published_out = work / "forged-bundled", work / "forged-published"
        pairs = ((bundled_out, "bundled"), (published_out, "published"))
        forged = [out for out, name in pairs if name in sets]
        if "forge" in steps and "bundled" in sets:
            b = forge("bundled library", [args.bundled], bundled_out, args)
            speed(f"bundled library, R={args.reruns}, K={args.tries}", b["outcomes"])
        if "forge" in steps and "published" in sets:
            lib = work / "lib"
            published = sample(lib if lib.is_dir() else published_library(work), args.published)
            name = f"published-style sample {len(published)} of 83"
            p = forge(name, published, published_out, args)
            speed(f"published-style sample, R={args.reruns}, K={args.tries}", p["outcomes"])
        libraries = [lib for lib in forged if any(lib.glob("*/bug.json"))]
        if not ({"check", "runs"} & steps):
            print(f"\nload average {before} -> {load()}")
            return 0
        ids = sorted(f.parent.name for lib in libraries for f in lib.glob("*/bug.json"))
        counts = ", ".join(f"{x.name} {len(list(x.glob('*/bug.json')))}" for x in libraries)
        print(f"\nforged tasks: {len(ids)} ({counts})")
        mechs = mechanisms(libraries)
        print(f"\n== mechanisms: {len(mechs)} of {MECHANISMS}: {dict(sorted(mechs.items()))}")
        verdicts = {f"at least 5 of {MECHANISMS} mechanisms": len(mechs) >= 5}
        if "check" in steps:
            checked = check(libraries, args)
            verdicts["every forged task checked valid"] = len(ids) > 0 and all(
                checked.get(t, {}).get("verdict") == "valid" for t in ids
            )
        if "runs" in steps:
            oracle = episodes("oracle", libraries, work / "runs", args.workers)
            idle = episodes("idle", libraries, work / "runs", args.workers)
            verdicts["the oracle solves every forged task"] = all(
                oracle.get(t, {}).get("success") for t in ids
            )
            verdicts["the idle agent solves none"] = not any(
                idle.get(t, {}).get("success", True) for t in ids
            )
        print(f"\nload average {before} -> {load()}")
        for what, ok in verdicts.items():
            print(f"{'PASS' if ok else 'FAIL'}: {what}")
        return 0 if all(verdicts.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
