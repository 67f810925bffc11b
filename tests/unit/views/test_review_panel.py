"""The review panel: state badge, buttons per state, comments, history and lint findings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from studio.models.task import Review, ReviewEvent, ReviewState
from studio.views.checks.review_panel import LEVEL_COLORS, STATE_STYLES, SUBMIT_TIP, ReviewPanel


@dataclass(frozen=True)
class _Finding:
    level: str
    code: str
    message: str
    fix: str


ERROR = _Finding("error", "stale-check", "The last check is older than the script", "Run it")
WARNING = _Finding("warning", "short-instruction", "The instruction is short", "Say more")


def _review(state: ReviewState, *events: tuple[ReviewState, str, str]) -> Review:
    history = [
        ReviewEvent(state=s, by=by, at=datetime(2025, 3, 4, 9 + i, 5), comment=comment)
        for i, (s, by, comment) in enumerate(events)
    ]
    return Review(state=state, history=history)


@pytest.fixture
def panel(qtbot: Any) -> ReviewPanel:
    widget = ReviewPanel()
    qtbot.addWidget(widget)
    return widget


def _enabled(panel: ReviewPanel) -> list[str]:
    return [name for name, button in panel.buttons.items() if button.isEnabled()]


@pytest.mark.parametrize(
    ("state", "enabled"),
    [
        (ReviewState.DRAFT, ["submit"]),
        (ReviewState.IN_REVIEW, ["approve", "reject"]),
        (ReviewState.APPROVED, ["reopen"]),
        (ReviewState.REJECTED, ["submit", "reopen"]),
    ],
)
def test_buttons_follow_the_state(
    panel: ReviewPanel, state: ReviewState, enabled: list[str]
) -> None:
    panel.show_review(Review(state=state))
    assert _enabled(panel) == enabled
    background, color = STATE_STYLES[state]
    assert panel.state_badge.text() == state.value.replace("_", " ").upper()
    assert background in panel.state_badge.styleSheet() and color in panel.state_badge.styleSheet()


def test_nothing_is_enabled_without_a_task(panel: ReviewPanel) -> None:
    assert _enabled(panel) == []
    assert panel.state_badge.text() == "—"


def test_history_is_listed_newest_first(panel: ReviewPanel) -> None:
    review = _review(
        ReviewState.REJECTED,
        (ReviewState.IN_REVIEW, "ana", ""),
        (ReviewState.REJECTED, "ben", "m02 survives"),
    )
    panel.show_review(review)
    rows = [[panel.history.item(r, c).text() for c in range(4)] for r in range(2)]
    assert rows == [
        ["rejected", "ben", "2025-03-04 10:05", "m02 survives"],
        ["in review", "ana", "2025-03-04 09:05", ""],
    ]
    assert panel.history.item(0, 0).foreground().color().name() == "#8c1d18"
    assert panel.last_event.text() == "Rejected by ben on 2025-03-04 10:05: “m02 survives”"
    panel.show_review(Review())
    assert panel.history.rowCount() == 0 and panel.last_event.text() == "Never submitted."


def test_aware_times_show_in_local_time(panel: ReviewPanel) -> None:
    at = datetime(2025, 3, 4, 15, 40, tzinfo=UTC)
    panel.show_review(
        Review(
            state=ReviewState.IN_REVIEW, history=[ReviewEvent(state=ReviewState.IN_REVIEW, at=at)]
        )
    )
    assert panel.history.item(0, 2).text() == at.astimezone().strftime("%Y-%m-%d %H:%M")


def test_submit_is_blocked_by_lint_errors(panel: ReviewPanel, qtbot: Any) -> None:
    panel.show_review(Review(state=ReviewState.DRAFT))
    panel.show_lint([WARNING, ERROR])
    submit = panel.buttons["submit"]
    assert not submit.isEnabled()
    assert submit.toolTip() == (
        "Fix 1 lint error before submitting, first: The last check is older than the script"
    )
    assert panel.lint_title.text() == "Lint: 1 error, 1 warning"
    texts = [panel.lint.item(i).text() for i in range(panel.lint.count())]
    assert texts == [
        "The last check is older than the script  →  Run it",  # errors first
        "The instruction is short  →  Say more",
    ]
    assert panel.lint.item(0).foreground().color().name() == LEVEL_COLORS["error"]
    assert panel.lint.item(1).foreground().color().name() == LEVEL_COLORS["warning"]
    assert not panel.lint.item(0).icon().isNull()
    assert "stale-check" in panel.lint.item(0).toolTip()
    panel.show_lint([WARNING])  # warnings do not block
    assert submit.isEnabled() and submit.toolTip() == SUBMIT_TIP
    with qtbot.waitSignal(panel.submit_requested):
        submit.click()
    panel.show_lint([])
    assert panel.lint_title.text() == "Lint: no problems found"


def test_lint_from_the_services_finding(panel: ReviewPanel) -> None:
    from studio.services.authoring.lint import Finding, Level

    panel.show_review(Review(state=ReviewState.REJECTED))
    panel.show_lint([Finding(Level.ERROR, "x", "broken", "mend it")])
    assert panel.error_count() == 1 and not panel.buttons["submit"].isEnabled()
    assert panel.buttons["reopen"].isEnabled()


def test_approve_and_reopen_ask_for_an_optional_comment(
    panel: ReviewPanel, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts: list[str] = []

    def ask(title: str, prompt: str) -> str | None:
        prompts.append(title)
        return ""

    monkeypatch.setattr(panel, "_ask_comment", ask)
    panel.show_review(Review(state=ReviewState.IN_REVIEW))
    with qtbot.waitSignal(panel.approve_requested) as approved:
        panel.buttons["approve"].click()
    assert approved.args == [""]
    panel.show_review(Review(state=ReviewState.APPROVED))
    monkeypatch.setattr(panel, "_ask_comment", lambda _t, _p: "  typo in the instruction ")
    with qtbot.waitSignal(panel.reopen_requested) as reopened:
        panel.buttons["reopen"].click()
    assert reopened.args == ["typo in the instruction"]
    assert prompts == ["Approve task"]


def test_reject_needs_a_comment_and_cancel_does_nothing(
    panel: ReviewPanel, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel.show_review(Review(state=ReviewState.IN_REVIEW))
    for answer in ("   ", None):
        monkeypatch.setattr(panel, "_ask_comment", lambda _t, _p, a=answer: a)
        with qtbot.assertNotEmitted(panel.reject_requested):
            panel.buttons["reject"].click()
    assert not panel.hint.isHidden()
    assert panel.hint.text() == "A rejection needs a comment that says what the author must fix."
    monkeypatch.setattr(panel, "_ask_comment", lambda _t, _p: "m02 survives")
    with qtbot.waitSignal(panel.reject_requested) as rejected:
        panel.buttons["reject"].click()
    assert rejected.args == ["m02 survives"]
    assert panel.hint.isHidden()
