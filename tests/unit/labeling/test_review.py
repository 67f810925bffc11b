"""The review both labeling kinds share: which steps each state allows, who must sign, what
the history keeps, labeling and approval (again or not)."""

from __future__ import annotations

import pytest

from studio.models.errors import ReviewError, StudioError
from studio.models.items import AGAIN, ALLOWED, Review, ReviewState
from studio.services.diagnostics.review import about, after_labeling, approval

S = ReviewState


def test_the_table_of_steps() -> None:
    expected = {
        S.DRAFT: {S.LABELED},
        S.LABELED: {S.APPROVED, S.REJECTED, S.DRAFT},
        S.REJECTED: {S.LABELED, S.DRAFT},
        S.APPROVED: {S.DRAFT},
    }
    assert expected == ALLOWED
    for state, targets in ALLOWED.items():
        review = Review(state=state)
        for target in S:
            assert review.allows(target) is (target in targets)
            if target not in targets:
                with pytest.raises(ReviewError, match=f"from {state.value} to {target.value}"):
                    review.move(target, "rev")


def test_a_verdict_needs_a_reviewer_and_the_history_keeps_every_step() -> None:
    labeled = Review().move(S.LABELED, "ann")
    for verdict in (S.APPROVED, S.REJECTED):
        with pytest.raises(ReviewError, match="say who reviews"):
            labeled.move(verdict, "")
    rejected = labeled.move(S.REJECTED, "rev", "too small")
    assert (rejected.state, rejected.reviewer, rejected.comment) == (S.REJECTED, "rev", "too small")
    assert [(e.state, e.by) for e in rejected.history] == [(S.LABELED, "ann"), (S.REJECTED, "rev")]
    assert labeled.history[-1].at and len(labeled.history) == 1  # a step never changes its source
    assert issubclass(ReviewError, StudioError)


def test_labeling_moves_a_draft_or_rejected_item_only() -> None:
    assert after_labeling(Review(), "ann").state is S.LABELED
    rejected = Review().move(S.LABELED, "ann").move(S.REJECTED, "rev")
    assert after_labeling(rejected, "bob").history[-1].by == "bob"
    approved = approval(Review(), "rev")
    assert after_labeling(approved, "bob") is approved  # a label does not reopen it


def test_approval_labels_first_and_approves_again_only_when_asked() -> None:
    done = approval(Review(), "rev", labeler="ann", comment="fine")
    assert [(e.state, e.by) for e in done.history] == [(S.LABELED, "ann"), (S.APPROVED, "rev")]
    assert done.comment == "fine"
    with pytest.raises(ReviewError, match="from approved to approved"):
        approval(done, "rev")
    again = approval(done, "eve", again=True)
    assert [(e.state, e.comment) for e in again.history[-3:]] == [
        (S.DRAFT, AGAIN),
        (S.LABELED, ""),
        (S.APPROVED, ""),
    ]
    assert again.reviewer == "eve"
    with pytest.raises(ReviewError, match="say who reviews"):
        approval(Review(), "")


def test_about_names_the_item_in_a_refusal() -> None:
    refusal = r"^drag item d1: cannot go from draft to approved$"
    with pytest.raises(ReviewError, match=refusal), about("drag item d1"):
        Review().move(S.APPROVED, "rev")
