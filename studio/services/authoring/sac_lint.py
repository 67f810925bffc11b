"""SAC as an authoring lint: what the golden's new blocks use that the instruction never states.

NL2Scratch screens its descriptions with a slot-level alignment check (SAC): a description
must state the program's numbers, events and names. This lint applies the same idea to a
task. The golden's *changed* scripts (those the initial project does not have block for
block) give the slots: numbers in their inputs (loop counts among them), the keys, messages
and backdrops their hats wait for, the messages they send, the variables they set or change.
Each that the instruction never states is a warning. Numbers compare by magnitude (`-10`
is stated by "10 steps down"), number words count ("one", "twice"), and 0 and 1 (a counter's
start and step) are not asked for. The reverse: a loop count the instruction states ("10
times") that no `repeat` of the golden uses. Debug tasks are left out (their changed blocks
are the fix the agent must find), and so are instructions that end mid-sentence, which get a
warning of their own.
"""

from __future__ import annotations

import re
from typing import Any

from studio.models.task import Category
from studio.services.authoring.names import mentions
from studio.services.authoring.script_refs import Ref, RefKind
from studio.services.core.blocks import target_name
from studio.services.core.blocktext.compare import script_shape
from studio.services.core.blocktext.writing import top_ids

__all__ = [
    "Slot", "changed_slots", "instruction_numbers", "is_cut_off", "stated_counts", "unstated",
]  # fmt: skip

Slot = tuple[str, str]  # (what, value): ("number", "15"), ("key", "space"), ...

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w])")
_WORDS = {
    "zero": "0", "one": "1", "once": "1", "two": "2", "twice": "2", "three": "3",
    "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
    "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20", "hundred": "100",
}  # fmt: skip
_TRIVIAL = frozenset({"0", "1"})
_ENDS = (".", "!", "?", ")", '"', "'", ":")
_NAMED_FIELDS = {"KEY_OPTION": "key", "BROADCAST_OPTION": "message", "BACKDROP": "backdrop"}
_REF_KINDS = {"key": RefKind.KEY, "message": RefKind.MESSAGE}
_TIMES = re.compile(r"(-?\d+(?:\.\d+)?|[a-z]+) times\b", re.IGNORECASE)


def _magnitude(text: str) -> str | None:
    try:
        value = abs(float(text))
    except ValueError:
        return None
    return str(int(value)) if value.is_integer() else f"{value:g}"


def _walk(shape: Any, out: set[Slot]) -> None:
    if isinstance(shape, list):
        for item in shape:
            _walk(item, out)
        return
    if not isinstance(shape, dict):
        return
    opcode = shape.get("op", "")
    for name, value in shape.get("fields", {}).items():
        kind = _NAMED_FIELDS.get(name)
        if kind and value:
            out.add((kind, value))
    for name, value in shape.get("inputs", {}).items():
        if opcode == "control_repeat" and name == "TIMES" and isinstance(value, str):
            count = _magnitude(value)
            if count is not None:
                out.add(("loop count", count))
        if name == "BROADCAST_INPUT" and isinstance(value, str) and value:
            out.add(("message", value))
        elif isinstance(value, str):
            number = _magnitude(value) if _NUMBER.fullmatch(value.strip()) else None
            if number is not None:
                out.add(("number", number))
        else:
            _walk(value, out)


def changed_slots(golden: dict[str, Any], initial: dict[str, Any] | None) -> set[Slot]:
    """The slots of the golden's scripts that the initial project does not have."""
    before: dict[str, list[Any]] = {}
    for target in (initial or {}).get("targets", []):
        blocks = target.get("blocks", {})
        before[target_name(target)] = [script_shape(blocks, t) for t in top_ids(blocks)]
    out: set[Slot] = set()
    for target in golden.get("targets", []):
        blocks = target.get("blocks", {})
        old = before.get(target_name(target), [])
        for top in top_ids(blocks):
            shape = script_shape(blocks, top)
            if shape not in old:
                _walk(shape, out)
    return out


def instruction_numbers(text: str) -> set[str]:
    """The magnitudes of the numbers an instruction states, in digits or words."""
    found = {m for n in _NUMBER.findall(text) if (m := _magnitude(n)) is not None}
    words = re.findall(r"[a-z]+", text.lower())
    return found | {_WORDS[w] for w in words if w in _WORDS}


def stated_counts(text: str) -> set[str]:
    """The loop counts an instruction states ("10 times", "twice" aside: "ten times")."""
    out = set()
    for word in _TIMES.findall(text):
        value = _WORDS.get(word.lower()) or _magnitude(word)
        if value is not None:
            out.add(value)
    return out


def is_cut_off(text: str) -> bool:
    """An instruction that stops in the middle of a sentence."""
    text = text.strip()
    return bool(text) and not text.endswith(_ENDS)


def unstated(
    category: Category, instruction: str, golden: dict[str, Any], initial: dict[str, Any] | None
) -> tuple[list[Slot], list[str]]:
    """(slots of the golden's changed blocks the instruction never states, numbers the
    instruction states that the golden never uses); nothing for debug tasks."""
    if category is Category.DEBUG:
        return [], []
    stated = instruction_numbers(instruction)
    missing = []
    for kind, value in sorted(changed_slots(golden, initial)):
        if kind == "loop count":
            continue  # its number is a number slot too
        if kind == "number":
            if value not in stated and value not in _TRIVIAL:
                missing.append((kind, value))
        elif not mentions(instruction, Ref(_REF_KINDS.get(kind, RefKind.SPRITE), value, 0)):
            missing.append((kind, value))
    loops = {value for kind, value in changed_slots(golden, None) if kind == "loop count"}
    extra = sorted(n for n in stated_counts(instruction) if n not in loops)
    return missing, extra
