"""`studio check` of two checkouts side by side in one run: evaluations per minute and verdicts.

The issue-39 speed figure as a user sees it: a first check (a fresh cache, a fresh copy of the
library) of the same library by each checkout's own `studio check` (its own `.venv`, its own
bundles), the checkouts taking turns round by round (A B, then B A, ...) so the machine's load
drifts over both alike. Per run it prints the evaluations, the process's wall time, the
evaluations per minute the check reports (its own clock: from the first page to the last
verdict) and the seconds per evaluation against the published protocol's real time per
evaluation (10.3 s, the issue's figure), and the CPU the check's process tree used per
evaluation (user + sys of `studio check` and of every process under it, Chromium's among them:
this bench is made the subreaper of its descendants, so a process whose parent exited without
waiting for it, as Chromium's renderers do when its zygote goes, is waited for here and its
CPU counted): a figure that depends little on the machine's load, unlike evaluations per
minute; then per checkout the median over the rounds, the
ratio of the last checkout to the first, and whether every task's verdict and every test's
pass/fail is the same in every run of both checkouts.

Sets (`--set`):
  like        the published-like set of bench/published_like.py (scripts of the published
              set's shape: short real-time waits, clones, touching, a colour test, asks)
  published   the 83-task published-style set (tests/helpers/published_set)
  bundled     the bundled library (tasks/)
The library is imported once, by this checkout, and copied afresh for every run.

With `--by-process`, each run also prints its CPU per evaluation by process kind (renderers,
browser, GPU process, Python, Playwright's driver, ...), sampled from /proc
(bench/proc_sampler.py).

Usage:
  .venv/bin/python bench/bench_check_checkouts.py --checkout OLD --checkout NEW
      [--set like|published|bundled] [--mutants 0] [--reruns 1] [--workers 2] [--rounds 2]
      [--by-process]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.proc_sampler import ProcessSampler  # noqa: E402

PUBLISHED_REAL_S = 10.3  # the published protocol's real time per evaluation (issue 39)
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
ORPHANS_WAIT_S = 30.0  # how long the orphans of a finished check may take to exit


def become_subreaper() -> None:
    """Orphaned descendants are reparented to this process (so their CPU can be counted)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise SystemExit(f"prctl(PR_SET_CHILD_SUBREAPER) failed: errno {ctypes.get_errno()}")


def reap_orphans() -> float:
    """Wait for every remaining descendant (orphans reparented here); their user+sys CPU."""
    cpu = 0.0
    deadline = time.monotonic() + ORPHANS_WAIT_S
    while True:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return cpu
        if pid:
            cpu += usage.ru_utime + usage.ru_stime
        elif time.monotonic() > deadline:
            print(f"  (descendants still running after {ORPHANS_WAIT_S:g} s: not counted)")
            return cpu
        else:
            time.sleep(0.05)


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def library(kind: str, work: Path) -> Path:
    """The library to check, made once by this checkout."""
    if kind == "bundled":
        return ROOT / "tasks"
    if kind == "published":
        from bench.bench_pages import published_library

        return published_library(work)
    from bench.published_like import like_library

    return like_library(work)


def verdicts(report: dict[str, Any]) -> dict[str, Any]:
    """Per task: its verdict, its mutants' outcomes, and each test's pass/fail for golden and
    initial."""
    found: dict[str, Any] = {}
    for task in report["tasks"]:
        found[task["id"]] = task["verdict"]
        # each mutant's outcome over its reruns: how many were killed, invalid or equivalent,
        # which survived and which were flaky
        found[f"{task['id']}/mutants"] = [
            task.get(k) if not isinstance(task.get(k), list) else sorted(map(str, task[k]))
            for k in (
                "mutants_total",
                "mutants_killed",
                "mutants_invalid",
                "mutants_equivalent",
                "survivors",
                "flaky",
            )
        ]
        for label in ("golden", "initial"):
            result = task.get(label) or {}
            found[f"{task['id']}/{label}"] = (result.get("success"), result.get("passed_tests"))
            for n, test in enumerate(result.get("details", [])):
                found[f"{task['id']}/{label}/{n}"] = test.get("passed")
    return found


def one_run(checkout: Path, lib: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """`studio check` of a fresh copy of `lib` by `checkout`, from a fresh cache."""
    run = Path(tempfile.mkdtemp(prefix="run-", dir=work))
    copy = run / "lib"
    shutil.copytree(lib, copy)
    python = checkout / ".venv" / "bin" / "python"
    env = {**os.environ, "XDG_CACHE_HOME": str(run / "cache"), "PYTHONPATH": str(checkout)}
    cmd = [str(python), "-m", "studio", "check", str(copy), "--json"]
    cmd += ["--mutants", str(args.mutants), "--reruns", str(args.reruns)]
    cmd += ["--workers", str(args.workers)]
    before = load()
    t0 = time.perf_counter()
    out_path, err_path = run / "stdout", run / "stderr"
    with out_path.open("w") as out, err_path.open("w") as err:
        child = subprocess.Popen(cmd, cwd=checkout, env=env, stdout=out, stderr=err)
        sampler = ProcessSampler(os.getpid()).start() if args.by_process else None
        # wait4 gives the child's rusage, its reaped descendants included (the browser).
        _, status, usage = os.wait4(child.pid, 0)
        kinds = sampler.stop() if sampler else {}
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    cpu = usage.ru_utime + usage.ru_stime + reap_orphans()
    stdout, stderr = out_path.read_text(), err_path.read_text()
    if not stdout.strip():
        raise SystemExit(f"{checkout}: studio check printed nothing ({stderr[-2000:]})")
    report = json.loads(stdout)
    summary = report["summary"]
    evaluations = summary["evaluations"]
    shutil.rmtree(run, ignore_errors=True)
    return {
        "checkout": str(checkout),
        "wall": wall,
        "seconds": summary["seconds"],
        "per_minute": summary["evaluations_per_minute"],
        "evaluations": evaluations,
        "verdicts": verdicts(report),
        "load": f"{before} -> {load()}",
        "exit": child.returncode,
        "cpu": cpu,
        "cpu_per_eval": cpu / evaluations if evaluations else float("nan"),
        "kinds": {k: v / evaluations for k, v in kinds.items()} if evaluations else {},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, action="append", required=True)
    parser.add_argument("--set", choices=("like", "published", "bundled"), default="like")
    parser.add_argument("--mutants", type=int, default=0)
    parser.add_argument("--reruns", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--by-process", action="store_true", help="also the CPU by process kind (sampled)"
    )
    args = parser.parse_args()
    checkouts = [c.resolve() for c in args.checkout]
    become_subreaper()
    with tempfile.TemporaryDirectory(prefix="bench-checkouts-") as tmp:
        work = Path(tmp)
        lib = library(args.set, work)
        runs: list[dict[str, Any]] = []
        for r in range(args.rounds):
            order = checkouts if r % 2 == 0 else checkouts[::-1]
            for checkout in order:
                row = one_run(checkout, lib, args, work)
                runs.append(row)
                print(
                    f"round {r + 1} {checkout.name}: {row['per_minute']:.1f} evaluations/min "
                    f"(check {row['seconds']:.1f} s, process {row['wall']:.1f} s, "
                    f"exit {row['exit']}), CPU {row['cpu']:.1f} s = "
                    f"{1000 * row['cpu_per_eval']:.0f} ms/evaluation, load {row['load']}",
                    flush=True,
                )
                if row["kinds"]:
                    parts = ", ".join(f"{k} {1000 * v:.0f}" for k, v in row["kinds"].items())
                    print(f"  CPU ms per evaluation by process (sampled): {parts}", flush=True)
    print(f"\nset {args.set}, --mutants {args.mutants} --reruns {args.reruns}")
    medians: list[float] = []
    cpus: list[float] = []
    for checkout in checkouts:
        mine = [r for r in runs if r["checkout"] == str(checkout)]
        per_minute = statistics.median(r["per_minute"] for r in mine)
        medians.append(per_minute)
        cpu = statistics.median(r["cpu_per_eval"] for r in mine)
        cpus.append(cpu)
        per_eval = 60 / per_minute if per_minute else float("inf")
        print(
            f"{checkout}: median {per_minute:.1f} evaluations/min, {per_eval:.2f} s each, "
            f"{PUBLISHED_REAL_S / per_eval:.1f}x the published real time per evaluation; "
            f"CPU {1000 * cpu:.0f} ms per evaluation"
        )
    if len(medians) > 1 and medians[0]:
        print(f"ratio last/first: {medians[-1] / medians[0]:.2f}x")
        print(f"CPU per evaluation, first/last: {cpus[0] / cpus[-1]:.2f}x")
    first = runs[0]["verdicts"]
    differ = [
        (r["checkout"], key)
        for r in runs
        for key in sorted(set(first) | set(r["verdicts"]))
        if first.get(key) != r["verdicts"].get(key)
    ]
    print(f"verdicts equal in every run: {not differ} ({len(first)} per run)")
    for checkout, key in differ[:20]:
        print(f"  differs: {checkout}: {key}")
    return 0 if not differ else 1


if __name__ == "__main__":
    raise SystemExit(main())
