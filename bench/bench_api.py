"""Speed of the agent HTTP API, measured in one run.

1. HTTP round-trip overhead per call: `GET /episodes` (no editor work) over one keep-alive
   connection, and a composite observation over HTTP against the same call made in-process.
2. Episodes per hour: a scripted agent (add the green-flag hat, then `done`) on every bundled task
   in composite mode through the API, 2 client workers side by side, each episode created,
   stepped, evaluated and deleted over HTTP.

Usage: .venv/bin/python bench/bench_api.py [--calls N] [--workers W] [--tasks DIR]
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

from studio.services.api import ApiServer  # noqa: E402
from studio.services.env.episode import EpisodeManager  # noqa: E402

TOKEN = "bench"
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
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        return resp.status, json.loads(resp.read())


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
    timed(lambda: (loop.run(ep.observe()), client("GET", path)), 5)  # warm up
    direct: list[float] = []
    over_http: list[float] = []
    for _ in range(n):  # interleaved, so both see the same machine load
        direct += timed(lambda: loop.run(ep.observe()), 1)
        over_http += timed(lambda: client("GET", path), 1)
    extra = statistics.median(over_http) - statistics.median(direct)
    print(f"composite observation in-process:        {ms(direct)}")
    print(f"composite observation over HTTP:         {ms(over_http)}")
    print(f"HTTP overhead per observation:           {1000 * extra:6.2f} ms (median difference)")
    client("DELETE", f"/episodes/{ep.id}")


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
    args = parser.parse_args()
    tasks = sorted(p.parent.name for p in args.tasks.rglob("task.json"))
    loop = Loop()
    manager = EpisodeManager(eval_spares=1)
    server = ApiServer(manager, TOKEN, port=0, library=args.tasks)
    t0 = time.perf_counter()
    loop.run(manager.start())
    loop.run(server.start())
    print(f"browser and server up in {time.perf_counter() - t0:.1f} s on {server.url}")
    try:
        overhead(loop, manager, server.port, args.calls)
        episodes_per_hour(server.port, tasks, args.workers)
    finally:
        loop.run(server.close())
        loop.run(manager.close())


if __name__ == "__main__":
    main()
