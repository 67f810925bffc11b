"""ScratchEval's eighth bug pattern, event handler conflict (stutter), as an operator.

EHC duplicates one event script (green flag, key, sprite click, message, backdrop switch): the
copy runs beside the original on the same event, so what the script does happens twice
(a double move, a score that counts twice, a stutter of transitions). The copy gets fresh block
ids and sits beside the original; the minimal fix removes its hat.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from studio.services.checking.mutation.operators import (
    MutationOperator,
    Site,
    Target,
    label,
    where,
)
from studio.services.core.blocks import (
    Block,
    Project,
    fresh_id,
    scripts,
    subtree,
    target_name,
)

__all__ = ["EHC", "EVENT_HATS", "EVENT_OPERATORS"]

EVENT_HATS = frozenset(
    {
        "event_whenflagclicked",
        "event_whenkeypressed",
        "event_whenthisspriteclicked",
        "event_whenstageclicked",
        "event_whenbroadcastreceived",
        "event_whenbackdropswitchesto",
    }
)


class EHC(MutationOperator):
    """Event handler conflict: an event script is duplicated, so it runs twice per event."""

    name = "EHC"
    doc = "Event Handler Conflict: duplicate an event script so the event runs it twice."

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        blocks = target["blocks"]
        if blk["opcode"] in EVENT_HATS and blk.get("next") and bid in scripts(blocks):
            yield Site(target_name(target), bid)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        blocks = target["blocks"]
        ids = subtree(blocks, site.block_id, with_next=True)
        fresh: dict[str, str] = {}
        for bid in ids:  # ids that no target uses yet, and not each other's
            new = fresh_id(project, f"ehc-{bid}")
            while new in fresh.values():
                new = f"{new}x"
            fresh[bid] = new
        for bid in ids:
            blk = copy.deepcopy(blocks[bid])
            for key in ("parent", "next"):
                if blk.get(key) in fresh:
                    blk[key] = fresh[blk[key]]
            for name, inp in blk.get("inputs", {}).items():
                if isinstance(inp, list):
                    blk["inputs"][name] = [
                        fresh.get(x, x) if isinstance(x, str) else x for x in inp
                    ]
            if bid == site.block_id:
                blk["x"] = blk.get("x", 0) + 40
                blk["y"] = blk.get("y", 0) + 40
            target["blocks"][fresh[bid]] = blk

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        return f"duplicated the '{label(project, site)}' script {where(project, site)}"


EVENT_OPERATORS: tuple[type[MutationOperator], ...] = (EHC,)
