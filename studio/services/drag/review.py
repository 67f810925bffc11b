"""Review states shared by drag items and QA items: draft, labeled, approved, rejected.

A labeler's work moves an item from draft to labeled; a reviewer approves or rejects it (a
rejected item goes back to labeling); an approved item can be reopened. Every change is kept in
the history with who, when and an optional comment.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from studio.services.errors import StudioError


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


class ReviewError(StudioError):
    """A review step that the item's state does not allow."""


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

    def move(self, state: ReviewState, by: str, comment: str = "") -> Review:
        """A new Review in `state`; ReviewError when the step is not allowed from here."""
        if state not in ALLOWED[self.state]:
            raise ReviewError(f"cannot go from {self.state.value} to {state.value}")
        if state in (ReviewState.APPROVED, ReviewState.REJECTED) and not by:
            raise ReviewError(f"{state.value}: say who reviews")
        at = datetime.now(UTC).isoformat(timespec="seconds")
        event = ReviewEvent(state=state, by=by, at=at, comment=comment)
        reviewer = by if state in (ReviewState.APPROVED, ReviewState.REJECTED) else self.reviewer
        return Review(
            state=state, reviewer=reviewer, comment=comment, history=[*self.history, event]
        )
