"""The review of a labeling item (a drag item or a perception QA item): its states and steps.

    draft    -> labeled                      a labeler's work (a label, an answer)
    labeled  -> approved | rejected | draft  a reviewer's verdict, or reopened
    rejected -> labeled | draft              labeled again, or reopened
    approved -> draft                        reopened

Approving and rejecting need the reviewer's name. Every step is kept in the history with who,
when (UTC) and an optional comment; a step never changes the Review it is taken from. What an
item must hold before it is labeled or approved (regions, an answer) is the business of its own
package (`studio.services.drag.review`, `studio.services.qa.review`), which calls the steps
here. A step that is not allowed raises `studio.services.errors.ReviewError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from studio.services.errors import ReviewError


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


def after_labeling(review: Review, labeler: str) -> Review:
    """A labeler's work done: a draft or rejected item becomes labeled, others stay as they
    are (a label on an approved item does not reopen it)."""
    if review.state in (ReviewState.DRAFT, ReviewState.REJECTED):
        return review.move(ReviewState.LABELED, labeler)
    return review


def approval(
    review: Review, reviewer: str, labeler: str = "", comment: str = "", again: bool = False
) -> Review:
    """Approved by `reviewer`: a draft or rejected item is labeled first (by `labeler`, else
    the reviewer). With `again`, an approved item is reopened first (and says so in its
    history), so that it is approved again with what it holds now; without, approving an
    approved item is a ReviewError."""
    if not reviewer:
        raise ReviewError("approved: say who reviews")
    if again and review.state is ReviewState.APPROVED:
        review = review.move(ReviewState.DRAFT, reviewer, AGAIN)
    review = after_labeling(review, labeler or reviewer)
    return review.move(ReviewState.APPROVED, reviewer, comment)


@contextmanager
def about(name: str) -> Iterator[None]:
    """A ReviewError raised inside says which item it is about (`name`: the item's words)."""
    try:
        yield
    except ReviewError as exc:
        raise ReviewError(f"{name}: {exc}") from None
