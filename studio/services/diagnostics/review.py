"""Review steps of diagnostic items (drag items and perception QA items) beyond a single move.

The states and allowed moves are the model's (`studio.models.items.Review`); here are the
steps that combine them (`after_labeling`, `approval`) and `about`, which names the item in a
ReviewError. What an item must hold before it is labeled or approved (regions, an answer) is
the business of its own package (`diagnostics.drag.review`, `diagnostics.qa.review`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from studio.models.errors import ReviewError
from studio.models.items import AGAIN, Review, ReviewState

__all__ = ["about", "after_labeling", "approval"]


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
