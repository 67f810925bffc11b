"""Episodes of the agent environment: the episode manager, agents, limits and prices,
live runs in the window, human baseline sessions and the agent HTTP API's server.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.episodes import agents
    from studio.services.episodes.agents.base import Agent
    from studio.services.episodes.episode import Episode, EpisodeManager
    from studio.services.episodes.human.protocol import ProtocolCard
    from studio.services.episodes.limits import Limits, PriceTable, load_prices, usage_text
    from studio.services.episodes.live.controls import RunControls, RunState
    from studio.services.episodes.live.runner import LiveRun, watch
    from studio.services.episodes.live.window_pages import WindowPageSource
    from studio.services.episodes.modes import VIEWPORT

__getattr__ = lazy.exports(
    __name__,
    {
        "Agent": ("studio.services.episodes.agents.base", "Agent"),
        "Episode": ("studio.services.episodes.episode", "Episode"),
        "EpisodeManager": ("studio.services.episodes.episode", "EpisodeManager"),
        "Limits": ("studio.services.episodes.limits", "Limits"),
        "LiveRun": ("studio.services.episodes.live.runner", "LiveRun"),
        "PriceTable": ("studio.services.episodes.limits", "PriceTable"),
        "ProtocolCard": ("studio.services.episodes.human.protocol", "ProtocolCard"),
        "RunControls": ("studio.services.episodes.live.controls", "RunControls"),
        "RunState": ("studio.services.episodes.live.controls", "RunState"),
        "VIEWPORT": ("studio.services.episodes.modes", "VIEWPORT"),
        "WindowPageSource": ("studio.services.episodes.live.window_pages", "WindowPageSource"),
        "agents": ("studio.services.episodes", "agents"),
        "load_prices": ("studio.services.episodes.limits", "load_prices"),
        "usage_text": ("studio.services.episodes.limits", "usage_text"),
        "watch": ("studio.services.episodes.live.runner", "watch"),
    },
)

__all__ = [
    "VIEWPORT",
    "Agent",
    "Episode",
    "EpisodeManager",
    "Limits",
    "LiveRun",
    "PriceTable",
    "ProtocolCard",
    "RunControls",
    "RunState",
    "WindowPageSource",
    "agents",
    "load_prices",
    "usage_text",
    "watch",
]
# --- end of re-exports ---
