"""Deadlines on an episode's page calls and the loss of a page (studio.services.episodes.page_loss),
counted as the environment's failure in a run and answered 503 (named) by the API."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.services.episodes import page_loss
from studio.services.runs.batch import failure_kind
from studio.services.runtime import page_guard
from studio.services.runtime.page_guard import PageLost


class HangingPage:
    """A page whose calls never answer (the driver waiting on a page that went away)."""

    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed

    async def evaluate(self, *_: Any) -> Any:
        await asyncio.Event().wait()


def test_a_call_past_its_deadline_is_a_lost_page_and_so_are_the_later_ones() -> None:
    page = HangingPage()

    async def run() -> None:
        with pytest.raises(PageLost, match=r"did not answer within 0.05 s \(observe\)"):
            await page_loss.bounded(page, "observe", page.evaluate("1"), limit=0.05)
        with pytest.raises(PageLost, match="before click action"):
            await page_loss.bounded(page, "click action", asyncio.sleep(0))

    asyncio.run(run())
    assert "did not answer" in (page_guard.lost(page) or "")


def test_a_failure_on_a_page_still_there_is_raised_as_it_is() -> None:
    page = HangingPage()

    async def fail() -> None:
        raise ValueError("a bug of ours")

    with pytest.raises(ValueError, match="a bug of ours"):
        asyncio.run(page_loss.bounded(page, "observe", fail()))
    assert page_guard.lost(page) is None


@pytest.mark.parametrize(
    "message",
    [
        "Page.evaluate: Execution context was destroyed, most likely because of a navigation.",
        "Target page, context or browser has been closed",
    ],
)
def test_the_driver_saying_the_document_went_away_is_a_lost_page(message: str) -> None:
    page = HangingPage()

    async def fail() -> None:
        raise RuntimeError(message)

    with pytest.raises(PageLost, match="the editor page went away"):
        asyncio.run(page_loss.bounded(page, "click action", fail()))


def test_a_closed_page_is_lost() -> None:
    page = HangingPage()
    page.closed = True

    async def fail() -> None:
        raise RuntimeError("anything")

    with pytest.raises(PageLost, match="closed"):
        asyncio.run(page_loss.bounded(page, "screenshot", fail()))


def test_a_lost_page_is_the_environment_s_failure_never_the_agent_s() -> None:
    assert failure_kind(PageLost("the editor page crashed")) == "environment"
    assert failure_kind(ValueError("the agent's own")) == "agent"
