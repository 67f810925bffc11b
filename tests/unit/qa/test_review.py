"""The review rules of a QA item: what an answer is, confirming (and a changed truth
reviewed again), approval needs an answer, approving again, the review box's steps."""

from __future__ import annotations

import pytest

from studio.models.errors import ReviewError
from studio.models.items import AGAIN, ReviewState
from studio.models.qa_item import QaItem, QaType
from studio.services.diagnostics.qa.review import (
    TRUTH_CHANGED,
    approve,
    checked_answer,
    confirm,
    move,
)
from studio.services.diagnostics.qa.scoring import record_answer

S = ReviewState


def item(kind: QaType = QaType.CONNECTION, truth: str = "YES") -> QaItem:
    return QaItem(
        task_id="q1",
        instruction="?",
        screenshot="s.png",
        task_type=kind,
        tag="t",
        ground_truth=truth,
    )


def test_what_an_answer_is() -> None:
    yes_no = item()
    assert checked_answer(yes_no, " no ") == "NO"
    with pytest.raises(
        ReviewError, match="QA item q1: a connection answer is YES or NO, not 'maybe'"
    ):
        checked_answer(yes_no, "maybe")
    field = item(QaType.FIELD, "10")
    assert checked_answer(field, " 0.10 ") == " 0.10 "  # a field value is kept as given
    with pytest.raises(ReviewError, match="QA item q1: a field answer"):
        checked_answer(field, "  ")
    with pytest.raises(ReviewError, match="YES or NO"):
        record_answer(yes_no, "ann", "perhaps")
    with pytest.raises(ReviewError, match="labeler's name"):
        record_answer(yes_no, "", "yes")
    assert record_answer(yes_no, "ann", "yes").answers[0].answer == "YES"


def test_confirming_labels_and_a_changed_truth_is_reviewed_again() -> None:
    with pytest.raises(ReviewError, match="say who labels"):
        confirm(item(), "")
    labeled = confirm(item(), "ann")  # the suggestion confirmed
    assert (labeled.ground_truth, labeled.review.state) == ("YES", S.LABELED)
    approved = approve(labeled, "rev")
    same = confirm(approved, "ann", "yes")
    assert same.review == approved.review  # the same truth: still approved
    changed = confirm(approved, "ann", "no")
    assert changed.ground_truth == "NO" and changed.review.state is S.LABELED
    assert [(e.state, e.comment) for e in changed.review.history[-2:]] == [
        (S.DRAFT, TRUTH_CHANGED),
        (S.LABELED, ""),
    ]


def test_approval_needs_an_answer_and_again_reapproves() -> None:
    with pytest.raises(ReviewError, match="QA item q1: a existence answer is YES or NO"):
        approve(item(QaType.EXISTENCE, "unsure"), "rev")
    done = approve(item(), "rev", "checked")
    assert (done.review.state, done.review.reviewer, done.review.comment) == (
        S.APPROVED,
        "rev",
        "checked",
    )
    with pytest.raises(ReviewError, match="QA item q1: cannot go from approved to approved"):
        approve(done, "rev")
    again = approve(done, "eve", again=True)
    assert again.review.history[-3].comment == AGAIN and again.review.reviewer == "eve"


def test_steps_of_the_review_box() -> None:
    with pytest.raises(ReviewError, match="a field answer"):
        move(item(QaType.FIELD, ""), S.LABELED, "ann")
    labeled = move(item(), S.LABELED, "ann")
    assert move(labeled, S.REJECTED, "rev").review.state is S.REJECTED
    assert move(labeled, S.APPROVED, "rev").review.state is S.APPROVED
    with pytest.raises(ReviewError, match="QA item q1: cannot go from draft to draft"):
        move(item(), S.DRAFT, "ann")
