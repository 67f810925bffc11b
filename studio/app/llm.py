"""The LLM agent's settings (its endpoint client is imported only by what plays it).

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.episodes.agents.llm import ENV_MODEL, LlmSettings

__all__ = [
    "ENV_MODEL",
    "LlmSettings",
]
# --- end of re-exports ---
