"""Where the work plays: on this machine, through a served agent API, or on a Ray cluster.

One choice, written once, for each kind of work:

- `episode_runner(api=..., ray=...)`: the home of `studio run`'s episodes, an async context
  manager: this process's own browser (`EpisodeManager`), a running `studio serve` at `api`
  (`RemoteEpisodeManager`, with the server's token from `token`, `token_file` or STUDIO_TOKEN),
  or the workers of the Ray cluster at `ray` (`workers` per node, each episode within `steps`,
  `limits` and `prices`, granting `feedback_turns`). `api` and `ray` exclude each other.
- `item_runner(ray, pages)`: where labeling (drag) items play: `ItemPlace(context, server,
  None)` of this machine's browser, or `ItemPlace(None, None, runner)` of the cluster at `ray`
  (`pages` items at once per node).
- `evaluator(ray, workers, edition)`: what evaluates projects for a check: this machine's
  browser on `edition` (`workers` spare pages; the edition must be installed), or the cluster
  at `ray` (`workers` per node).

`ray` is `local` (start a cluster here) or HOST:PORT of a running one. Bad flags raise
StudioError naming them.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NamedTuple

from studio.models.errors import StudioError
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import Evaluates

__all__ = ["ItemPlace", "episode_runner", "evaluator", "item_runner"]


def episode_runner(
    *,
    api: str | None = None,
    token: str | None = None,
    token_file: Path | None = None,
    ray: str | None = None,
    workers: int = 1,
    steps: int | None = None,
    limits: Any = None,
    prices: Any = None,
    element_list: bool = True,
    pool: Any = None,
    feedback_turns: int = 0,
) -> Any:
    """The episodes' home (an async context manager), as the module docstring says.
    `element_list=False` (primitive mode screenshots only) plays in this process's browser;
    `pool`, a started BrowserPool (the window's), is where they play here (shared, not closed)."""
    if not element_list and (ray or api):
        raise StudioError(
            "--no-element-list plays in this process's browser only: leave out --ray and --api"
        )
    if ray:
        if api:
            raise StudioError("--ray and --api exclude each other")
        from studio.services.distributed import cluster_episodes

        return cluster_episodes(ray, workers, steps, limits, prices, feedback_turns)
    if api:
        from studio.services.api.client import RemoteEpisodeManager
        from studio.services.api.server import find_token

        found = find_token(token, token_file)
        if not found:
            raise StudioError(
                "--api needs the server's token: --token-file F, STUDIO_TOKEN or --token T"
            )
        return RemoteEpisodeManager(api, found, step_limit=steps)
    from studio.services.episodes.manager import EpisodeManager

    shared: dict[str, Any] = {"pool": pool, "server": pool.server} if pool is not None else {}
    if steps:
        return EpisodeManager(eval_spares=1, step_limit=steps, element_list=element_list, **shared)
    return EpisodeManager(eval_spares=1, element_list=element_list, **shared)


class ItemPlace(NamedTuple):
    """Where diagnostic items play: a browser context and editor server here, or a runner."""

    context: Any
    server: Any
    runner: Any


@contextlib.asynccontextmanager
async def item_runner(ray: str | None, pages: int) -> AsyncIterator[ItemPlace]:
    """This machine's browser, or with `ray` the cluster's item runner."""
    if ray:
        from studio.services.distributed import cluster_drags

        async with cluster_drags(ray, pages) as runner:
            yield ItemPlace(None, None, runner)
        return
    from studio.services.runtime.browser import BrowserPool

    async with BrowserPool(spares=0) as pool:
        if pool.server is None:
            raise StudioError("the browser pool has no editor server")
        yield ItemPlace(pool.context, pool.server, None)


@contextlib.asynccontextmanager
async def evaluator(
    ray: str | None, workers: int, edition: Edition = Edition.CURRENT
) -> AsyncIterator[Evaluates]:
    """This machine's browser (on `edition`), or with `ray` the workers of a Ray cluster."""
    if ray:
        from studio.services.distributed import cluster_evaluator

        async with cluster_evaluator(ray, workers, edition) as found:
            yield found
        return
    from studio.services.runtime.browser import BrowserPool
    from studio.services.runtime.evaluator import Evaluator

    editions.require_installed(edition, "The task set")
    async with BrowserPool(spares=workers, edition=edition) as pool:
        yield Evaluator(pool)
