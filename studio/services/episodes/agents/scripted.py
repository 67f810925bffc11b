"""Agents that need no model: a scripted replay and an idle agent (a floor for checks)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from studio.models.agent import Observation

__all__ = ["DONE", "IdleAgent", "ScriptedAgent"]

DONE: dict[str, Any] = {"api": "done", "args": {}}


class ScriptedAgent:
    """Replays a fixed list of actions (each an action dict, or (action, reasoning)), then done.
    A `request_feedback` in the list asks for a feedback turn (episodes.feedback); the turns'
    records are kept in `heard`.

    Indexes in a script refer to the observations the replay will meet, so a script is tied to
    the task it was written for.
    """

    def __init__(
        self, actions: Iterable[dict[str, Any] | tuple[dict[str, Any], str]], name: str = "scripted"
    ) -> None:
        self.name = name
        self._queue: list[tuple[dict[str, Any], str]] = []
        for item in actions:
            action, why = item if isinstance(item, tuple) else (item, "")
            self._queue.append((action, why or "scripted step"))
        self.errors: list[str] = []
        self.heard: list[dict[str, Any]] = []

    def feedback(self, error: str) -> None:
        self.errors.append(error)

    def evaluated(self, record: dict[str, Any], text: str) -> None:
        self.heard.append(record)

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        if self._queue:
            return self._queue.pop(0)
        return dict(DONE), "end of the script"


class IdleAgent:
    """Says done at once: the program stays as the task starts it."""

    name = "idle"

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        return dict(DONE), "do nothing"
