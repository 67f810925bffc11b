"""Evaluations through Ray (`--ray`) against the local browser pool, measured in one run.

1. Overhead: the golden project of one task evaluated one at a time, N times, by the local
   pool and by a one-node Ray cluster on this machine (warm browsers on both sides); the
   difference of the mean wall times is what going through Ray costs per evaluation.
2. Throughput: M evaluations, as many at once as the workers take, by the local pool, and by
   a cluster of 1 and of 2 worker nodes on this machine (`ray.cluster_utils.Cluster`, a head
   without CPUs). Every node of a one-machine cluster shares the same cores, so this shows
   Ray's cost at the same work, not the gain of real extra machines; the figures end with
   the core-seconds one evaluation needs, from which docs/cluster.md derives N nodes.

Usage: .venv/bin/python bench/bench_ray.py [--task tasks/<id>] [--n 20] [--m 40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.models.evaluation import Clock  # noqa: E402
from studio.services.core.store import TaskFolder, load_task  # noqa: E402
from studio.services.distributed.cluster import RayCluster  # noqa: E402
from studio.services.distributed.evaluations import ClusterEvaluator  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.evaluator import Evaluates, Evaluator  # noqa: E402

MB = 1024 * 1024
PER_NODE = 2  # evaluations at once per worker node, as `--workers 2`


async def one_at_a_time(evaluator: Evaluates, task: TaskFolder, n: int) -> list[float]:
    walls = []
    for seed in range(n + 1):
        t0 = time.perf_counter()
        result = await evaluator.evaluate(task, clock=Clock.VIRTUAL, seed=seed)
        assert result.ok, result.error
        walls.append(time.perf_counter() - t0)
    return walls[1:]  # the first warms the page and the code cache


async def all_at_once(evaluator: Evaluates, task: TaskFolder, m: int, width: int) -> float:
    gate = asyncio.Semaphore(width)

    async def one(seed: int) -> None:
        async with gate:
            result = await evaluator.evaluate(task, clock=Clock.VIRTUAL, seed=seed)
            assert result.ok, result.error

    await asyncio.gather(*(one(s) for s in range(width)))  # warm every page slot
    t0 = time.perf_counter()
    await asyncio.gather(*(one(s) for s in range(m)))
    return m / (time.perf_counter() - t0)


async def local(task: TaskFolder, n: int, m: int) -> tuple[list[float], float]:
    async with BrowserPool(spares=PER_NODE) as pool:
        evaluator = Evaluator(pool)
        return await one_at_a_time(evaluator, task, n), await all_at_once(
            evaluator, task, m, PER_NODE
        )


async def on_cluster(address: str, task: TaskFolder, n: int, m: int) -> tuple[list[float], float]:
    async with RayCluster(address, PER_NODE) as cluster:
        assert cluster.dispatcher is not None
        evaluator = ClusterEvaluator(cluster.dispatcher)
        walls = await one_at_a_time(evaluator, task, n) if n else []
        width = cluster.dispatcher.capacity
        return walls, await all_at_once(evaluator, task, m, width)


def start_cluster(nodes: int) -> Any:
    from ray.cluster_utils import Cluster

    env = {"PYTHONPATH": str(ROOT)}
    args: dict[str, Any] = {"object_store_memory": 80 * MB, "env_vars": env}
    cluster = Cluster(
        initialize_head=True, head_node_args={**args, "num_cpus": 0, "include_dashboard": False}
    )
    for _ in range(nodes):
        cluster.add_node(num_cpus=1, **args)
    cluster.wait_for_nodes()
    return cluster


def ms(values: list[float]) -> str:
    mean, median = 1000 * statistics.mean(values), 1000 * statistics.median(values)
    return f"{mean:.0f} ms (median {median:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", type=Path, default=ROOT / "tasks" / "compute_sum_to_n")
    parser.add_argument("--n", type=int, default=20, help="evaluations one at a time")
    parser.add_argument("--m", type=int, default=40, help="evaluations for throughput")
    args = parser.parse_args()
    task = load_task(args.task)
    print(f"task {task.task.id}; {os.cpu_count()} cores; load before: {os.getloadavg()[0]:.1f}")

    local_walls, local_rate = asyncio.run(local(task, args.n, args.m))
    rates = {"local pool": local_rate}
    ray_walls: list[float] = []
    for nodes in (1, 2):
        cluster = start_cluster(nodes)
        try:
            walls, rate = asyncio.run(
                on_cluster(cluster.address, task, args.n if nodes == 1 else 0, args.m)
            )
        finally:
            cluster.shutdown()
        ray_walls = ray_walls or walls
        rates[f"Ray, {nodes} node{'s' if nodes > 1 else ''}"] = rate

    extra = statistics.mean(ray_walls) - statistics.mean(local_walls)
    print(f"\none evaluation at a time ({args.n} each, warm):")
    print(f"  local pool            {ms(local_walls)}")
    print(f"  Ray, 1 node           {ms(ray_walls)}")
    ratio = statistics.mean(ray_walls) / statistics.mean(local_walls)
    print(f"  overhead through Ray  {1000 * extra:+.0f} ms per evaluation ({ratio:.2f}x)")
    print(f"\nthroughput ({args.m} evaluations, {PER_NODE} at once per node):")
    for name, rate in rates.items():
        print(f"  {name:<20}  {rate:.2f} evaluations/s")
    core_s = (os.cpu_count() or 1) / local_rate
    print(
        f"\none evaluation costs about {core_s:.2f} core-seconds here (cores / local rate); "
        f"load after: {os.getloadavg()[0]:.1f}.\nOn one machine every node shares the same "
        "cores: extra nodes add Ray's cost and browsers, not CPU, so the rate is bounded by "
        "the cores (and by the other processes on them), not by Ray."
    )


if __name__ == "__main__":
    main()
