"""Scoring an agent's understanding of a forged bug: trigger F1 and mechanism accuracy.

The agent names the events that trigger the bug, in the fixed trigger vocabulary
(`green_flag`, `key:space`, `click:Cat`, `broadcast:NAME`, `backdrop:NAME`, `clone:Cat`,
`click:Stage`), and the mechanism (one of the eight). Triggers are compared as sets after
normalization (kinds and key names in lower case, spaces around the colon dropped; sprite,
message and backdrop names keep their case): F1 = 2·|G ∩ P| / (|G| + |P|), 1 when both are
empty. The mechanism is right when it equals the record's (case and spaces aside, `-` and
spaces read as `_`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from studio.models.forge import BugRecord

__all__ = ["UnderstandingScore", "normal_trigger", "score_understanding", "trigger_f1"]


def normal_trigger(text: str) -> str:
    kind, sep, arg = str(text).strip().partition(":")
    kind = kind.strip().lower().replace(" ", "_")
    arg = arg.strip()
    if kind == "key":
        arg = arg.lower()
    return f"{kind}{sep}{arg}" if sep else kind


def trigger_f1(gold: Iterable[str], predicted: Iterable[str]) -> float:
    g = {normal_trigger(t) for t in gold}
    p = {normal_trigger(t) for t in predicted}
    if not g and not p:
        return 1.0
    return 2 * len(g & p) / (len(g) + len(p))


@dataclass(frozen=True)
class UnderstandingScore:
    trigger_f1: float
    mechanism_correct: bool


def score_understanding(
    record: BugRecord, triggers: Iterable[str], mechanism: str
) -> UnderstandingScore:
    said = mechanism.strip().lower().replace("-", "_").replace(" ", "_")
    return UnderstandingScore(
        trigger_f1=trigger_f1(record.report.triggers, triggers),
        mechanism_correct=said == record.mechanism,
    )
