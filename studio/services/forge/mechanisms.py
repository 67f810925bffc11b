"""Which of ScratchEval's eight mechanisms an operator's bug is, and the words of its report.

`mechanism_of(operator, project, sprite, block_id)` names the mechanism (None for an operator
the forge does not use: the generic deletions, arithmetic and duplication of Whisker). A
threshold changed (CNT) or a condition negated (NCM) in what ends a loop or a wait is a
non-terminating loop; elsewhere it is incorrect conditional logic, as flipped comparators,
swapped operands, changed logic and variables are. `triggers_of` names the events that start
the script holding a block, in the fixed trigger vocabulary (`green_flag`, `key:space`,
`click:Cat`, `broadcast:NAME`, `backdrop:NAME`, `clone:Cat`, `click:Stage`).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from studio.models.forge import BUG_FILE
from studio.models.mutation import Mutant
from studio.services.core.blocks import Project, find_target, script_top
from studio.services.core.render import block_label

__all__ = [
    "FORGE_OPERATORS",
    "coverage_order",
    "mechanism_of",
    "script_words",
    "trigger_words",
    "triggers_of",
]

_FIXED = {
    "MIR": "missing_initialization",
    "BAW": "desynchronization",
    "RWT": "desynchronization",
    "RNM": "untriggered_event",
    "KRM": "untriggered_event",
    "ROR": "incorrect_conditional_logic",
    "SWO": "incorrect_conditional_logic",
    "LOR": "incorrect_conditional_logic",
    "VRM": "incorrect_conditional_logic",
    "RCV": "sprite_state_mismatch",
    "DCD": "clone_management",
    "EHC": "event_handler_conflict",
}
FORGE_OPERATORS = (
    "MIR",
    "BAW",
    "RWT",
    "RNM",
    "KRM",
    "ROR",
    "SWO",
    "LOR",
    "VRM",
    "CNT",
    "NCM",
    "RCV",
    "DCD",
    "EHC",
)
_LOOP_ENDS = frozenset({"control_repeat", "control_repeat_until", "control_wait_until"})


def mechanism_of(operator: str, project: Project, sprite: str, block_id: str) -> str | None:
    """The mechanism of a bug `operator` made at `block_id` of `sprite` in the golden."""
    if operator in _FIXED:
        return _FIXED[operator]
    if operator not in ("CNT", "NCM"):
        return None
    blocks = find_target(project, sprite)["blocks"]
    cur: str | None = block_id
    while cur and isinstance(blocks.get(cur), dict):
        if blocks[cur]["opcode"] in _LOOP_ENDS:
            return "non_terminating_loop"
        parent = blocks[cur].get("parent")
        if parent and blocks.get(parent, {}).get("next") == cur:
            break  # a statement: conditions of the blocks around it are not its own
        cur = parent
    return "incorrect_conditional_logic"


def _field(blocks: dict, bid: str, name: str) -> str:
    value = blocks[bid].get("fields", {}).get(name) or [""]
    return str(value[0])


def triggers_of(project: Project, sprite: str, block_id: str) -> list[str]:
    """The event that starts the script holding `block_id`, in the trigger vocabulary."""
    blocks = find_target(project, sprite)["blocks"]
    if block_id not in blocks:
        return []
    top = script_top(blocks, block_id)
    opcode = blocks[top]["opcode"]
    if opcode == "event_whenflagclicked":
        return ["green_flag"]
    if opcode == "event_whenkeypressed":
        return [f"key:{_field(blocks, top, 'KEY_OPTION')}"]
    if opcode == "event_whenthisspriteclicked":
        return [f"click:{sprite}"]
    if opcode == "event_whenstageclicked":
        return ["click:Stage"]
    if opcode == "event_whenbroadcastreceived":
        return [f"broadcast:{_field(blocks, top, 'BROADCAST_OPTION')}"]
    if opcode == "event_whenbackdropswitchesto":
        return [f"backdrop:{_field(blocks, top, 'BACKDROP')}"]
    if opcode == "control_start_as_clone":
        return [f"clone:{sprite}"]
    return []


def script_words(project: Project, sprite: str, block_id: str) -> str:
    """The hat of the script holding `block_id`, in words ('when green flag clicked')."""
    blocks = find_target(project, sprite)["blocks"]
    if block_id not in blocks:
        return ""
    return block_label(blocks, script_top(blocks, block_id))


def trigger_words(triggers: list[str]) -> str:
    """Triggers in words: 'click the green flag', 'press the space key', 'click Cat', ..."""
    words = []
    for t in triggers:
        kind, _, arg = t.partition(":")
        words.append(
            {
                "green_flag": "click the green flag",
                "key": f"press the {arg} key",
                "click": f"click {arg}",
                "broadcast": f"the message '{arg}' is sent",
                "backdrop": f"the backdrop switches to {arg}",
                "clone": f"a clone of {arg} starts",
            }.get(kind, t)
        )
    return "; ".join(words)


def library_mechanisms(library: Path) -> Counter[str]:
    """How many forged tasks of each mechanism a library holds (from their bug.json)."""
    found: Counter[str] = Counter()
    if library.is_dir():
        for record in library.glob(f"*/{BUG_FILE}"):
            try:
                found[str(json.loads(record.read_text(encoding="utf-8"))["mechanism"])] += 1
            except (OSError, ValueError, KeyError, TypeError):
                continue
    return found


def coverage_order(mutants: list[Mutant], golden: Project, library: Path) -> list[Mutant]:
    """Candidates with mechanisms taking turns, the mechanisms the library has least of first
    (coverage-aware scheduling); within a mechanism, the engine's order."""
    by_mech: dict[str, list[Mutant]] = {}
    for m in mutants:
        mech = mechanism_of(m.operator, golden, m.sprite, m.block_id) or "~"
        by_mech.setdefault(mech, []).append(m)
    have = library_mechanisms(library)
    order = sorted(by_mech, key=lambda k: (k == "~", have[k], k))
    out: list[Mutant] = []
    depth = max((len(v) for v in by_mech.values()), default=0)
    for i in range(depth):
        out += [by_mech[k][i] for k in order if i < len(by_mech[k])]
    return out
