"""The review workflow of a task: draft -> in review -> approved or rejected -> draft.

    submit   draft | rejected    -> in_review  (no lint error: fix them first)
    approve  in_review           -> approved
    reject   in_review           -> rejected   (a comment is required)
    reopen   approved | rejected -> draft

Every transition appends a ReviewEvent (who, when in UTC, new state, comment) to the task's
review history. The functions never mutate the task they are given: they return a new Task
(`model_copy`), which the caller saves with `store.save_task`. An approved task is read-only
until it is reopened.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from studio.models.errors import ReviewError
from studio.models.task import Review, ReviewEvent, ReviewState, Task
from studio.services.authoring.lint import LintFinding, level_of

__all__ = [
    "NEEDS_COMMENT", "actions_from", "allowed_actions", "approve", "is_read_only", "last_comment",
    "lint_blocker", "reject", "reopen", "submit",
]  # fmt: skip

_ALLOWED: dict[str, tuple[frozenset[ReviewState], ReviewState]] = {
    "submit": (frozenset({ReviewState.DRAFT, ReviewState.REJECTED}), ReviewState.IN_REVIEW),
    "approve": (frozenset({ReviewState.IN_REVIEW}), ReviewState.APPROVED),
    "reject": (frozenset({ReviewState.IN_REVIEW}), ReviewState.REJECTED),
    "reopen": (frozenset({ReviewState.APPROVED, ReviewState.REJECTED}), ReviewState.DRAFT),
}


NEEDS_COMMENT = frozenset({"reject"})


def actions_from(state: ReviewState) -> list[str]:
    """The transitions a task in `state` may take, in workflow order."""
    return [action for action, (sources, _) in _ALLOWED.items() if state in sources]


def allowed_actions(task: Task) -> list[str]:
    """The transitions the task's current state allows, in workflow order."""
    return actions_from(task.review.state)


def lint_blocker(findings: Sequence[LintFinding]) -> str:
    """Why the task's lint keeps it from review (how many errors, the first), or ""."""
    errors = [f for f in findings if level_of(f) == "error"]
    if not errors:
        return ""
    count = f"{len(errors)} lint error{'s' if len(errors) != 1 else ''}"
    return f"Fix {count} before submitting, first: {errors[0].message}"


def _transition(task: Task, action: str, by: str, comment: str, at: datetime | None) -> Task:
    if action in NEEDS_COMMENT and not comment.strip():
        raise ReviewError(
            f"cannot {action} task '{task.id}' without a comment: say what the author must fix"
        )
    sources, target = _ALLOWED[action]
    state = task.review.state
    if state not in sources:
        allowed = ", ".join(allowed_actions(task)) or "nothing"
        raise ReviewError(
            f"cannot {action} task '{task.id}': it is {state.value.replace('_', ' ')}; "
            f"allowed now: {allowed}"
        )
    when = (at or datetime.now(UTC)).astimezone(UTC)
    event = ReviewEvent(state=target, by=by, at=when, comment=comment.strip())
    review = Review(state=target, history=[*task.review.history, event])
    return task.model_copy(update={"review": review}, deep=True)


def submit(
    task: Task,
    by: str,
    comment: str = "",
    at: datetime | None = None,
    lint: Sequence[LintFinding] = (),
) -> Task:
    """Send a draft (or a rejected task, after fixes) to review; `lint` holds the task's
    findings (`lint.lint_task`), and an error among them refuses the step."""
    blocker = lint_blocker(lint)
    if blocker:
        raise ReviewError(f"cannot submit task '{task.id}': {blocker}")
    return _transition(task, "submit", by, comment, at)


def approve(task: Task, by: str, comment: str = "", at: datetime | None = None) -> Task:
    """Accept a task in review; it becomes read-only."""
    return _transition(task, "approve", by, comment, at)


def reject(task: Task, by: str, comment: str, at: datetime | None = None) -> Task:
    """Send a task in review back to its author; the comment says what to fix."""
    return _transition(task, "reject", by, comment, at)


def reopen(task: Task, by: str, comment: str = "", at: datetime | None = None) -> Task:
    """Make an approved or rejected task an editable draft again."""
    return _transition(task, "reopen", by, comment, at)


def is_read_only(task: Task) -> bool:
    """True while the task is approved: reopen it before editing."""
    return task.review.state is ReviewState.APPROVED


def last_comment(task: Task) -> str:
    """The most recent non-empty comment of the review history ("" when there is none)."""
    return next((e.comment for e in reversed(task.review.history) if e.comment), "")
