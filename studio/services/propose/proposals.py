"""Tests proposed from what the golden program does, and where it differs from the initial one.

For every scenario and every observable the golden program's recordings (two seeds) are
compared with the initial program's. What the golden does the same way on both seeds gives
exact tests: its value at the end, the values it goes through, a value it keeps while its
sprite moves, when it first reaches its final value (a window around both seeds' times), a
regular period of its changes, what each sprite says and which messages the program sends.
What differs between the seeds is random: it gives a range test (the lowest and highest value
of both seeds) and no exact one. Observables that neither program changes and that end the same
give nothing. Every proposal says in plain words what it checks; tests whose names the
instruction mentions (a sprite, a variable, a value) are marked, for the selection to prefer.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from statistics import mean

from studio.services.propose.model import Proposal, Recording, Traces, Value
from studio.services.propose.scenarios import Scenario

__all__ = [
    "CLONE_REACH", "KIND_RANK", "MAX_SEQUENCE", "MIN_PERIOD_CHANGES", "MOVING_KEYS",
    "PERIOD_TOLERANCE", "SHOWN_VALUES", "STEADY_KEYS", "TIME_TOLERANCE", "describe_observable",
    "end_words", "propose_tests", "show",
]  # fmt: skip

MAX_SEQUENCE = 40  # longer sequences are tested by their end and timing only
SHOWN_VALUES = 6
STEADY_KEYS = ("x", "y", "direction", "size")  # kept while a sprite moves: "y never changes"
MOVING_KEYS = ("x", "y", "direction", "size", "costume", "visible")
CLONE_REACH = {
    "min x": "leftmost x",
    "max x": "rightmost x",
    "min y": "lowest y",
    "max y": "highest y",
}
TIME_TOLERANCE = (120, 0.05)  # ms, share: a timing window reaches this far past both seeds
PERIOD_TOLERANCE = 0.25
MIN_PERIOD_CHANGES = 4
KIND_RANK = {
    "end": 0, "says": 1, "steady": 2, "broadcasts": 3, "sequence": 4,
    "reach_time": 5, "period": 6, "range": 7,
}  # fmt: skip


def describe_observable(key: str) -> str:
    """'Cat.x' -> "the Cat's x"; 'var:score' -> 'the variable score'; ..."""
    head = key.split(":")[0]
    owner, attr = "", key
    if "." in head:
        owner, _, name = head.rpartition(".")
        attr = name + key[len(head) :]
    whose = f"the {owner}'s " if owner else "the "
    if attr.startswith("var:"):
        return f"{whose}variable {attr[4:]}"
    if attr.startswith("list:"):
        return f"{whose}list {attr[5:]}"
    if attr.startswith("effect:"):
        return f"{whose}{attr[7:]} effect"
    words = {
        "says": "speech bubble",
        "visible": "visibility",
        "pen": "pen (down or up)",
    }
    if attr == "clones":
        return f"the number of {owner} clones"
    if attr.startswith("clones:"):
        return f"the {CLONE_REACH.get(attr[7:], attr[7:])} a {owner} clone reached"
    return f"{whose}{words.get(attr, attr)}"


def end_words(key: str, value: Value) -> str:
    """How an end state reads: 'the Bug ends hidden', 'the Robot ends saying 3', ..."""
    owner, _, attr = key.partition(".")
    if attr == "visible":
        return f"the {owner} ends {show(value)}"
    if attr == "says":
        return f"the {owner} ends saying {show(value)}" if value else f"the {owner} ends silent"
    return f"{describe_observable(key)} ends at {show(value)}"


def show(value: Value) -> str:
    if isinstance(value, bool):
        return "shown" if value else "hidden"
    if isinstance(value, float):
        return str(int(value)) if value == int(value) else f"{value:g}"
    return repr(value) if value == "" else str(value)


def _show_list(values: Sequence[Value]) -> str:
    shown = [show(v) for v in values]
    if len(shown) > SHOWN_VALUES:
        shown = [*shown[: SHOWN_VALUES - 2], "…", shown[-1]]
    return " → ".join(shown)


class _Proposer:
    def __init__(self, instruction: str) -> None:
        self.instruction = instruction.lower()
        self.out: list[Proposal] = []
        self.names: set[str] = set()

    def mentioned(self, key: str, *values: object) -> bool:
        names = re.split(r"[.:]", key)
        words = [n for n in names if len(n) > 1 and n not in ("var", "list", "effect")]
        shown = [show(v).lower() for v in values if isinstance(v, str | float) and show(v) != "''"]
        return any(w.lower() in self.instruction for w in words + shown if w)

    def add(self, p: Proposal) -> None:
        base, n = p.words, 1
        while p.words in self.names:
            n += 1
            p.words = f"{base} ({n})"
        p.id = f"t{len(self.out) + 1:03d}"
        self.names.add(p.words)
        self.out.append(p)


def propose_tests(
    scenarios: Sequence[Scenario],
    golden: Sequence[Traces],
    initial: Traces,
    instruction: str = "",
) -> list[Proposal]:
    """Every candidate test, in scenario order; `golden` holds recordings of two seeds."""
    proposer = _Proposer(instruction)
    for scenario in scenarios:
        g, g2, i = golden[0].get(scenario.id), golden[-1].get(scenario.id), initial.get(scenario.id)
        if g is None or g2 is None:
            continue
        i = i or Recording(changes={}, end={})
        for key in sorted(g.changes):
            _observable(proposer, scenario, key, g, g2, i)
        _steady(proposer, scenario, g, g2, i)
        _says(proposer, scenario, g, g2, i)
        _broadcasts(proposer, scenario, g, g2, i)
    return proposer.out


def _observable(
    pr: _Proposer, sc: Scenario, key: str, g: Recording, g2: Recording, i: Recording
) -> None:
    seq, other, initial = g.sequence(key), g2.sequence(key), i.sequence(key)
    what = describe_observable(key)
    excerpt = g.series(key)
    if seq != other:
        _range(pr, sc, key, g, g2)
        return
    changed = len(seq) > 1
    end = g.end.get(key)
    if end is None or not (changed or seq != initial or i.end.get(key) != end):
        return
    mentioned = pr.mentioned(key, end)
    if not changed:
        words = f"{sc.words}, {what} stays {show(end)}"
        pr.add(Proposal("", "steady", sc.id, key, end, words, excerpt, mentioned=mentioned))
        return
    words = f"{sc.words}, {end_words(key, end)}"
    pr.add(Proposal("", "end", sc.id, key, end, words, excerpt, mentioned=mentioned))
    if 3 <= len(seq) <= MAX_SEQUENCE:
        words = f"{sc.words}, {what} goes {_show_list(seq)}"
        pr.add(Proposal("", "sequence", sc.id, key, seq, words, excerpt, mentioned=mentioned))
    _reach_time(pr, sc, key, g, g2, mentioned)
    _period(pr, sc, key, g, g2, mentioned)


def _first_time(rec: Recording, key: str, value: Value) -> int | None:
    return next((t for t, v in rec.series(key) if v == value), None)


def _reach_time(
    pr: _Proposer, sc: Scenario, key: str, g: Recording, g2: Recording, mentioned: bool
) -> None:
    end = g.end[key]
    times = [_first_time(r, key, end) for r in (g, g2)]
    if any(t is None or t <= 0 for t in times):
        return
    lo, hi = min(t for t in times if t), max(t for t in times if t)
    slack = max(TIME_TOLERANCE[0], TIME_TOLERANCE[1] * hi)
    window = [max(0, int(lo - slack)), int(hi + slack)]
    words = (
        f"{sc.words}, {describe_observable(key)} reaches {show(end)} after about {hi / 1000:.1f} s"
    )
    p = Proposal("", "reach_time", sc.id, key, window, words, g.series(key), value=end)
    p.mentioned = mentioned
    pr.add(p)


def _gaps(rec: Recording, key: str) -> list[int]:
    times = [t for t, _v in rec.series(key)][1:]
    return [b - a for a, b in itertools.pairwise(times)]


def _period(
    pr: _Proposer, sc: Scenario, key: str, g: Recording, g2: Recording, mentioned: bool
) -> None:
    gaps = _gaps(g, key) + _gaps(g2, key)
    if len(_gaps(g, key)) < MIN_PERIOD_CHANGES or min(gaps) <= 0:
        return
    avg = mean(gaps)
    if max(gaps) - min(gaps) > PERIOD_TOLERANCE * avg:
        return
    window = [int(min(gaps) * (1 - PERIOD_TOLERANCE)), int(max(gaps) * (1 + PERIOD_TOLERANCE))]
    count = min(len(_gaps(g, key)), len(_gaps(g2, key)))
    words = f"{sc.words}, {describe_observable(key)} changes about every {avg / 1000:.2g} s"
    p = Proposal("", "period", sc.id, key, window, words, g.series(key), count=count)
    p.mentioned = mentioned
    pr.add(p)


def _range(pr: _Proposer, sc: Scenario, key: str, g: Recording, g2: Recording) -> None:
    values = [v for r in (g, g2) for _t, v in r.series(key)]
    if not all(isinstance(v, float) for v in values):
        return
    nums = [float(v) for v in values]
    words = f"{sc.words}, {describe_observable(key)} stays between {show(min(nums))} and " + show(
        max(nums)
    )
    pr.add(Proposal("", "range", sc.id, key, [min(nums), max(nums)], words, g.series(key)))


def _steady(pr: _Proposer, sc: Scenario, g: Recording, g2: Recording, i: Recording) -> None:
    """A sprite that moves keeps some of its state: its y while it walks, its size, ..."""
    sprites = {k.split(".")[0] for k in g.changes if "." in k}
    for sprite in sorted(sprites):
        moving = [a for a in MOVING_KEYS if len(g.sequence(f"{sprite}.{a}")) > 1]
        if not moving:
            continue
        for attr in STEADY_KEYS:
            key = f"{sprite}.{attr}"
            seq = g.sequence(key)
            if len(seq) != 1 or g2.sequence(key) != seq or i.sequence(key) != seq:
                continue  # changes, random, or already proposed as a difference
            words = f"{sc.words}, {describe_observable(key)} never changes from {show(seq[0])}"
            pr.add(Proposal("", "steady", sc.id, key, seq[0], words, g.series(key)))


def _says(pr: _Proposer, sc: Scenario, g: Recording, g2: Recording, i: Recording) -> None:
    for sprite in g.speakers():
        texts = g.texts(sprite)
        if texts != g2.texts(sprite) or len(texts) > MAX_SEQUENCE:
            continue
        said = [(t, text) for t, s, text in g.says if s == sprite]
        words = f"{sc.words}, the {sprite} says {' then '.join(texts[:SHOWN_VALUES])}"
        p = Proposal("", "says", sc.id, sprite, texts, words, list(said))
        p.mentioned = pr.mentioned(sprite, *texts) or texts != i.texts(sprite)
        pr.add(p)


def _broadcasts(pr: _Proposer, sc: Scenario, g: Recording, g2: Recording, i: Recording) -> None:
    sent = g.messages()
    if not sent or sent != g2.messages() or len(sent) > MAX_SEQUENCE:
        return
    words = f"{sc.words}, the program broadcasts {_show_list(list(sent))}"
    excerpt: list[tuple[int, Value]] = [(t, m) for t, m in g.broadcasts]
    p = Proposal("", "broadcasts", sc.id, "", sent, words, excerpt)
    p.mentioned = any(m.lower() in pr.instruction for m in sent) or sent != i.messages()
    pr.add(p)
