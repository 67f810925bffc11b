"""One ScratchWorld session: its studio episode, its handler and its state (`sessions` keeps
them; `projects` and `routes` act on one).

`info()` is the session as the published server lists it (`session_id`, `created_at`,
`is_recording`, `task_name`), with the studio's own fields beside (`episode_id`, `steps`,
`bound_task`: the only task a sealed session evaluates, `ended`: why the watchdog ended it).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from studio.services.formats.scratchworld.server.handler import SessionHandler
from studio.services.formats.scratchworld.server.seal import Binding

__all__ = ["SwSession"]


@dataclass
class SwSession:
    id: str
    episode: Any  # studio.services.episodes.episode.Episode
    handler: SessionHandler
    created_at: float
    is_recording: bool
    quality: str
    task_name: str | None
    last_used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    binding: Binding = field(default_factory=Binding)
    ended: str | None = None  # why the watchdog ended it

    @property
    def page(self) -> Any:
        return self.episode.page

    def info(self) -> dict[str, Any]:
        return {
            "session_id": self.id,
            "created_at": self.created_at,
            "is_recording": self.is_recording,
            "task_name": self.task_name,
            "episode_id": self.episode.id,
            "steps": self.episode.step_count,
            "bound_task": self.binding.name,  # the only task it evaluates (seal)
            "ended": self.ended,
        }
