"""The seams an episode takes from its owner: where its page comes from (`PageSource`), a gate
called before each step (`StepGate`: a paused live view waits in it, a stopped one raises
ActionError), and a listener called after each recorded step (`StepListener`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from studio.models.agent import Observation, StepRecord
from studio.services.runtime.page_seam import EditorPage

if TYPE_CHECKING:
    from studio.services.runtime.browser import BrowserPool

__all__ = ["EpisodeHost", "PageSource", "StepGate", "StepListener"]

# Called with the raw action before a step runs; may wait (a paused live view) or raise
# ActionError (a stopped one).
StepGate = Callable[[dict[str, Any]], Awaitable[None]]
# Called after each recorded step with the record, the screenshot taken before it (PNG bytes,
# None when not recorded) and the observation the actor had.
StepListener = Callable[[StepRecord, bytes | None, Observation | None], None]


class PageSource(Protocol):
    """Where an episode's page comes from (fresh headless pages, or the studio's own editor)."""

    async def acquire(self) -> tuple[EditorPage, bool]:
        """A ready editor page and whether the episode owns it (closes it at the end)."""
        ...

    def release(self, page: EditorPage) -> None:
        """The episode on `page` has ended (called for pages the episode does not own)."""
        ...

    async def refresh(self, page: EditorPage) -> None:
        """Before each observation and action: put the page back in the episode's state
        (e.g. its screen size, which a resized window may have reset)."""
        ...


class EpisodeHost(Protocol):
    """What an episode needs of the manager that made it (`manager.EpisodeManager`): the
    browser whose fresh pages run its evaluations, the source that lends it a page (or None),
    and the way to give back a page it owns."""

    @property
    def pool(self) -> BrowserPool: ...

    @property
    def page_source(self) -> PageSource | None: ...

    def release_page(self, page: EditorPage) -> None: ...
