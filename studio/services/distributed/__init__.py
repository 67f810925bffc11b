"""Checks and agent runs spread over a Ray cluster (`studio check|run|drag run ... --ray ADDRESS`).

What runs where:

- The machine that starts the run (the driver) does everything that decides a verdict or a
  file: it reads the task folders, prepares each evaluation (project bytes, script, helper
  library, clock, seed), judges golden, initial and mutants, and writes every trajectory. The
  code is the local code: `checker.check_tasks` and `batch.run_batch` get an evaluator and an
  episode runner that send work to the cluster instead of a local browser.
- Each usable node holds one worker (a Ray actor pinned to it) with a warm headless Chromium
  and its own loopback editor server; it runs prepared evaluations, whole episodes and drag
  items, and sends back the result (and an episode's trajectory files, a drag item's screen).

At start every node is checked (Chromium, the Scratch GUI bundle, a browser that starts); a
node without them is reported by name and not used. A worker or node lost mid-run loses no
result: its unfinished calls run again on another worker (bounded attempts), each job's
result is taken once, and seeds and clocks are chosen on the driver, so verdicts do not depend
on where a job ran. `check --ray` evaluates on the editor edition of its task set, like a local
check. Ctrl+C cancels the calls in flight and stops the workers.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from studio.services.distributed.dispatch import Dispatcher, DispatchStats, Slot, WorkerLost
from studio.services.distributed.nodes import NodeCheck, node_label
from studio.services.runtime.editions import Edition

if TYPE_CHECKING:
    from studio.services.diagnostics.drag.run import ItemRunner
    from studio.services.episodes.limits import Limits, PriceTable
    from studio.services.runs.batch import EpisodeRunner
    from studio.services.runtime.evaluator import Evaluates

__all__ = [
    "DispatchStats",
    "Dispatcher",
    "NodeCheck",
    "Slot",
    "WorkerLost",
    "cluster_drags",
    "cluster_episodes",
    "cluster_evaluator",
    "node_label",
]


@contextlib.asynccontextmanager
async def cluster_evaluator(
    address: str, per_node: int, edition: Edition = Edition.CURRENT
) -> AsyncIterator[Evaluates]:
    """An evaluator whose evaluations run on the cluster at `address`, `per_node` at once
    on each usable node (see cluster.RayCluster), in evaluation pages of `edition`."""
    from studio.services.distributed.cluster import RayCluster
    from studio.services.distributed.evaluations import ClusterEvaluator

    async with RayCluster(address, per_node) as cluster:
        assert cluster.dispatcher is not None
        yield ClusterEvaluator(cluster.dispatcher, edition)


@contextlib.asynccontextmanager
async def cluster_episodes(
    address: str,
    per_node: int,
    step_limit: int | None = None,
    limits: Limits | None = None,
    prices: PriceTable | None = None,
    feedback_turns: int = 0,
) -> AsyncIterator[EpisodeRunner]:
    """An episode runner whose episodes play on the cluster at `address`, each within
    `step_limit` and `limits`, the agent's tokens priced by `prices`, granting
    `feedback_turns` mid-episode evaluations."""
    from studio.services.distributed.cluster import RayCluster
    from studio.services.distributed.episodes import ClusterEpisodes

    async with RayCluster(address, per_node) as cluster:
        assert cluster.dispatcher is not None
        yield ClusterEpisodes(cluster.dispatcher, step_limit, limits, prices, feedback_turns)


@contextlib.asynccontextmanager
async def cluster_drags(address: str, per_node: int) -> AsyncIterator[ItemRunner]:
    """A drag-item runner whose items play on the cluster at `address`, `per_node` at once
    on each usable node."""
    from studio.services.distributed.cluster import RayCluster
    from studio.services.distributed.drags import ClusterDrags

    async with RayCluster(address, per_node) as cluster:
        assert cluster.dispatcher is not None
        yield ClusterDrags(cluster.dispatcher)
