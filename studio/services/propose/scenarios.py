"""The input scenarios a program is watched under while tests are proposed for it.

Scenarios come from the event blocks of the golden and initial programs, so that every input
either program listens to is tried: the green flag alone (long enough for timers and loops),
each key of a `when key pressed` hat or a `key pressed?` condition (pressed twice), clicks on
each sprite with a `when this sprite clicked` hat and on the stage when it has one (six clicks,
enough to use up lives or reach a count), each message a program receives (one it also sends
itself, such as a win, comes at 2.5 s: what it stops shows), each pair of sprites a `touching`
condition checks (the sprite put on the other at 0.5 s: a ball on its paddle, a runner on its
goal, which no key press would bring about), and, for programs that `ask`, answer sets taken
from the numbers and words of the instruction and a few of our own. The first of the green
flag (or answer) scenarios and each click scenario are also played "again": from a scrambled
start (sprites moved, turned, hidden and on their next costume, numeric variables changed) and
then a second time right after, which shows whether a run starts afresh (a score reset, a
forgotten initialisation).

A scenario is plain data: `steps` ({at: ms, do: flag|key|click|click_stage|broadcast|touch,
arg}), `answers` for `ask` blocks in order and `duration` in ms; the recorder in
resources/js/behaviour-trace.js plays it on the virtual clock.

`realtime_blocks` finds what makes a program depend on the real time of day (`current` and
`days since 2000`): such a program behaves differently every day and gets no proposal.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from studio.services.core.blocks import block_items, target_name

__all__ = [
    "ANSWER_MS", "CLICKS", "CLICK_EVERY_MS", "FLAG_MS", "INPUT_AT_MS", "KEY_PRESSES", "MAX_TOUCHES",
    "REALTIME_OPCODES", "SENT_MESSAGE_AT_MS", "TOUCH_AT_MS", "Listeners", "Scenario", "answer_sets",
    "build_scenarios", "listeners", "realtime_blocks",
]  # fmt: skip

FLAG_MS = 6000  # the green flag alone: long enough for a few periods of a 2 s loop
INPUT_AT_MS = 1000  # other inputs start once the green flag's scripts have set things up
SENT_MESSAGE_AT_MS = 2500  # a message the program sends too: after its timers ticked a while
TOUCH_AT_MS = 500  # a sprite put on one it checks for: once set up, before a game may be over
MAX_TOUCHES = 6
KEY_PRESSES = (1000, 2600)
CLICKS = 6
CLICK_EVERY_MS = 400
ANSWER_MS = 3000
REALTIME_OPCODES = {
    "sensing_current": "the current date or time",
    "sensing_dayssince2000": "days since 2000",
}
_DEFAULT_ANSWERS = (
    ("banana",),
    ("Scratch Cat",),
    ("AEIOU sky",),
    ("7", "3"),
    ("3", "7"),
    ("5", "5"),
    ("0", "0"),
    ("12", "-4"),
    ("1",),
)
_MAX_ANSWER_SETS = 10


@dataclass
class Scenario:
    """One way of driving a program: its id, plain words, timed steps, answers, duration."""

    id: str
    words: str
    steps: list[dict[str, Any]]
    duration: int
    answers: list[str] = field(default_factory=list)

    def to_js(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("words")
        data.pop("id")
        return data


@dataclass
class Listeners:
    """What a project reacts to: keys, clicked sprites, stage clicks, messages, questions."""

    keys: set[str] = field(default_factory=set)
    clicked: set[str] = field(default_factory=set)
    stage_clicked: bool = False
    received: set[str] = field(default_factory=set)
    sent: set[str] = field(default_factory=set)
    asks: bool = False
    touches: set[tuple[str, str]] = field(default_factory=set)  # (sprite, sprite it checks)


def listeners(project: dict[str, Any]) -> Listeners:
    """The inputs `project` (a project.json dict) listens to."""
    found = Listeners()
    for target in project.get("targets", []):
        name = target_name(target)
        for _bid, block in block_items(target.get("blocks", {})):
            _note(found, name, bool(target.get("isStage")), block)
    return found


def _note(found: Listeners, sprite: str, is_stage: bool, block: dict[str, Any]) -> None:
    op = block.get("opcode", "")
    fields = block.get("fields") or {}
    if op in ("event_whenkeypressed", "sensing_keyoptions"):  # a hat, or a `key pressed?` menu
        key = str((fields.get("KEY_OPTION") or [""])[0])
        found.keys.add("space" if key == "any" else key)
    elif op == "event_whenthisspriteclicked":
        found.clicked.add(sprite)
    elif op == "event_whenstageclicked" or (op == "event_whenthisspriteclicked" and is_stage):
        found.stage_clicked = True
    elif op == "event_whenbroadcastreceived":
        found.received.add(str((fields.get("BROADCAST_OPTION") or [""])[0]))
    elif op == "event_broadcast_menu":
        found.sent.add(str((fields.get("BROADCAST_OPTION") or [""])[0]))
    elif op in ("event_broadcast", "event_broadcastandwait"):
        inp = (block.get("inputs") or {}).get("BROADCAST_INPUT")
        value = inp[1] if isinstance(inp, list) and len(inp) > 1 else None
        if isinstance(value, list) and len(value) > 1 and value[0] == 11:
            found.sent.add(str(value[1]))  # the compact form of a broadcast menu
    elif op == "sensing_askandwait":
        found.asks = True
    elif op == "sensing_touchingobjectmenu" and not is_stage:
        other = str((fields.get("TOUCHINGOBJECTMENU") or [""])[0])
        if other and not other.startswith("_"):  # a sprite, not the edge or the mouse
            found.touches.add((sprite, other))


def realtime_blocks(project: dict[str, Any]) -> list[str]:
    """'<what> in <sprite>' for every block that reads the real time of day."""
    found = []
    for target in project.get("targets", []):
        for _bid, block in block_items(target.get("blocks", {})):
            what = REALTIME_OPCODES.get(block.get("opcode", ""))
            if what:
                found.append(f"{what} ({block['opcode']}) in {target_name(target)}")
    return sorted(set(found))


def build_scenarios(
    golden: dict[str, Any], initial: dict[str, Any] | None, instruction: str = ""
) -> list[Scenario]:
    """Every scenario worth watching the golden and initial programs under, in a fixed order."""
    heard = listeners(golden)
    if initial is not None:
        other = listeners(initial)
        heard.keys |= other.keys
        heard.clicked |= other.clicked
        heard.stage_clicked |= other.stage_clicked
        heard.received |= other.received
        heard.sent |= other.sent
        heard.asks |= other.asks
        heard.touches |= other.touches
    if heard.asks:
        sets = answer_sets(instruction)
        out = [_asking(i, answers) for i, answers in enumerate(sets)]
        out.append(_again(out[0], sets[1] if len(sets) > 1 else sets[0]))
    else:
        out = [Scenario("flag", "after the green flag", [_flag()], FLAG_MS)]
        out.append(_again(out[0]))
    for key in sorted(heard.keys):
        steps = [_flag(), *({"at": at, "do": "key", "arg": key} for at in KEY_PRESSES)]
        out.append(Scenario(f"key:{key}", f"after the green flag and two presses of {key}",
                            steps, KEY_PRESSES[-1] + 2400))  # fmt: skip
    for sprite in sorted(heard.clicked):
        out.append(_clicks(f"click:{sprite}", f"{CLICKS} clicks on the {sprite}", "click", sprite))
        out.append(_again(out[-1]))
    if heard.stage_clicked:
        out.append(_clicks("click:stage", f"{CLICKS} clicks on the stage", "click_stage", ""))
    for message in sorted(heard.received - {""}):
        out.append(_broadcast(message, sent=message in heard.sent))
    for mover, onto in sorted(heard.touches)[:MAX_TOUCHES]:
        steps = [_flag(), {"at": TOUCH_AT_MS, "do": "touch", "arg": [mover, onto]}]
        words = (
            f"after the green flag and the {mover} put on the {onto} at {TOUCH_AT_MS / 1000:g} s"
        )
        out.append(Scenario(f"touch:{mover}>{onto}", words, steps, TOUCH_AT_MS + 3500))
    return out


def _broadcast(message: str, sent: bool) -> Scenario:
    """The green flag, then `message` from outside. A message the program also sends itself
    (a win it broadcasts on reaching a goal) comes later, once loops and timers have run a
    while, and the scenario goes on long enough to see what it stopped."""
    at, after = (SENT_MESSAGE_AT_MS, FLAG_MS - SENT_MESSAGE_AT_MS) if sent else (INPUT_AT_MS, 2500)
    steps = [_flag(), {"at": at, "do": "broadcast", "arg": message}]
    words = f"after the green flag and a broadcast of {message}"
    if sent:
        words += f" at {at / 1000:g} s"
    return Scenario(f"broadcast:{message}", words, steps, at + after)


def _again(first: Scenario, answers: tuple[str, ...] = ()) -> Scenario:
    """`first` from a scrambled start, then all of it again: does a new run start afresh?"""
    steps = [{"at": 0, "do": "scramble", "arg": ""}]
    steps += [dict(step, at=step["at"] + 1) for step in first.steps]
    steps += [dict(step, at=step["at"] + 1 + first.duration) for step in first.steps]
    words = first.words.replace("after the green flag", "after the green flag from anywhere", 1)
    if answers:
        words = f"{words}, then the green flag again, answering {', then '.join(answers)}"
    else:
        words = f"{words}, and all of it again"
    return Scenario(f"again:{first.id}", words, steps, 2 * first.duration + 1,
                    [*first.answers, *answers])  # fmt: skip


def _flag() -> dict[str, Any]:
    return {"at": 0, "do": "flag", "arg": ""}


def _clicks(sid: str, what: str, kind: str, arg: str) -> Scenario:
    steps = [_flag()]
    steps += [
        {"at": INPUT_AT_MS + i * CLICK_EVERY_MS, "do": kind, "arg": arg} for i in range(CLICKS)
    ]
    end = INPUT_AT_MS + CLICKS * CLICK_EVERY_MS + 1500
    return Scenario(sid, f"after the green flag and {what}", steps, end)


def _asking(index: int, answers: tuple[str, ...]) -> Scenario:
    shown = ", then ".join(answers)
    return Scenario(f"answers:{index}", f"after the green flag, answering {shown}", [_flag()],
                    ANSWER_MS, list(answers))  # fmt: skip


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\w|\.\d)")
_EXAMPLE_WORD = re.compile(
    r"\b(?:for|like|e\.g\.|example,?)\s+(?:for\s+)?([A-Za-z]{3,})\b", re.IGNORECASE
)
_NOT_EXAMPLES = {"example", "instance", "the", "each", "all", "every"}


def answer_sets(instruction: str) -> list[tuple[str, ...]]:
    """Answers for `ask` blocks: the instruction's own examples first, then ours."""
    numbers = list(dict.fromkeys(_NUMBER.findall(instruction)))
    words = [
        w
        for w in dict.fromkeys(_EXAMPLE_WORD.findall(instruction))
        if w.lower() not in _NOT_EXAMPLES
    ]
    sets: list[tuple[str, ...]] = [(w,) for w in words]
    sets += [(n, n) for n in numbers[:3]]
    for answers in _DEFAULT_ANSWERS:
        if answers not in sets:
            sets.append(answers)
    return sets[:_MAX_ANSWER_SETS]
