"""The review rules of a perception QA item, on top of the shared steps of
`studio.services.diagnostics`.

- An answer is YES or NO for a connection or existence question (any case, spaces ignored;
  kept upper-case), and a non-empty value for a field question.
- Confirming sets the item's ground truth (the suggested one, or the labeler's correction) and
  makes a draft or rejected item labeled. An approved item whose ground truth changes goes back
  to draft first ("ground truth changed"): it is reviewed again.
- An item is labeled or approved only with a ground truth that is an answer of its type.
- Changing the ground truth of an approved item is asked first (`truth_change` says what it
  means, and whether the new truth contradicts the VM's suggested answer); a labeler who
  declines keeps their answer apart from the truth.
- Approving with `again` re-approves an approved item (reopened first, as the labeling window
  does when the labeler approves the answer shown); without, that is a ReviewError.

Every refusal is a `studio.services.core.errors.ReviewError` that names the item.
"""

from __future__ import annotations

from studio.models.errors import ReviewError
from studio.models.items import ReviewState
from studio.models.qa_item import QaItem, QaType
from studio.services.diagnostics.review import about, after_labeling, approval

__all__ = ["TRUTH_CHANGED", "approve", "checked_answer", "confirm", "move", "truth_change"]

TRUTH_CHANGED = "ground truth changed"


def _name(item: QaItem) -> str:
    return f"QA item {item.task_id}"


def _answer(item: QaItem, answer: str) -> str:
    if item.task_type is QaType.FIELD:
        if not answer.strip():
            raise ReviewError("a field answer is the value the field shows; give one")
        return answer
    value = answer.strip().upper()
    if value not in ("YES", "NO"):
        raise ReviewError(f"a {item.task_type.value} answer is YES or NO, not {answer!r}")
    return value


def checked_answer(item: QaItem, answer: str) -> str:
    """`answer` as the item keeps it; ReviewError when it is no answer to the item's question."""
    with about(_name(item)):
        return _answer(item, answer)


def truth_change(item: QaItem, answer: str) -> str | None:
    """What making `answer` the truth of an approved item means, for the labeler to confirm;
    None when nothing reviewed changes (not approved, the same truth, or no valid answer)."""
    if item.review.state is not ReviewState.APPROVED:
        return None
    try:
        value = checked_answer(item, answer)
    except ReviewError:
        return None  # saving says why
    if value == item.ground_truth:
        return None
    text = (
        f"{item.task_id} is approved with the ground truth {item.ground_truth}; "
        f"making it {value} sends it back to review"
    )
    vm = item.suggestion.answer if item.suggestion is not None else None
    if vm is not None and vm != value:
        text += f". It contradicts the VM's answer, {vm}"
    elif vm is not None:
        text += f" (the VM's answer is {vm} too)"
    return text + "."


def confirm(item: QaItem, labeler: str, answer: str | None = None) -> QaItem:
    """The labeler confirms the suggested answer, or corrects it with `answer`."""
    with about(_name(item)):
        if not labeler:
            raise ReviewError("say who labels")
        value = _answer(item, answer if answer is not None else item.ground_truth)
        review = item.review
        if review.state is ReviewState.APPROVED and value != item.ground_truth:
            review = review.move(ReviewState.DRAFT, labeler, TRUTH_CHANGED)
        review = after_labeling(review, labeler)
    return item.model_copy(update={"ground_truth": value, "review": review})


def approve(item: QaItem, reviewer: str, comment: str = "", again: bool = False) -> QaItem:
    """Approve the item with its ground truth."""
    with about(_name(item)):
        _answer(item, item.ground_truth)
        review = approval(item.review, reviewer, comment=comment, again=again)
    return item.model_copy(update={"review": review})


def move(item: QaItem, state: ReviewState, by: str, comment: str = "") -> QaItem:
    """One step of the item's review (reject, reopen, labeled); approving goes through
    `approve`."""
    if state is ReviewState.APPROVED:
        return approve(item, by, comment)
    with about(_name(item)):
        if state is ReviewState.LABELED:
            _answer(item, item.ground_truth)
        review = item.review.move(state, by, comment)
    return item.model_copy(update={"review": review})
