"""The cluster's drag-item runner: `drag.run.ItemRunner`, each item played on a worker.

The item folder travels to the worker as files, with the agent (a copy: the oracle carries
its items' labels, the random agent its seed, which with the item id and attempt number
decides every draw, so a copy draws as the original would) and the editor edition its
library records (the worker has no library). The worker opens an editor window of that edition,
plays the item's k attempts (`drag.run.run_item`) and sends back the attempts, the
first screen and what the agent spent; here the item is put back on this machine's folder,
the screen written under the run folder and the spending added to the agent's. A lost
worker's item runs again on another, and is taken once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from studio.services.core import atomic
from studio.services.diagnostics.agents import DragAgent
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.run import SCREENS_DIR, ItemRun
from studio.services.distributed import files
from studio.services.distributed.dispatch import Dispatcher
from studio.services.distributed.worker import DragItemJob, DragItemReturn
from studio.services.runtime import editions

__all__ = ["ClusterDrags", "add_usage"]


class ClusterDrags:
    """Play drag items on the cluster's workers, through a dispatcher."""

    def __init__(self, dispatcher: Dispatcher) -> None:
        self.dispatcher = dispatcher

    async def run_item(self, entry: ItemFolder, agent: DragAgent, k: int, run_dir: Path) -> ItemRun:
        edition = editions.edition_of_item(entry.path).value  # the worker has no library
        job = DragItemJob(files.pack(entry.path), entry.path.name, agent, k, edition)
        key = f"drag/{entry.item.id}/{entry.path}"
        back: DragItemReturn = await self.dispatcher.run(key, "drag_item", job)
        if back.screen is not None:
            atomic.write_bytes(run_dir / SCREENS_DIR / f"{entry.item.id}.png", back.screen)
        add_usage(agent, back.usage)
        item = back.run
        item.entry = entry
        return item


def add_usage(agent: DragAgent, spent: object) -> None:
    """Add a copy's spending (an `llm.Usage`) to the agent's own counters."""
    usage = getattr(agent, "usage", None)
    if not dataclasses.is_dataclass(usage) or type(spent) is not type(usage):
        return
    for f in dataclasses.fields(usage):
        setattr(usage, f.name, getattr(usage, f.name) + getattr(spent, f.name))
