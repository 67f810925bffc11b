"""Routes served beside the agent API's own without its token: a benchmark format's server.

A format whose published clients talk to a server of their own (ScratchWorld's session routes)
gives the API an `OpenRoutes`; the API imports no format. `ApiApp` calls `install` once on its
FastAPI app. `is_open_path(path)` names the paths that are the format's: the Guard serves them
without a token (it still checks Host, Origin and the body size), and a body or query they
cannot use answers FastAPI's own 422 `detail` list instead of the API's `{"error": ...}`.
Because they take no token, `ApiServer` serves them on a loopback address only and its refusal
names them by `name`.
"""

from __future__ import annotations

from typing import Protocol

from fastapi import FastAPI

__all__ = ["OpenRoutes"]


class OpenRoutes(Protocol):
    """A format's token-free routes, as the agent API serves them (see the module)."""

    @property
    def name(self) -> str:
        """What they are, in a sentence: 'the ScratchWorld routes'."""
        ...

    def install(self, api: FastAPI) -> None:
        """Add the routes (and the exception handlers they need) to `api`."""
        ...

    def is_open_path(self, path: str) -> bool:
        """True for a path these routes serve (served without a token)."""
        ...
