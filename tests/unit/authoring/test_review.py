"""The review workflow: legal transitions append events, illegal ones explain themselves."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from studio.models.errors import ReviewError, StudioError
from studio.models.task import ReviewState, Task
from studio.services.authoring.lint import Finding, Level
from studio.services.authoring.review import (
    NEEDS_COMMENT,
    actions_from,
    allowed_actions,
    approve,
    is_read_only,
    last_comment,
    lint_blocker,
    reject,
    reopen,
    submit,
)
from studio.services.core.store import TaskFolder, load_task, save_task

Bundled = Callable[[str], TaskFolder]
S = ReviewState


def draft() -> Task:
    return Task(id="t1", category="create", instruction="Make the Cat walk.")


def test_full_cycle_records_every_step() -> None:
    task = draft()
    task = submit(task, "ann")
    task = reject(task, "rev", "The instruction does not name the variable.")
    task = submit(task, "ann", "Named it.")
    task = approve(task, "rev", "Good.")
    task = reopen(task, "rev", "One more test needed.")
    states = [e.state for e in task.review.history]
    assert states == [S.IN_REVIEW, S.REJECTED, S.IN_REVIEW, S.APPROVED, S.DRAFT]
    assert [e.by for e in task.review.history] == ["ann", "rev", "ann", "rev", "rev"]
    assert task.review.state is S.DRAFT
    assert last_comment(task) == "One more test needed."


def test_events_carry_utc_time() -> None:
    before = datetime.now(UTC)
    event = submit(draft(), "ann").review.history[-1]
    assert event.at.tzinfo is not None and event.at.utcoffset() == timedelta(0)
    assert event.at >= before
    local = datetime(2025, 1, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    at = submit(draft(), "ann", at=local).review.history[-1].at
    assert at == datetime(2025, 1, 1, 12, 0, tzinfo=UTC) and at.utcoffset() == timedelta(0)


def test_the_given_task_is_not_changed() -> None:
    task = draft()
    submitted = submit(task, "ann")
    assert task.review.state is S.DRAFT and task.review.history == []
    approved = approve(submitted, "rev")
    assert submitted.review.state is S.IN_REVIEW and len(submitted.review.history) == 1
    assert len(approved.review.history) == 2


@pytest.mark.parametrize(
    ("action", "state", "allowed"),
    [
        (approve, "draft", "submit"),
        (reopen, "draft", "submit"),
        (submit, "in review", "approve, reject"),
        (submit, "approved", "reopen"),
    ],
)
def test_illegal_transitions_explain(action: Callable[..., Task], state: str, allowed: str) -> None:
    task = draft()
    if state != "draft":
        task = submit(task, "ann")
    if state == "approved":
        task = approve(task, "rev")
    with pytest.raises(ReviewError) as info:
        action(task, "someone", "comment")
    assert f"it is {state}; allowed now: {allowed}" in str(info.value)
    assert isinstance(info.value, StudioError)


def test_reject_needs_a_comment() -> None:
    task = submit(draft(), "ann")
    with pytest.raises(ReviewError, match="without a comment"):
        reject(task, "rev", "   ")
    assert reject(task, "rev", " fix it ").review.history[-1].comment == "fix it"


def test_only_approved_is_read_only() -> None:
    task = submit(draft(), "ann")
    assert not is_read_only(draft()) and not is_read_only(task)
    approved = approve(task, "rev")
    assert is_read_only(approved)
    assert not is_read_only(reopen(approved, "rev"))
    assert not is_read_only(reject(task, "rev", "no"))


def test_allowed_actions() -> None:
    assert allowed_actions(draft()) == ["submit"]
    in_review = submit(draft(), "ann")
    assert allowed_actions(in_review) == ["approve", "reject"]
    assert allowed_actions(reject(in_review, "rev", "no")) == ["submit", "reopen"]


def test_review_survives_save_and_load(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    task = approve(submit(entry.task, "ann"), "rev", "ok")
    save_task(TaskFolder(task, entry.folder))
    loaded = load_task(entry.folder).task
    assert loaded.review == task.review
    assert last_comment(draft()) == ""


def test_the_actions_each_state_allows() -> None:
    assert {s: actions_from(s) for s in S} == {
        S.DRAFT: ["submit"],
        S.IN_REVIEW: ["approve", "reject"],
        S.APPROVED: ["reopen"],
        S.REJECTED: ["submit", "reopen"],
    }
    assert allowed_actions(draft()) == ["submit"]
    assert {"reject"} == NEEDS_COMMENT


def test_a_lint_error_keeps_a_task_from_review() -> None:
    warning = Finding(Level.WARNING, "short-instruction", "The instruction is short", "Say more")
    errors = [
        Finding(Level.ERROR, "stale-check", "The last check is older than the script", "Run it"),
        Finding(Level.ERROR, "no-golden", "There is no golden project", "Add one"),
    ]
    assert lint_blocker([warning]) == ""
    assert submit(draft(), "ann", lint=[warning]).review.state is S.IN_REVIEW
    blocker = lint_blocker([warning, *errors])
    assert blocker == (
        "Fix 2 lint errors before submitting, first: The last check is older than the script"
    )
    with pytest.raises(ReviewError) as info:
        submit(draft(), "ann", lint=[warning, *errors])
    assert str(info.value) == f"cannot submit task 't1': {blocker}"
