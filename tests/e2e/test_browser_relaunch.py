"""A killed browser is relaunched by `EpisodeManager.ensure_alive` (`BrowserPool.ensure_alive`
and fresh editor pages), in place.

The manager's Chromium process (found by its profile folder on its command line) is killed
with SIGKILL; the pool then hands out no page until `ensure_alive` relaunches the browser, after
which a fresh evaluation page loads and answers and an episode plays. The campaign's use of
it (a retry after an environment failure): tests/unit/campaigns/test_browser_relaunch.py.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest


def _browser_pids(profile: Path) -> list[int]:
    """The browser process (not its helpers) started with `profile` as its user data dir."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        flag = f"--user-data-dir={profile}".encode()
        if flag in args and not any(a.startswith(b"--type=") for a in args):
            pids.append(int(entry.name))
    return pids


async def _kill_and_relaunch(task_dir: Path, out: Path) -> None:
    from studio.models.agent import Mode
    from studio.services.core.store import load_task
    from studio.services.episodes.manager import EpisodeManager

    async with EpisodeManager(eval_spares=0, spare_pages=0) as manager:
        pool = manager.pool
        assert pool._profile is not None
        (pid,) = _browser_pids(pool._profile.path)
        closed = asyncio.Event()
        pool.context.on("close", lambda _context: closed.set())
        os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(closed.wait(), 60)
        assert not pool.alive
        with pytest.raises(Exception, match="closed"):  # dead until relaunched
            await pool.acquire_eval_page()
        assert await manager.ensure_alive()
        assert pool.alive and pool.relaunches == 1
        assert not await manager.ensure_alive()  # alive: nothing to do
        ready = await pool.acquire_eval_page()
        assert await ready.page.evaluate("() => window.StudioEval.ready") is True
        await pool.discard(ready.page)
        (new_pid,) = _browser_pids(pool._profile.path)
        assert new_pid != pid
        episode = await manager.create(load_task(task_dir), Mode.COMPOSITE, record_to=out)
        assert (out / "run.json").is_file()  # the episode plays in the relaunched browser
        await manager.delete(episode.id)


def test_a_killed_browser_is_relaunched_and_serves_pages_and_episodes_again(
    tmp_path: Path,
) -> None:
    """One browser launch proves both: the pool's relaunch and the manager's (fresh editor
    pages in the new browser)."""
    task = Path(__file__).resolve().parents[2] / "tasks" / "create_cat_walk"
    asyncio.run(asyncio.wait_for(_kill_and_relaunch(task, tmp_path / "ep"), 300))
