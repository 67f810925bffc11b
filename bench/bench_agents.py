"""Many composite agents on one `studio serve`: 1, 4 and 8 agents side by side in one run.

Starts `studio serve` as a user does (a process of its own, recording to a temporary folder),
then for each agent count N (default 1, 4, 8, in that order, after one unmeasured warm-up
agent) opens N composite episodes and, once all are open, lets N client threads (one
keep-alive connection each) step them at once: a step is an observation followed by an
`add_block` (the agent "observing and adding a block"), `--steps` of them, then `done`.

Printed per count: steps per second over the round (first step to last), the per-step latency
(observation + action, median and p95), the throughput and p95 against the lone agent's, and
the CPU seconds each part of the server used per wall second (the server's Python process,
the Chromium renderers: pages, the GPU and browser processes), read from /proc. Every
episode's steps are checked intact: the server's summary counts them, steps.jsonl holds
indexes 1..steps+1 all ok, and the final observation shows one more block per step.

Load-independent figures (CPU time hardly depends on what else runs on the machine):
- CPU per step: the CPU seconds the server's whole process tree used over the round (the
  server and every Chromium process under it, children that ended included: /proc/<pid>/stat
  utime + stime + cutime + cstime, bench/suite_cost.ProcessTree) divided by the steps taken;
  `cores / CPU per step` is the most steps per second the machine could give that server
  (the ceiling printed);
- a waiting page's CPU: `--idle N` episodes (default 8) open, their agents silent for
  `--idle-s` seconds (default 10): the tree's CPU over that time, and per page once the
  server's own (measured over as long with no episode open) is taken off; then the same with
  each program running (the palette's `when loudness > 10` hat added: the VM checks it at every
  step and the editor counts the project as running, while nothing on the stage changes).

The machine's load average is printed before and after each round: wall timings on a shared
machine are noisy; the ratios between the counts, measured in one run, and the CPU figures
are the ones to read.
Target (issue 39, point 4): 8 agents >= 1.8x one agent's steps/s, p95 <= 4x the lone agent's.

Usage: .venv/bin/python bench/bench_agents.py [--agents 1,4,8] [--steps 16] [--task ID]
       [--checkout DIR ...]   (each checkout's server in turn, in one run: before and after)
       [--spy SECONDS]   (py-spy the server during the largest round, if py-spy is on PATH
                          or in the venv; the top frames are printed)
       [--idle N] [--idle-s SECONDS]   (the waiting pages' CPU; --idle 0 skips it)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_api import Client  # noqa: E402  (one keep-alive connection with the bench token)
from bench_idle import tree_cpu  # noqa: E402  (CPU seconds of a process and its descendants)
from suite_cost import ProcessTree  # noqa: E402  (the same, children that ended included)

TOKEN = "bench"  # bench_api.Client sends this one
BLOCKS = ("motion_movesteps", "motion_turnright", "looks_show", "sound_playuntildone")
P95_TARGET, THROUGHPUT_TARGET = 4.0, 1.8


def start_server(out: Path, checkout: Path) -> tuple[subprocess.Popen[str], int]:
    """`studio serve --port 0` of `checkout` (its own .venv's Python, if it has one)
    recording to `out`; (the process, its port)."""
    env = dict(os.environ, STUDIO_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
    python = checkout / ".venv" / "bin" / "python"
    python = python if python.exists() else Path(sys.executable)
    cmd = [str(python), "-m", "studio", "serve", "--port", "0", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=checkout, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("serving the agent API on "):
            url = line.split(" on ", 1)[1].split()[0]
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain
            return proc, int(url.rsplit(":", 1)[1].rstrip("/"))
    raise SystemExit(f"studio serve did not start (exit code {proc.wait()})")


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[18] if len(samples) > 1 else samples[0]


class Agent:
    """One composite agent on its own connection: observe, add a block, `steps` times."""

    def __init__(self, port: int, task: str, steps: int) -> None:
        self.client = Client(port)
        self.task, self.steps = task, steps
        self.latencies: list[float] = []
        self.problems: list[str] = []

    def open(self) -> None:
        status, created = self.client("POST", "/episodes", {"task": self.task, "mode": "composite"})
        if status != 201:
            raise RuntimeError(f"episode not created: {status} {created}")
        self.path = f"/episodes/{created['id']}"
        self.blocks_at_start = len(self.call("GET", f"{self.path}/observation")["blocks"])

    def call(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.client(method, path, body)
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return answer

    def run(self) -> None:
        for i in range(self.steps):
            t0 = time.perf_counter()
            self.call("GET", f"{self.path}/observation")
            action = {"api": "add_block", "args": {"blockType": BLOCKS[i % len(BLOCKS)]}}
            step = self.call("POST", f"{self.path}/actions", action)
            self.latencies.append(time.perf_counter() - t0)
            if not step["ok"] or step["index"] != i + 1:
                self.problems.append(f"step {i + 1}: {step}")
        self.call("POST", f"{self.path}/actions", {"api": "done"})

    def check(self, out: Path) -> None:
        """Are the steps intact: summary, final observation and steps.jsonl?"""
        summary = self.call("GET", self.path)
        if summary["steps"] != self.steps + 1 or summary["status"] != "done":
            self.problems.append(f"summary {summary}")
        blocks = len(self.call("GET", f"{self.path}/observation")["blocks"])
        if blocks != self.blocks_at_start + self.steps:
            self.problems.append(f"{blocks} blocks, expected {self.blocks_at_start + self.steps}")
        folder = next(out.rglob(f"*-{self.path.rsplit('/', 1)[1]}"), None)
        lines = (folder / "steps.jsonl").read_text().splitlines() if folder else []
        records = [json.loads(line) for line in lines]
        if [r["index"] for r in records] != list(range(1, self.steps + 2)):
            self.problems.append(f"steps.jsonl indexes {[r['index'] for r in records]}")
        self.problems += [f"step {r['index']} failed: {r['error']}" for r in records if not r["ok"]]
        self.call("DELETE", self.path)


def cpu_by_part(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]],
                server: int, wall: float) -> str:  # fmt: skip
    """CPU per wall second of the server's parts between two `tree_cpu` readings."""
    parts: dict[str, float] = {}
    renderers = 0
    for pid, (name, cpu) in after.items():
        used = cpu - before.get(pid, (name, 0.0))[1]
        kind = "server" if pid == server else _kind(pid, name)
        renderers += kind == "renderers" and used > 0.05 * wall
        parts[kind] = parts.get(kind, 0.0) + used
    text = ", ".join(f"{k} {v / wall:.2f}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))
    return f"{text} (cores; {renderers} busy renderers)"


def _kind(pid: int, name: str) -> str:
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return name
    if b"--type=renderer" in args:
        return "renderers"
    if b"--type=gpu-process" in args:
        return "gpu"
    return "browser" if b"chrom" in args else name


def round_of(port: int, server: int, task: str, n: int, steps: int, out: Path,
             spy: float) -> dict[str, Any]:  # fmt: skip
    agents = [Agent(port, task, steps) for _ in range(n)]
    for agent in agents:
        agent.open()
    quiet(server)  # the spare editor page the server loads after a start is not counted
    threads = [threading.Thread(target=a.run) for a in agents]
    load = os.getloadavg()[0]
    before = tree_cpu(server)
    tree0 = ProcessTree(server).cpu_s
    t0 = time.perf_counter()
    for thread in threads:
        thread.start()
    spied = _spy(server, spy) if spy else None
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - t0
    tree_cpu_s = ProcessTree(server).cpu_s - tree0
    cpu = cpu_by_part(before, tree_cpu(server), server, wall)
    if spied is not None:
        spied.join()
    for agent in agents:
        agent.check(out)
    latencies = [s for a in agents for s in a.latencies]
    return {
        "n": n, "wall": wall, "rate": len(latencies) / wall, "median": statistics.median(latencies),
        "p95": p95(latencies), "cpu": cpu, "problems": [p for a in agents for p in a.problems],
        "cpu_per_step": tree_cpu_s / len(latencies), "load": (load + os.getloadavg()[0]) / 2,
    }  # fmt: skip


def idle_cost(port: int, server: int, task: str, n: int, seconds: float) -> dict[str, float]:
    """CPU of the server's tree over `seconds` with no episode open, then with `n` composite
    episodes open whose agents send nothing (after they settle), then with each of their
    programs running: the palette's `when loudness > 10` hat added (an edge-activated hat the
    VM checks at every step, which the editor counts as a running project), whose script
    changes nothing on the stage (no microphone: the loudness reads -1)."""
    quiet(server)  # the pages of the last round closing, the spare page loading
    alone = _tree_cpu_over(server, seconds)
    agents = [Agent(port, task, 0) for _ in range(n)]
    for agent in agents:
        agent.open()
    quiet(server)
    crowd = _tree_cpu_over(server, seconds)
    for agent in agents:
        hat = {"api": "add_block", "args": {"blockType": "event_whengreaterthan"}}
        step = agent.call("POST", f"{agent.path}/actions", hat)
        if not step["ok"]:
            raise RuntimeError(f"the hat was not added: {step}")
    quiet(server)
    running = _tree_cpu_over(server, seconds)
    for agent in agents:
        agent.call("DELETE", agent.path)
    return {"n": n, "seconds": seconds, "alone": alone, "open": crowd, "running": running,
            "per_page": (crowd - alone) / max(n, 1),
            "per_running_page": (running - alone) / max(n, 1)}  # fmt: skip


def _tree_cpu_over(server: int, seconds: float) -> float:
    before = ProcessTree(server).cpu_s
    time.sleep(seconds)
    return ProcessTree(server).cpu_s - before


def quiet(server: int, limit_s: float = 30.0) -> None:
    """Wait (at most `limit_s`) until the server's processes use under 0.3 of a core over
    a second, or as much as over the second before (within 0.1: open pages that never rest
    keep a steady cost): the spare page it loads after episodes start is ready."""
    end = time.perf_counter() + limit_s
    last = None
    while time.perf_counter() < end:
        before = ProcessTree(server).cpu_s
        time.sleep(1.0)
        used = ProcessTree(server).cpu_s - before
        if used < 0.3 or (last is not None and abs(used - last) < 0.1):
            return
        last = used


def _spy(pid: int, seconds: float) -> threading.Thread | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("  (py-spy not found: no profile)")
        return None

    def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "spy.txt"
            cmd = [spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-f", "raw"]
            subprocess.run([*cmd, "-o", str(raw)], capture_output=True, check=False)
            _print_top(raw.read_text() if raw.exists() else "")

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _print_top(raw: str) -> None:
    """The functions most often on the server's stacks (self and total), from py-spy's raw."""
    own: dict[str, int] = {}
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        leaf = stack.split(";")[-1]
        own[leaf] = own.get(leaf, 0) + int(count)
    print(f"  py-spy: {total} samples of the server; most frequent leaf frames:")
    for frame, count in sorted(own.items(), key=lambda kv: -kv[1])[:12]:
        print(f"    {count / max(total, 1):6.1%}  {frame[:110]}")


def rounds_of(
    checkout: Path, counts: list[int], args: argparse.Namespace
) -> tuple[list[dict[str, Any]], dict[str, float] | None]:
    """The rounds of one checkout's server, the lone agent's first, and its idle pages' cost."""
    with tempfile.TemporaryDirectory(prefix="bench-agents-") as tmp:
        proc, port = start_server(Path(tmp), checkout)
        try:
            round_of(port, proc.pid, args.task, 1, 3, Path(tmp), 0)  # warm-up, not counted
            rounds = []
            for n in counts:
                spy = args.spy if n == max(counts) else 0
                rounds.append(round_of(port, proc.pid, args.task, n, args.steps, Path(tmp), spy))
            idle = None
            if args.idle > 0:
                idle = idle_cost(port, proc.pid, args.task, args.idle, args.idle_s)
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    return rounds, idle


def report(checkout: Path, rounds: list[dict[str, Any]], idle: dict[str, float] | None) -> bool:
    """Print one checkout's rounds against its lone agent; True when the target is met."""
    lone = rounds[0]
    cores = os.cpu_count() or 1
    print(f"{checkout}:")
    for r in rounds:
        print(
            f"  {r['n']} agent(s): {r['rate']:5.2f} steps/s ({r['rate'] / lone['rate']:.2f}x), "
            f"step median {1000 * r['median']:5.0f} ms, p95 {1000 * r['p95']:5.0f} ms "
            f"({r['p95'] / lone['p95']:.1f}x); {r['wall']:.1f} s; load {r['load']:.1f}; "
            f"steps intact: {'yes' if not r['problems'] else r['problems'][:3]}"
        )
        print(
            f"      CPU per step {1000 * r['cpu_per_step']:.0f} ms (whole tree): ceiling "
            f"{cores / r['cpu_per_step']:.1f} steps/s on {cores} cores; {r['cpu']}"
        )
    if idle is not None:
        print(
            f"  waiting pages: {idle['n']} open, agents silent {idle['seconds']:.0f} s: tree "
            f"{idle['open']:.2f} CPU s ({idle['open'] / idle['seconds']:.3f} cores); none "
            f"open {idle['alone']:.2f} CPU s; per page {idle['per_page'] / idle['seconds']:.4f} "
            "cores"
        )
        print(
            f"  the same with a running project (a `when loudness > 10` hat): tree "
            f"{idle['running']:.2f} CPU s ({idle['running'] / idle['seconds']:.3f} cores); per "
            f"page {idle['per_running_page'] / idle['seconds']:.4f} cores"
        )
    last = rounds[-1]
    ok = last["rate"] / lone["rate"] >= THROUGHPUT_TARGET
    ok = ok and last["p95"] / lone["p95"] <= P95_TARGET
    print(
        f"  target ({last['n']} agents >= {THROUGHPUT_TARGET}x throughput, p95 <= {P95_TARGET}x): "
        f"{'meets' if ok else 'MISSES'}"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="1,4,8", help="agent counts, in order")
    parser.add_argument("--steps", type=int, default=16, help="steps per agent (then done)")
    parser.add_argument("--task", default="create_cat_walk", help="library task id")
    parser.add_argument("--spy", type=float, default=0.0, help="py-spy seconds, largest round")
    parser.add_argument("--idle", type=int, default=8, help="waiting pages measured (0: none)")
    parser.add_argument("--idle-s", type=float, default=10.0, help="seconds they wait")
    parser.add_argument(
        "--checkout",
        type=Path,
        action="append",
        help="a studio checkout whose `studio serve` is measured (repeat to compare, e.g. "
        "main's before this one's; default: this checkout)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.agents.split(",")]
    checkouts = [c.resolve() for c in args.checkout or [ROOT]]
    print(f"load average before: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} cores")
    results = [(c, *rounds_of(c, counts, args)) for c in checkouts]
    print(f"{args.steps} steps (observe + add_block) per agent, then done; task {args.task}")
    for checkout, rounds, idle in results:
        report(checkout, rounds, idle)
    print(f"load average after: {os.getloadavg()[0]:.1f} (1 min)")
    if any(r["problems"] for _, rounds, _ in results for r in rounds):
        sys.exit("some episode's steps were not intact")


if __name__ == "__main__":
    main()
