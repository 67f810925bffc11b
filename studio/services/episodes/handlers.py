"""The mode handler an episode gets (one per episode, made through the mode registry
`mode_registry.MODES`), and the line a step record keeps of the observation the step was
chosen on."""

from __future__ import annotations

from studio.models.agent import Mode, Observation
from studio.services.core.store import TaskFolder
from studio.services.episodes.editor_pages import EnvError
from studio.services.episodes.mode_registry import MODES, HandlerOptions
from studio.services.episodes.modes import ModeHandler

__all__ = [
    "composite_handler",
    "make_handler",
    "observation_summary",
    "patch_handler",
    "primitive_handler",
    "text_handler",
    "understand_handler",
]


def make_handler(
    mode: Mode, element_list: bool = True, task: TaskFolder | None = None
) -> ModeHandler:
    """A fresh handler for `mode` (one per episode: handlers keep per-page state), made by the
    mode's maker in `MODES`; `element_list=False`: primitive mode without the element list
    (screenshots only); `task`: the episode's task (patch mode reads its bug record)."""
    maker = MODES.get(Mode(mode).value)
    return maker(HandlerOptions(element_list=element_list, task=task))


def composite_handler(_options: HandlerOptions) -> ModeHandler:
    """The composite mode's handler: block operations on a text view."""
    from studio.services.episodes.composite import CompositeMode

    return CompositeMode()


def primitive_handler(options: HandlerOptions) -> ModeHandler:
    """The primitive mode's handler: mouse and keys on screenshots (EnvError when its
    dependencies cannot be imported)."""
    try:
        from studio.services.episodes.primitive import PrimitiveMode
    except ImportError as exc:
        raise EnvError(f"primitive mode is not available: {exc}") from None
    handler: ModeHandler = PrimitiveMode(element_list=options.element_list)
    return handler


def patch_handler(options: HandlerOptions) -> ModeHandler:
    """Patch mode's handler: one patch of atomic edits on the program and a bug report."""
    from studio.services.episodes.patch_mode import PatchMode

    return PatchMode(options.task)


def understand_handler(options: HandlerOptions) -> ModeHandler:
    """Understanding mode's handler: name a forged bug's triggers and mechanism."""
    from studio.services.episodes.understand_mode import UnderstandMode

    return UnderstandMode(options.task)


def text_handler(options: HandlerOptions) -> ModeHandler:
    """Text mode's handler: scratchblocks text answers built into the program."""
    from studio.services.episodes.text_mode import TextMode

    return TextMode(options.task)


def observation_summary(obs: Observation | None) -> str:
    """A short line describing an observation ("" for none)."""
    if obs is None:
        return ""
    if obs.mode is Mode.COMPOSITE:
        return f"target {obs.editing_target}, {len(obs.blocks)} blocks, version {obs.version}"
    if obs.mode in (Mode.PATCH, Mode.UNDERSTAND):
        blocks = sum(len(b) for b in (obs.program or {}).values())
        report = ", bug report" if obs.report else ""
        return f"{len(obs.program or {})} targets, {blocks} blocks{report}"
    if obs.mode is Mode.TEXT:
        return f"{len((obs.text or '').splitlines())} lines of text"
    return f"{len(obs.elements)} elements"
