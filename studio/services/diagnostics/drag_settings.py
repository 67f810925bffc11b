"""The drag benchmark's settings of ScratchWorld's Table 2, for `studio drag run`.

- *Baseline*: the agent gets the screenshot and the instruction.
- *GT Start* (`ground_truth_start`): the agent is also given a valid start point: the item's
  feasible start point nearest its recorded drag start (the oracle's start,
  `agents.oracle_drag`), in 1280x720 page pixels. An item without computed regions has no
  such point: the run is refused before it starts (`settings_problems` names the items).
- *Knowledge* (`knowledge`): hints on where to press and where to release, `KNOWLEDGE_HINTS`,
  added to the prompt. The paper's appendix lists such heuristics; the text here is written in
  our own words. Only an agent that reads a prompt (the LLM agent) can use them: for another
  agent the setting is refused.

`SettingsDragAgent` wraps any drag agent and hands it observations carrying the given start
(`DragObservation.given_start`) and the hints (`DragObservation.hints`); the LLM agent puts
both into its prompt, the random agent starts its drag at a given start, the oracle and the
scripted agent keep their own starts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from studio.models.drag_item import DragItem
from studio.services.diagnostics.agents import DragAgent, DragDecision, DragObservation, oracle_drag

__all__ = ["KNOWLEDGE_HINTS", "SettingsDragAgent", "settings_problems"]

KNOWLEDGE_HINTS = """\
Hints for placing a drag in the Scratch editor:
1. Where to press. Press on the visible body of the block you move, close to its left edge
   (about 10 to 20 px in from it). To move a whole stack, press on its top block: pressing on a
   lower block splits the stack there. Pressing near the left edge also makes it easier to line
   the block up with its target.
2. Stacking command blocks, below a target: release with x on the target's left edge and y
   about 15 to 20 px below the target's bottom edge.
   Stacking above a target: keep x on the target's left edge and release at the target's top y
   minus the height of what you carry, because you hold the carried stack by its top, so its
   bottom has to meet the target's top.
3. Into a C block (forever, repeat, if): release about 15 to 20 px to the right of the C
   block's left edge and about 15 to 20 px below the bottom of its upper arm, inside its mouth.
4. Into an input slot: a round reporter or a hexagonal boolean block goes into an empty slot of
   the target block; release at the centre of that slot."""


def settings_problems(
    items: Mapping[str, DragItem],
    agent: str,
    ground_truth_start: bool,
    knowledge: bool,
    prompted: Sequence[str],
) -> list[str]:
    """Why these settings cannot run on these items with this agent (empty when they can);
    `prompted` names the agents that read a prompt (the item agents' trait "reads-prompt")."""
    problems = []
    if knowledge and agent not in prompted:
        problems.append(
            f"--knowledge: the {agent} agent reads no prompt (only: {', '.join(prompted)})"
        )
    if ground_truth_start:
        missing = sorted(i for i, item in items.items() if oracle_drag(item) is None)
        if missing:
            problems.append(
                "--ground-truth-start: no computed start region for item(s) "
                f"{', '.join(missing)} (`studio regions compute` first)"
            )
    return problems


class SettingsDragAgent:
    """A drag agent run under the GT Start and/or Knowledge settings."""

    def __init__(
        self,
        inner: DragAgent,
        items: Mapping[str, DragItem],
        ground_truth_start: bool = False,
        knowledge: bool = False,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.ground_truth_start = ground_truth_start
        self.knowledge = knowledge
        self.starts: dict[str, tuple[float, float]] = {}
        if ground_truth_start:
            for item_id, item in items.items():
                found = oracle_drag(item)
                if found is not None:
                    self.starts[item_id] = found[0]

    def __getattr__(self, name: str) -> Any:  # usage, settings, ... of the wrapped agent
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    async def drag(self, observation: DragObservation) -> DragDecision:
        given = self.starts.get(observation.item_id) if self.ground_truth_start else None
        seen = dataclasses.replace(
            observation,
            given_start=given,
            hints=KNOWLEDGE_HINTS if self.knowledge else "",
        )
        return await self.inner.drag(seen)
