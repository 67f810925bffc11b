"""An episode's editor page under a deadline, and what an episode does when it loses it.

Every call an episode makes to its page (an observation, an action, reading or exporting the
program, a screenshot, closing) is awaited through `bounded`, within `PAGE_LIMIT_S` (closing
within `CLOSE_LIMIT_S`): nothing in a run waits for a page without a deadline. A call that
passes its deadline, or fails while the page no longer shows its editor
(`studio.services.runtime.page_guard.lost`: it navigated away, crashed or was closed), raises
`PageLost` naming what happened; any other failure is raised as it is (a bug of ours, not
the environment). `check` raises `PageLost` for a page found lost between calls.

`lose(episode, why)` ends an episode whose page was lost: its status becomes `closed`, its
`lost` says why, and its record (run.json `meta.failure` "environment", `meta.error`) keeps the
program as of its last observation (`kept_sb3`) as final.sb3. The agent is not blamed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Any, TypeVar

from studio.models.agent import EpisodeStatus
from studio.services.runtime import page_guard
from studio.services.runtime.page_guard import PageLost
from studio.services.runtime.page_seam import EditorPage

__all__ = [
    "CLOSE_LIMIT_S", "LOSS_SIGNS", "PAGE_LIMIT_S", "PageLost", "bounded", "check", "close_page",
    "lose",
]  # fmt: skip

T = TypeVar("T")
# One observation (settling, screenshot, OCR under load), one action (a drag lasts 10 s at
# most), one export of the program: far more than any of them takes on a working page.
PAGE_LIMIT_S = 120.0
CLOSE_LIMIT_S = 10.0
# What the driver says when the page's document went away under a call (a navigation that
# raced the guard's own notice, a crash, a close).
LOSS_SIGNS = (
    "Execution context was destroyed",
    "Target page, context or browser has been closed",
    "Target closed",
    "Page crashed",
)


async def bounded(
    page: EditorPage, what: str, work: Awaitable[T], limit: float = PAGE_LIMIT_S
) -> T:
    """`await work` within `limit` seconds; PageLost when it did not answer in time or failed
    on a page that is lost."""
    check(page, what)
    try:
        return await asyncio.wait_for(work, limit)
    except TimeoutError:
        page_guard.mark_lost(page, f"the editor page did not answer within {limit:g} s ({what})")
        raise PageLost(_why(page)) from None
    except PageLost:
        raise
    except Exception as exc:
        if page_guard.lost(page) is None:
            if _closed(page):
                page_guard.mark_lost(page, "the editor page was closed")
            elif any(sign in str(exc) for sign in LOSS_SIGNS):
                first = str(exc).strip().splitlines()[0][:200]
                page_guard.mark_lost(page, f"the editor page went away: {first}")
            else:
                raise
        raise PageLost(f"{_why(page)} ({what})") from None


def check(page: EditorPage, what: str) -> None:
    """PageLost when `page` no longer shows its editor."""
    why = page_guard.lost(page)
    if why is not None:
        raise PageLost(f"{why} (before {what})")


async def close_page(page: EditorPage) -> None:
    """Close `page` without its unload handlers, giving up after CLOSE_LIMIT_S."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(page.close(run_before_unload=False), CLOSE_LIMIT_S)


def lose(episode: Any, why: str) -> None:
    """End `episode` as an environment failure (see the module docstring)."""
    if episode.lost is not None:
        return
    episode.lost = why
    if episode.status is EpisodeStatus.RUNNING:
        episode.status = EpisodeStatus.CLOSED
    recorder = episode.recorder
    if recorder is None:
        return
    recorder.run.meta["failure"] = "environment"
    recorder.run.meta["error"] = why
    if episode.kept_sb3 is not None:
        recorder.run.meta["final_from"] = f"the last observation (step {episode.kept_step})"
        recorder.write_final(sb3=episode.kept_sb3)
    run = recorder.run
    run.status, run.steps = episode.status, episode.step_count
    recorder.write_run()


def _why(page: EditorPage) -> str:
    return page_guard.lost(page) or "the editor page was lost"


def _closed(page: EditorPage) -> bool:
    with contextlib.suppress(Exception):
        return bool(page.is_closed())
    return False
