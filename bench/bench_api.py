"""Speed of the agent HTTP API, measured in one run.

1. HTTP round-trip overhead per call: `GET /episodes` (no editor work) over one keep-alive
   connection, and per composite observation: its round trip minus the editor work the server
   reports for that same request (`Server-Timing: work;dur=...`), so the figure is the HTTP
   part (parsing, guard, routing, JSON, transfer) whatever the page's own time does.
   The same for the ScratchWorld-compatible routes: get_blocks_pseudocode (the envelope's
   `meta.duration_ms` is the work) and a screenshot (Server-Timing) of a session.
2. Episodes per hour: a scripted agent (add the green-flag hat, then `done`) on every bundled task
   in composite mode through the API, 2 client workers side by side, each episode created,
   stepped, evaluated and deleted over HTTP.
3. Concurrency (`--concurrent N`, default 20): N episodes open at once in one browser, each
   driven by its own client thread (observe, act, repeated `--rounds` times): per-call latency,
   per-episode wall time and the slowest episode against the median (1.0 = no starvation).

Usage: .venv/bin/python bench/bench_api.py [--calls N] [--workers W] [--tasks DIR]
       [--concurrent N] [--rounds R] [--skip-episodes]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.app.serving.agent_api import start_serving  # noqa: E402
from studio.app.serving.options import ServeOptions  # noqa: E402
from studio.services.episodes.manager import EpisodeManager  # noqa: E402

TOKEN = "bench"
CHECKOUT = ROOT / "tests" / "fixtures" / "scratchworld_diag"
SCRIPT = [{"api": "add_block", "args": {"blockType": "event_whenflagclicked"}}, {"api": "done"}]


class Loop:
    """An asyncio loop on a thread, hosting the server as the GUI's loop would."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(600)


class Client:
    """One keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body) if body is not None else None
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed a connection idle for longer than its keep-alive limit
            self.conn.close()
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
        self.last_work_s = _work_s(resp.getheader("Server-Timing"))
        return resp.status, json.loads(resp.read())


def _work_s(header: str | None) -> float | None:
    """The server's own work time of a request, from its `Server-Timing: work;dur=MS`."""
    if not header or "dur=" not in header:
        return None
    return float(header.split("dur=", 1)[1].split(",")[0]) / 1000


def overhead_of(call: Any, n: int, work_of: Any) -> tuple[list[float], list[float]]:
    """Round trips of `call` and, per request, the round trip minus the server's work."""
    trips, extra = [], []
    for _ in range(n):
        t0 = time.perf_counter()
        answer = call()
        trip = time.perf_counter() - t0
        trips.append(trip)
        extra.append(trip - work_of(answer))
    return trips, extra


def ms(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=20) if len(samples) > 1 else samples * 19
    return f"median {1000 * statistics.median(samples):6.2f} ms, p95 {1000 * q[18]:6.2f} ms"


def timed(fn: Any, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def overhead(loop: Loop, manager: EpisodeManager, port: int, calls: int) -> None:
    client = Client(port)
    listing = timed(lambda: client("GET", "/episodes"), calls)
    print(f"GET /episodes (routing, auth, JSON only): {ms(listing)}")
    status, created = client("POST", "/episodes", {"task": "create_cat_walk", "mode": "composite"})
    assert status == 201, created
    ep = manager.get(created["id"])
    n = max(10, calls // 10)
    path = f"/episodes/{ep.id}/observation"
    timed(lambda: client("GET", path), 5)  # warm up
    trips, extra = overhead_of(lambda: client("GET", path), n, lambda _: client.last_work_s)
    print(f"composite observation over HTTP:         {ms(trips)}")
    print(f"HTTP overhead per observation:           {ms(extra)} (round trip - server work)")
    client("DELETE", f"/episodes/{ep.id}")


def sw_overhead(port: int, calls: int) -> None:
    """The published routes' observations: round trip, and round trip minus server work."""
    client = Client(port)
    status, created = client("POST", "/sessions?record=True&quality=medium")
    assert status == 200, created
    sid = created["session_id"]
    client("POST", f"/sessions/{sid}/load_project?project_name=T1_003.sb3")
    n = max(10, calls // 10)
    body = {"api": "get_blocks_pseudocode"}
    for name, call, work_of in (
        (
            "get_blocks_pseudocode",
            lambda: client("POST", f"/sessions/{sid}/composite/execute", body)[1],
            lambda answer: answer["meta"]["duration_ms"] / 1000,
        ),
        (
            "screenshot",
            lambda: client("GET", f"/sessions/{sid}/screenshot?format=base64"),
            lambda _: client.last_work_s,
        ),
    ):
        timed(call, 3)  # warm up
        trips, extra = overhead_of(call, n, work_of)
        print(f"ScratchWorld {name:<22} over HTTP: {ms(trips)}")
        print(f"ScratchWorld {name:<22} overhead:  {ms(extra)} (round trip - server work)")
    client("DELETE", f"/sessions/{sid}")


def concurrent(port: int, tasks: list[str], n: int, rounds: int) -> None:
    """n episodes at once, each observed and acted on `rounds` times by its own client."""
    start = threading.Barrier(n)
    started: list[float] = []
    calls: list[float] = []
    lock = threading.Lock()

    def drive(i: int) -> float:
        client = Client(port)
        task = tasks[i % len(tasks)]
        try:
            status, created = client("POST", "/episodes", {"task": task, "mode": "composite"})
        finally:
            started.append(time.perf_counter() - t_create)
        if status != 201:
            start.abort()  # the others stop waiting
            raise RuntimeError(f"episode {i} was not created: {created}")
        ep = f"/episodes/{created['id']}"
        start.wait(timeout=600)
        t0 = time.perf_counter()
        mine = []
        for r in range(rounds):
            for method, path, body in (
                ("GET", f"{ep}/observation", None),
                (
                    "POST",
                    f"{ep}/actions",
                    {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
                ),
            ):
                c0 = time.perf_counter()
                status, answer = client(method, path, body)
                assert status == 200, (r, answer)
                mine.append(time.perf_counter() - c0)
        wall = time.perf_counter() - t0
        with lock:
            calls.extend(mine)
        client("DELETE", ep)
        return wall

    t_create = time.perf_counter()
    with ThreadPoolExecutor(n) as pool:
        walls = sorted(pool.map(drive, range(n)))
    total = time.perf_counter() - t_create - max(started)
    print(
        f"{n} episodes created at once: all open after {max(started):.1f} s "
        f"(first {min(started):.1f} s)"
    )
    median = statistics.median(walls)
    print(
        f"{n} concurrent episodes x {rounds} rounds (observe + add_block): "
        f"{len(calls)} calls in {total:.1f} s ({len(calls) / total:.1f} calls/s)"
    )
    print(f"  per call: {ms(calls)}, max {1000 * max(calls):.0f} ms")
    print(
        f"  per episode: fastest {walls[0]:.1f} s, median {median:.1f} s, slowest {walls[-1]:.1f} s"
        f" -> slowest/median {walls[-1] / median:.2f} (1.0: no episode starved)"
    )


def one_episode(port: int, task: str) -> tuple[str, bool, float]:
    client = Client(port)
    t0 = time.perf_counter()
    status, created = client(
        "POST", "/episodes", {"task": task, "mode": "composite", "agent": "scripted"}
    )
    assert status == 201, created
    ep = f"/episodes/{created['id']}"
    for action in SCRIPT:
        client("GET", f"{ep}/observation")
        client("POST", f"{ep}/actions", action)
    _, result = client("POST", f"{ep}/evaluate")
    client("DELETE", ep)
    return task, bool(result.get("success")), time.perf_counter() - t0


def episodes_per_hour(port: int, tasks: list[str], workers: int) -> None:
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        done = list(pool.map(lambda t: one_episode(port, t), tasks))
    wall = time.perf_counter() - t0
    for task, ok, secs in done:
        print(f"  {task:<28} {'PASS' if ok else 'fail'} {secs:6.1f} s")
    print(
        f"scripted agent, {len(tasks)} tasks, {workers} workers: {wall:.1f} s wall, "
        f"{3600 * len(tasks) / wall:.0f} episodes/hour"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", type=Path, default=ROOT / "tasks")
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-episodes", action="store_true", help="skip episodes per hour")
    args = parser.parse_args()
    tasks = sorted(p.parent.name for p in args.tasks.rglob("task.json"))
    loop = Loop()
    manager = EpisodeManager(eval_spares=1)
    options = ServeOptions(token=TOKEN, library=args.tasks, scratchworld=CHECKOUT)
    t0 = time.perf_counter()
    loop.run(manager.start())
    served = loop.run(start_serving(options, manager))  # as `studio serve --scratchworld`
    port = served.server.port
    print(f"browser and server up in {time.perf_counter() - t0:.1f} s on {served.url}")
    try:
        overhead(loop, manager, port, args.calls)
        sw_overhead(port, args.calls)
        if args.concurrent:
            concurrent(port, tasks, args.concurrent, args.rounds)
        if not args.skip_episodes:
            episodes_per_hour(port, tasks, args.workers)
    finally:
        loop.run(served.close())
        loop.run(manager.close())


if __name__ == "__main__":
    main()
