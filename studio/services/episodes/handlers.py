"""The mode handler an episode gets (composite or primitive, one per episode), and the line a
step record keeps of the observation the step was chosen on."""

from __future__ import annotations

from studio.models.agent import Mode, Observation
from studio.services.episodes.editor_pages import EnvError
from studio.services.episodes.modes import ModeHandler

__all__ = ["make_handler", "observation_summary"]


def make_handler(mode: Mode, element_list: bool = True) -> ModeHandler:
    """A fresh handler for `mode` (one per episode: handlers keep per-page state);
    `element_list=False`: primitive mode without the element list (screenshots only)."""
    if mode is Mode.COMPOSITE:
        from studio.services.episodes.composite import CompositeMode

        return CompositeMode()
    try:
        from studio.services.episodes.primitive import PrimitiveMode
    except ImportError as exc:
        raise EnvError(f"primitive mode is not available: {exc}") from None
    handler: ModeHandler = PrimitiveMode(element_list=element_list)
    return handler


def observation_summary(obs: Observation | None) -> str:
    """A short line describing an observation ("" for none)."""
    if obs is None:
        return ""
    if obs.mode is Mode.COMPOSITE:
        return f"target {obs.editing_target}, {len(obs.blocks)} blocks, version {obs.version}"
    return f"{len(obs.elements)} elements"
