"""What an interaction mode must provide to an episode.

An episode owns one browser page showing the full Scratch editor (resources/web/editor.html)
at 1280x720 with the task's initial project loaded. It validates each action with
`studio.models.action_parse.parse_action` and hands it to the mode's handler; it records
the step and the program change itself. A handler raises `ActionError` for an action that
cannot be done in the current state (an index that does not exist, a stale composite index, a
point outside the viewport): the episode reports it as a 4xx and stays usable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from studio.models.agent import Mode, Observation
from studio.services.runtime.page_seam import EditorPage, Viewport

__all__ = ["VIEWPORT", "ActionOutcome", "ModeHandler", "ParsesActions", "ReadsProgram"]

VIEWPORT: Viewport = {"width": 1280, "height": 720}


@dataclass
class ActionOutcome:
    """What executing one action did: the element or block it hit, and any detail to record."""

    target: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


class ModeHandler(Protocol):
    """One interaction mode (primitive or composite) working on an editor page."""

    mode: Mode

    async def setup(self, page: EditorPage) -> None:
        """Called once after the initial project is loaded and the editor is ready."""

    async def observe(self, page: EditorPage, step: int) -> Observation:
        """The observation an agent gets before step `step`."""

    async def execute(self, page: EditorPage, action: Any) -> ActionOutcome:
        """Perform one validated action (not done/failed); raise ActionError when impossible."""


@runtime_checkable
class ParsesActions(Protocol):
    """A mode handler that validates raw actions itself (a ScratchWorld session, whose calls
    are both modes' and its own); the episode uses `parse_action` for any other."""

    def parse(self, raw: dict[str, Any]) -> Any:
        """The validated action (with `api` and `args`); ActionError when it is not valid."""
        ...


@runtime_checkable
class ReadsProgram(Protocol):
    """A mode handler that reads the program itself (a sealed ScratchWorld session's reader,
    captured before any agent code ran); the episode asks the editor's bridge otherwise."""

    async def read_sb3(self, page: EditorPage) -> bytes:
        """The program shown in `page` as .sb3 bytes."""
        ...
