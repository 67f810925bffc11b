"""The data of a proposal: recordings of a program's behaviour and the tests proposed from them.

A `Recording` is what resources/js/behaviour-trace.js returns for one scenario, read and checked
here (it comes from a page that ran an untrusted project: every field is validated, and a bad
one raises TraceError naming the scenario). A `Proposal` is one test in plain words with its
check (`kind`, `key`, `expected`), the golden trace excerpt it comes from, and, once mutants
have been run, what it kills.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.models.errors import StudioError

__all__ = [
    "Proposal", "ProposalError", "Recording", "TraceError", "Traces", "Value", "dedupe",
    "recording_from_json",
]  # fmt: skip

Value = str | float | bool


class TraceError(StudioError):
    """A recording that is not what the recorder writes."""


class ProposalError(StudioError):
    """A task for which no script can be proposed, and why."""


@dataclass
class Recording:
    """One program's behaviour under one scenario."""

    changes: dict[str, list[tuple[int, Value]]]
    end: dict[str, Value]
    says: list[tuple[int, str, str]] = field(default_factory=list)
    broadcasts: list[tuple[int, str]] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)

    def series(self, key: str) -> list[tuple[int, Value]]:
        return self.changes.get(key, [])

    def sequence(self, key: str) -> list[Value]:
        """The values of `key` one after another, each run of equal values once."""
        return dedupe([v for _t, v in self.series(key)])

    def texts(self, sprite: str) -> list[str]:
        return [str(t) for t in dedupe([text for _t, s, text in self.says if s == sprite and text])]

    def speakers(self) -> list[str]:
        return sorted({s for _t, s, text in self.says if text})

    def messages(self) -> list[str]:
        return [m for _t, m in self.broadcasts]


Traces = dict[str, Recording]  # scenario id -> recording


def dedupe(values: list[Any]) -> list[Any]:
    return [v for i, v in enumerate(values) if i == 0 or v != values[i - 1]]


def _value(raw: Any, where: str) -> Value:
    if isinstance(raw, bool | str):
        return raw
    if isinstance(raw, int | float):
        return float(raw)
    raise TraceError(f"{where}: a value of type {type(raw).__name__}")


def _pairs(raw: Any, where: str) -> list[tuple[int, Value]]:
    if not isinstance(raw, list):
        raise TraceError(f"{where}: not a list of [ms, value]")
    out = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int | float)):
            raise TraceError(f"{where}: {str(item)[:60]} is not [ms, value]")
        out.append((int(item[0]), _value(item[1], where)))
    return out


def recording_from_json(raw: Any, scenario: str) -> Recording:
    """Read one scenario's recording as the page returned it."""
    where = f"the recording of scenario {scenario!r}"
    if not isinstance(raw, dict) or not isinstance(raw.get("changes"), dict):
        raise TraceError(f"{where} has no changes")
    changes = {str(k): _pairs(v, f"{where}, {k}") for k, v in raw["changes"].items()}
    end = raw.get("end")
    if not isinstance(end, dict):
        raise TraceError(f"{where} has no end state")
    says = []
    for item in raw.get("says") or []:
        if not (isinstance(item, list) and len(item) == 3):
            raise TraceError(f"{where}: a say event {str(item)[:60]} is not [ms, sprite, text]")
        says.append((int(item[0]), str(item[1]), str(item[2])))
    broadcasts = [(int(t), str(m)) for t, m in _pairs(raw.get("broadcasts") or [], where)]
    questions = [str(q) for _t, q in _pairs(raw.get("questions") or [], where)]
    return Recording(
        changes=changes,
        end={str(k): _value(v, f"{where}, end of {k}") for k, v in end.items()},
        says=says,
        broadcasts=broadcasts,
        questions=questions,
    )


@dataclass
class Proposal:
    """One proposed test: plain words, a check, where it comes from and what it kills.

    Kinds and their `expected`: end (the value at the end), sequence (the values one after
    another), steady (the one value it keeps), reach_time ([earliest, latest] ms at which `key`
    first takes `value`), period ([shortest, longest] ms between changes, `count` changes at
    least), says (the texts a sprite says, in order), broadcasts (the messages sent, in order),
    range ([lowest, highest] value on every seed: random behaviour).
    """

    id: str
    kind: str
    scenario: str
    key: str
    expected: Any
    words: str
    excerpt: list[tuple[int, Value]] = field(default_factory=list)
    value: Value | None = None  # reach_time: the value reached
    count: int = 0  # period: the changes seen at least
    mentioned: bool = False  # the instruction names what it checks
    kills: list[str] = field(default_factory=list)
    fails_initial: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "words": self.words,
            "kind": self.kind,
            "scenario": self.scenario,
            "observable": self.key,
            "kills": len(self.kills),
            "killed_mutants": list(self.kills),
            "fails_initial": self.fails_initial,
        }
