"""An episode's last program export, reused while nothing the export carries has changed.

A recorded episode keeps its program at every observation (the final program should its page
be lost: episodes.page_loss), and exports it again to evaluate it, to hand it to a client and
to store it at the end. Between two of these often nothing happened. `ExportCache.sb3(page,
export)` reads the page's change key first (resources/js/program-changes.js, `studioChanges.key`:
one small call) and runs `export` only when

- no export was kept (the first one, or `forget()` was called since), or
- the key differs from the one read before the kept export: the VM or its runtime emitted an
  event (a block, target, variable, monitor or project changed, a run started or stopped), a
  VM step ran threads (a script moved a sprite, changed a costume or a variable), a thread was
  pushed, the renderer was asked to change something, or the page dispatched an input event
  (mouse, keys, wheel, touch, focus, text input) since; or
- the page gives no key (no VM in it).

The key is read before the export, so a change made while exporting makes the next call
export again. The episode calls `forget()` at every action (any action, a refused one or a
raw mouse or key action included) and whenever its program is replaced outside a step, so an
action is always seen by the next export whatever the page counted. `exports` and `reused`
count what happened (benchmarks and tests read them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import ScriptPage

__all__ = ["ExportCache"]


class ExportCache:
    """The last export of one episode's program, keyed by its page's change key."""

    def __init__(self) -> None:
        self._key: str | None = None
        self._sb3: bytes | None = None
        self.exports = 0
        self.reused = 0

    def forget(self) -> None:
        """Drop the kept export: the next `sb3` exports."""
        self._key = self._sb3 = None

    async def sb3(self, page: ScriptPage, export: Callable[[], Awaitable[bytes]]) -> bytes:
        """The program as .sb3 bytes: the kept export while the page's change key is the one
        read before it, else a new export (kept with the key read just before it)."""
        key = await page_scripts.call(page, page_scripts.CHANGES, "key")
        if key is not None and key == self._key and self._sb3 is not None:
            self.reused += 1
            return self._sb3
        sb3 = await export()
        self.exports += 1
        self._key, self._sb3 = (str(key), sb3) if key is not None else (None, None)
        return sb3
