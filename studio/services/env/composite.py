"""Composite mode: the agent reads the program as indexed pseudocode and edits it by API."""

from __future__ import annotations

from typing import Any

from studio.models.agent import Mode, Observation
from studio.services.env.modes import ActionOutcome


class CompositeMode:
    """The composite-mode handler of one episode (work in progress)."""

    mode = Mode.COMPOSITE

    async def setup(self, page: Any) -> None:
        raise NotImplementedError

    async def observe(self, page: Any, step: int) -> Observation:
        raise NotImplementedError

    async def execute(self, page: Any, action: Any) -> ActionOutcome:
        raise NotImplementedError
