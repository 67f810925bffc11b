"""Episodes of the agent environment: the episode manager, agents, limits and prices,
live runs in the window, human baseline sessions and the agent HTTP API's server.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.episodes import agents
from studio.services.episodes.agents.base import Agent
from studio.services.episodes.editor_pages import EditorPages
from studio.services.episodes.episode import Episode, EpisodeManager
from studio.services.episodes.human.live import HumanSessionDriver
from studio.services.episodes.human.protocol import ProtocolCard
from studio.services.episodes.human.session import HumanSessionRecorder
from studio.services.episodes.limits import Limits, PriceTable, load_prices, usage_text
from studio.services.episodes.live.controls import RunControls, RunState
from studio.services.episodes.live.runner import LiveRun, watch
from studio.services.episodes.live.window_pages import WindowPageSource
from studio.services.episodes.modes import VIEWPORT

__all__ = [
    "VIEWPORT",
    "Agent",
    "EditorPages",
    "Episode",
    "EpisodeManager",
    "HumanSessionDriver",
    "HumanSessionRecorder",
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
