"""The LLM agent's settings (its endpoint client is imported only by what plays it).

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.episodes.agents.llm import ENV_MODEL, LlmSettings

__getattr__ = lazy.exports(
    __name__,
    {
        "ENV_MODEL": ("studio.services.episodes.agents.llm", "ENV_MODEL"),
        "LlmSettings": ("studio.services.episodes.agents.llm", "LlmSettings"),
    },
)

__all__ = [
    "ENV_MODEL",
    "LlmSettings",
]
# --- end of re-exports ---
