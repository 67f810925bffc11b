"""Joining a Ray cluster and placing one studio worker on each usable node.

`RayCluster(address, capacity)` is an async context manager. `address` is `local` (a Ray
instance started here, small: no dashboard, a 128 MB object store, this machine's CPUs) or the
address of a running cluster (`HOST:PORT`, or `auto`). On entry it starts a `StudioWorker`
actor pinned to every live node with CPUs, probes each (Chromium, bundle, a browser that
starts), keeps the ready ones as dispatcher slots and reports the others by name; with no
usable node it raises a StudioError naming each node's problem. On exit it stops the workers
(closing their browsers) and leaves the cluster (a `local` instance stops with it).

Workers run the studio installed on their node. A `local` instance runs this very checkout
(its path is put on the workers' PYTHONPATH).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Any

from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.distributed.dispatch import Dispatcher, WorkerLost
from studio.services.distributed.nodes import NodeCheck, alive_nodes, summary
from studio.services.distributed.worker import StudioWorker

__all__ = [
    "CLOSE_TIMEOUT_S", "LOCAL", "LOCAL_OBJECT_STORE", "PROBE_TIMEOUT_S", "RayCluster", "RaySlot",
    "lost_errors",
]  # fmt: skip

log = logging.getLogger("studio.cluster")

LOCAL = "local"
PROBE_TIMEOUT_S = 120.0
CLOSE_TIMEOUT_S = 20.0
LOCAL_OBJECT_STORE = 128 * 1024 * 1024


def lost_errors() -> tuple[type[BaseException], ...]:
    """Ray's errors that mean the worker or its node is gone (not the job's own failure)."""
    from ray import exceptions as rx

    return (
        rx.RayActorError,
        rx.WorkerCrashedError,
        rx.NodeDiedError,
        rx.ObjectLostError,
        rx.LocalRayletDiedError,
    )


class RaySlot:
    """A worker actor as a dispatcher slot."""

    def __init__(self, name: str, actor: Any, capacity: int) -> None:
        self.name = name
        self.actor = actor
        self.capacity = capacity

    async def call(self, method: str, payload: Any) -> Any:
        import ray

        ref = getattr(self.actor, method).remote(payload)
        try:
            return await ref
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                ray.cancel(ref)
            raise
        except lost_errors() as exc:
            raise WorkerLost(_first_line(exc)) from exc


class RayCluster:
    """The cluster's usable workers, as a `Dispatcher`, for the length of a run."""

    def __init__(self, address: str, capacity: int) -> None:
        self.address = address
        self.capacity = max(1, capacity)
        self.nodes: list[NodeCheck] = []
        self.dispatcher: Dispatcher | None = None
        self._actors: list[Any] = []

    async def __aenter__(self) -> RayCluster:
        self._connect()
        try:
            await self._start_workers()
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        import ray

        if self.dispatcher is not None and self.dispatcher.stats.note():
            log.warning("cluster: %s", self.dispatcher.stats.note())
        closing = [a.close.remote() for a in self._actors]
        if closing:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.gather(*closing), CLOSE_TIMEOUT_S)
        for actor in self._actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)
        self._actors.clear()
        ray.shutdown()

    def _connect(self) -> None:
        import ray

        options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
        if self.address == LOCAL:
            path = os.pathsep.join(
                p for p in (str(paths.PROJECT_ROOT), os.environ.get("PYTHONPATH", "")) if p
            )
            options |= {
                "address": "local",  # a new instance, even when a cluster runs here already
                "num_cpus": os.cpu_count() or 1,
                "object_store_memory": LOCAL_OBJECT_STORE,
                "include_dashboard": False,
                "runtime_env": {"env_vars": {"PYTHONPATH": path}},
            }
        else:
            options["address"] = self.address
        try:
            ray.init(**options)
        except Exception as exc:
            raise StudioError(f"cannot join the Ray cluster at {self.address}: {exc}") from None

    async def _start_workers(self) -> None:
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        actor_class = ray.remote(StudioWorker)
        self.nodes = alive_nodes(ray.nodes())
        started: list[tuple[NodeCheck, Any]] = []
        for node in self.nodes:
            if not node.usable:
                continue
            actor = actor_class.options(
                num_cpus=1,
                max_concurrency=self.capacity + 2,
                max_restarts=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False),
            ).remote(self.capacity)
            started.append((node, actor))
        answers = await asyncio.gather(*(self._probe(n, a) for n, a in started))
        slots = []
        for (node, actor), problems in zip(started, answers, strict=True):
            node.problems.extend(problems)
            if node.usable:
                self._actors.append(actor)
                slots.append(RaySlot(node.label, actor, self.capacity))
            else:
                with contextlib.suppress(Exception):
                    ray.kill(actor)
        for node in self.nodes:
            (log.info if node.usable else log.warning)("%s", node.line())
        if not slots:
            lines = "; ".join(n.line() for n in self.nodes) or "it has no live node"
            raise StudioError(f"no usable node in the Ray cluster at {self.address}: {lines}")
        log.info("%s", summary(self.nodes))
        self.dispatcher = Dispatcher(slots)

    async def _probe(self, node: NodeCheck, actor: Any) -> list[str]:
        try:
            problems: list[str] = await asyncio.wait_for(actor.probe.remote(), PROBE_TIMEOUT_S)
        except TimeoutError:
            return [f"its worker did not answer within {PROBE_TIMEOUT_S:g} s"]
        except Exception as exc:
            return [f"its worker failed to start: {_first_line(exc)}"]
        return problems


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
