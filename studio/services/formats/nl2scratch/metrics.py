"""NL2Scratch's metrics of one prediction against its gold program (../shared/NL2SCRATCH.md).

`normalize` (blank lines dropped, whitespace collapsed, commas, full-width commas and colons
to spaces, non-ASCII removed), `exact_match`, `line_exact_match` (whitespace-collapsed
non-blank lines), `token_f1` (multiset overlap of whitespace tokens), and the semantic
alignment check against the gold program, `sac_pseudo`: slots read from each program's lines
(event type and target, action types, variable names, condition types, costume, backdrop and
broadcast names, numeric values), each scored 1/0 (the event slots) or by the Jaccard index
of its sets, slots empty on both sides left out, SAC the mean (0 when either program is
empty). `mismatched` names the slots scored below 1.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = [
    "Sac", "exact_match", "line_exact_match", "lines_of", "normalize", "sac_pseudo", "slots_of",
    "token_f1",
]  # fmt: skip

_SPACE = re.compile(r"\s+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def lines_of(text: str | list[str]) -> list[str]:
    """The non-blank lines, each with its whitespace collapsed and trimmed."""
    raw = text if isinstance(text, list) else str(text).split("\n")
    lines = []
    for item in raw:
        for line in str(item).split("\n"):
            collapsed = _SPACE.sub(" ", line).strip()
            if collapsed:
                lines.append(collapsed)
    return lines


def normalize(text: str | list[str]) -> str:
    """The text as exact match and token F1 compare it."""
    joined = "\n".join(lines_of(text))
    joined = joined.replace(",", " ").replace("\uff0c", " ").replace(":", " ")
    return _NON_ASCII.sub("", joined)


def exact_match(pred: str | list[str], gold: str | list[str]) -> float:
    return 1.0 if normalize(pred) == normalize(gold) else 0.0


def line_exact_match(pred: str | list[str], gold: str | list[str]) -> float:
    return 1.0 if lines_of(pred) == lines_of(gold) else 0.0


def token_f1(pred: str | list[str], gold: str | list[str]) -> float:
    p, g = normalize(pred).split(), normalize(gold).split()
    if not p and not g:
        return 1.0
    if not p or not g:
        return 0.0
    overlap = sum((Counter(p) & Counter(g)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(g)
    return 2 * precision * recall / (precision + recall)


# ---- slots ----------------------------------------------------------------------------
_ACTIONS = (
    ("show variable", None), ("hide variable", None), ("show", "show"), ("hide", "hide"),
    ("go to", "go_to"), ("glide", "glide"), ("move", "move"), ("change x by", "move"),
    ("change y by", "move"), ("turn right", "turn_right"), ("turn left", "turn_left"),
    ("turn cw", "turn_right"), ("turn ccw", "turn_left"),
    ("point in direction", "point_direction"), ("point towards", "point_towards"),
    ("say", "say"), ("think", "think"), ("wait until", None), ("wait", "wait"),
    ("switch costume", "switch_costume"), ("switch backdrop", "switch_backdrop"),
    ("next costume", "next_costume"), ("next backdrop", "next_backdrop"),
    ("set", "set_variable"), ("change", "change_variable"), ("broadcast", "broadcast"),
    ("start sound", "play_sound"), ("play sound", "play_sound"), ("stop all sounds", "stop_sounds"),
    ("ask", "ask"),
)  # fmt: skip
_SET_CHANGE = re.compile(r"^(set|change) \[(?P<name>[^\]]*?)(?: v)?\] (to|by)\b")
_BUILTIN_VARS = re.compile(r"^(set|change) (?P<name>x|y|size|volume) (to|by)\b")
_CONDITION_LINE = re.compile(r"^(if <|wait until <|repeat until\b)")
_CONDITIONS = (
    ("touching", re.compile(r"touching\b(?! \((_?edge_?|edge) v\))")),
    ("edge", re.compile(r"touching \((_?edge_?) v\)")),
    ("key_pressed", re.compile(r"key \(.*?\) pressed")),
    ("mouse_down", re.compile(r"mouse down")),
    ("random", re.compile(r"pick random")),
    ("answer", re.compile(r"\banswer\b")),
    ("equals", re.compile(r"\) = [(\[]|\] = [(\[]")),
    ("greater_than", re.compile(r"\) > [(\[]|\] > [(\[]")),
    ("less_than", re.compile(r"\) < [(\[]|\] < [(\[]")),
)
_MENU = r"[\[(](?P<name>[^\])]*?)(?: v)?[\])]"
_COSTUME = re.compile(r"^switch costume to " + _MENU)
_BACKDROP = re.compile(r"^(?:switch backdrop to|when backdrop switches to) " + _MENU)
_BROADCAST = re.compile(r"^(?:broadcast|when I receive) " + _MENU)
_KEY = re.compile(r"^when " + _MENU + r" key pressed")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_NAMED = re.compile(r"\[[^\]]*\]|\([^()]* v\)")


def _name(text: str) -> str:
    text = _SPACE.sub(" ", text.strip().strip("'\"").lower())
    return text[:-2].strip() if text.endswith(" v") else text


def _number(text: str) -> str:
    value = float(text)
    if value.is_integer():
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


@dataclass
class Slots:
    """The slots read from one program."""

    event_type: str = ""
    event_target: str = ""
    sets: dict[str, set[str]] = field(default_factory=dict)


def _event(first: str) -> tuple[str, str]:
    if first.startswith("when") and ("flag" in first or "@greenFlag" in first):
        return "green_flag", ""
    found = _BACKDROP.match(first)
    if first.startswith("when backdrop switches to") and found:
        return "backdrop_switch", _name(found.group("name"))
    found = _BROADCAST.match(first)
    if first.startswith("when I receive") and found:
        return "receive", _name(found.group("name"))
    found = _KEY.match(first)
    if found:
        return "key_pressed", _name(found.group("name"))
    if first.startswith("when this sprite clicked"):
        return "sprite_clicked", ""
    return "", ""


def slots_of(program: str | list[str]) -> Slots:
    """The SAC slots of a program (see the module doc)."""
    lines = lines_of(program)
    out = Slots()
    if lines:
        out.event_type, out.event_target = _event(lines[0])
    sets: dict[str, set[str]] = {
        k: set()
        for k in ("action_types", "variable_names", "condition_types", "costume_names",
                  "backdrop_names", "broadcast_names", "numeric_values")
    }  # fmt: skip
    for line in lines:
        for prefix, action in _ACTIONS:
            if line == prefix or line.startswith(prefix + " "):
                if action:
                    sets["action_types"].add(action)
                break
        for pattern in (_SET_CHANGE, _BUILTIN_VARS):
            found = pattern.match(line)
            if found:
                sets["variable_names"].add(_name(found.group("name")))
        if _CONDITION_LINE.match(line):
            sets["condition_types"].update(n for n, p in _CONDITIONS if p.search(line))
        for key, pattern in (
            ("costume_names", _COSTUME),
            ("backdrop_names", _BACKDROP),
            ("broadcast_names", _BROADCAST),
        ):
            found = pattern.match(line)
            if found:
                sets[key].add(_name(found.group("name")))
        masked = _NAMED.sub(
            lambda m: " " if not _NUMBER.fullmatch(m.group()[1:-1]) else m.group(), line
        )
        sets["numeric_values"].update(_number(n) for n in _NUMBER.findall(masked))
    out.sets = sets
    return out


@dataclass
class Sac:
    """A SAC score: the mean of the slots scored, each slot's score, those below 1."""

    score: float
    per_slot: dict[str, float]

    @property
    def mismatched(self) -> list[str]:
        return [name for name, value in self.per_slot.items() if value < 1.0]


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def sac_pseudo(pred: str | list[str], gold: str | list[str]) -> Sac:
    """SAC of a predicted program against the gold one (see the module doc)."""
    if not lines_of(pred) or not lines_of(gold):
        return Sac(0.0, {})
    p, g = slots_of(pred), slots_of(gold)
    scores: dict[str, float] = {}
    for name in ("event_type", "event_target"):
        a, b = getattr(p, name), getattr(g, name)
        if a or b:
            scores[name] = 1.0 if a == b else 0.0
    for name, gold_set in g.sets.items():
        pred_set = p.sets.get(name, set())
        if pred_set or gold_set:
            scores[name] = _jaccard(pred_set, gold_set)
    score = sum(scores.values()) / len(scores) if scores else 1.0
    return Sac(score, scores)
