"""Issue 42 in the window's own editor: a live run under a protocol with a feedback turn (what
the Start agent run dialog asks for) takes the turn the agent asks for, hears it, and records
the protocol and the turn with the run."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from studio.app.live_protocol import live_protocol
from studio.models.agent import Mode
from studio.services.core import paths
from studio.services.episodes.agents import ScriptedAgent

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 120_000
HAT = {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}}
ASK = {"api": "request_feedback", "args": {}}


def test_a_live_run_takes_its_feedback_turn_and_records_the_protocol(
    boot_window: Callable[..., Any], run_async: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    assert window.library.select_task("create_cat_walk")
    entry = window.library.current_entry()
    agent = ScriptedAgent([HAT, ASK, ASK])  # the second request is beyond the budget
    record = live_protocol(None, Mode.COMPOSITE, "scripted", 1)
    result = run_async(
        window.runs.run_agent(entry, agent, Mode.COMPOSITE, protocol=record), timeout_ms=WAIT_MS
    )
    assert result is not None and result.success is False
    (heard,) = agent.heard
    assert heard["turn"] == 1 and heard["after_step"] == 1 and heard["passed"] < heard["total"]
    assert len(agent.errors) == 1 and "budget of 1 turn(s) is used" in agent.errors[0]
    folder = window.runs.live.last_folder
    assert folder is not None
    run = json.loads((folder / "run.json").read_text())
    assert run["meta"]["protocol"]["settings"]["feedback_turns"] == 1
    assert [t["turn"] for t in run["meta"]["feedback"]] == [1]
    assert run["steps"] == 3  # the hat, the refused request, done
