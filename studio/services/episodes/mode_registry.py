"""The episode modes by name: how an agent acts on the editor, one handler per episode.

`MODES` names each mode (its name is the `studio.models.agent.Mode` value that runs, records
and the API carry) and its maker, a callable (HandlerOptions) -> ModeHandler, imported when
the first episode of that mode starts (the primitive mode loads OCR, the composite one the
block catalog). The help line is what the command line's `--mode` help and the window's mode
menu show. `studio.services.episodes.handlers.make_handler` makes a handler through it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from studio.services.core.registry import Registry

if TYPE_CHECKING:
    from studio.services.core.store import TaskFolder
    from studio.services.episodes.modes import ModeHandler

__all__ = ["MODES", "HandlerOptions", "ModeMaker"]


@dataclass(frozen=True)
class HandlerOptions:
    """What a mode's maker is given: `element_list=False` asks the primitive mode for
    screenshots only (no element list); other modes ignore it. `task` is the episode's task
    (patch mode reads its bug report from it; None when the episode has none yet)."""

    element_list: bool = True
    task: TaskFolder | None = None


ModeMaker = Callable[[HandlerOptions], "ModeHandler"]

MODES: Registry[ModeMaker] = Registry("episode mode")
MODES.add(
    "composite",
    "studio.services.episodes.handlers:composite_handler",
    "block operations on a text view",
)
MODES.add(
    "primitive",
    "studio.services.episodes.handlers:primitive_handler",
    "mouse and keys on screenshots",
)
MODES.add(
    "patch",
    "studio.services.episodes.handlers:patch_handler",
    "the repair track: one patch of atomic block edits on the program and a bug report",
)
MODES.add(
    "understand",
    "studio.services.episodes.handlers:understand_handler",
    "name a forged bug's triggers and mechanism from its program and symptom",
)
MODES.add(
    "text",
    "studio.services.episodes.handlers:text_handler",
    "the text track: the program as scratchblocks text, answered with scratchblocks text",
)
