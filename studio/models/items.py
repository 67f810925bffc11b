"""What drag items and perception QA items share: their review and their published source.

A review's states and steps:

    draft    -> labeled                      a labeler's work (a label, an answer)
    labeled  -> approved | rejected | draft  a reviewer's verdict, or reopened
    rejected -> labeled | draft              labeled again, or reopened
    approved -> draft                        reopened

Approving and rejecting need the reviewer's name. Every step is kept in the history with who,
when (UTC) and an optional comment; a step never changes the Review it is taken from. A step
that is not allowed raises `ReviewError`. What an item must hold before it is labeled or
approved is the services' business (`services.diagnostics.review` and the item packages).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from studio.models.errors import ReviewError

__all__ = ["AGAIN", "ALLOWED", "VERDICTS", "Review", "ReviewEvent", "ReviewState", "SwSource"]


class ReviewState(StrEnum):
    DRAFT = "draft"
    LABELED = "labeled"
    APPROVED = "approved"
    REJECTED = "rejected"


ALLOWED = {
    ReviewState.DRAFT: {ReviewState.LABELED},
    ReviewState.LABELED: {ReviewState.APPROVED, ReviewState.REJECTED, ReviewState.DRAFT},
    ReviewState.REJECTED: {ReviewState.LABELED, ReviewState.DRAFT},
    ReviewState.APPROVED: {ReviewState.DRAFT},
}


VERDICTS = (ReviewState.APPROVED, ReviewState.REJECTED)


AGAIN = "reopened to approve again"


class ReviewEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    state: ReviewState
    by: str = ""
    at: str = ""
    comment: str = ""


class Review(BaseModel):
    """Where an item stands, and how it got there."""

    model_config = ConfigDict(extra="forbid")

    state: ReviewState = ReviewState.DRAFT
    reviewer: str = ""
    comment: str = ""
    history: list[ReviewEvent] = Field(default_factory=list)

    def allows(self, state: ReviewState) -> bool:
        """True when a step from here to `state` is allowed."""
        return state in ALLOWED[self.state]

    def move(self, state: ReviewState, by: str, comment: str = "") -> Review:
        """A new Review in `state`; ReviewError when the step is not allowed from here."""
        if not self.allows(state):
            raise ReviewError(f"cannot go from {self.state.value} to {state.value}")
        if state in VERDICTS and not by:
            raise ReviewError(f"{state.value}: say who reviews")
        at = datetime.now(UTC).isoformat(timespec="seconds")
        event = ReviewEvent(state=state, by=by, at=at, comment=comment)
        reviewer = by if state in VERDICTS else self.reviewer
        return Review(
            state=state, reviewer=reviewer, comment=comment, history=[*self.history, event]
        )


class SwSource(BaseModel):
    """The published ScratchWorld record an imported item (or QA item) came from: its file name,
    the record as read and how the file was written (the fields of
    `scratchworld.layout.JsonStyle`; `text` holds the file itself when that style does not
    give back its bytes). Export starts from it, so an unchanged item is written back exactly."""

    model_config = ConfigDict(extra="forbid")

    file: str
    record: dict[str, Any]
    style: dict[str, Any] = Field(default_factory=dict)
    text: str | None = None
