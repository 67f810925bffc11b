"""Scoring model answers to perception QA items, and agreement between two labelers.

Answers are JSON lines `{"task_id": ..., "answer": ...}` (an optional `"model"` groups them).
Connection and existence answers are yes/no: compared without case, punctuation or a
trailing explanation ("Yes, it is" counts as YES). Field answers count two ways: exact (the
text as shown, surrounding spaces and quotes ignored) and equivalent (also without case, and
numbers by value, so "10.0" equals "10").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.errors import ReviewError
from studio.models.qa_item import QaAnswer, QaItem, QaType
from studio.services.core.errors import TaskFileError
from studio.services.core.jsonl import json_lines
from studio.services.diagnostics.qa.review import checked_answer

__all__ = [
    "blind_copy", "cohen_kappa", "correct", "equivalent", "exact", "labeler_agreement",
    "read_answers", "record_answer", "score", "yes_no",
]  # fmt: skip

_YES_NO = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)


def yes_no(answer: str) -> str | None:
    m = _YES_NO.match(answer or "")
    return m.group(1).upper() if m else None


def _clean(text: str) -> str:
    return str(text).strip().strip("\"'`").strip()


def exact(answer: str, truth: str) -> bool:
    return _clean(answer) == _clean(truth)


def equivalent(answer: str, truth: str) -> bool:
    a, t = _clean(answer).casefold(), _clean(truth).casefold()
    if a == t:
        return True
    try:
        return float(a) == float(t)
    except ValueError:
        return False


def correct(item: QaItem, answer: str, mode: str = "equivalent") -> bool:
    if item.task_type is QaType.FIELD:
        return (
            exact(answer, item.ground_truth)
            if mode == "exact"
            else equivalent(answer, item.ground_truth)
        )
    return yes_no(answer) == item.ground_truth.strip().upper()


def read_answers(path: Path) -> dict[str, dict[str, str]]:
    """Per model (or "all"), task id -> answer."""
    out: dict[str, dict[str, str]] = {}
    for n, data in json_lines(path):
        if not isinstance(data, dict) or "task_id" not in data or "answer" not in data:
            raise TaskFileError(path, f"line {n}: needs task_id and answer")
        out.setdefault(str(data.get("model") or "all"), {})[str(data["task_id"])] = str(
            data["answer"]
        )
    return out


def _pct(n: int, d: int) -> float | None:
    return round(100.0 * n / d, 2) if d else None


def score(items: Iterable[QaItem], answers: dict[str, str]) -> dict[str, Any]:
    """Accuracy per type and overall (field: equivalent; also exact), as in Table 3."""
    per: dict[str, list[bool]] = {t.value: [] for t in QaType}
    field_exact: list[bool] = []
    missing: list[str] = []
    for item in items:
        answer = answers.get(item.task_id)
        if answer is None:
            missing.append(item.task_id)
            answer = ""
        per[item.task_type.value].append(correct(item, answer))
        if item.task_type is QaType.FIELD:
            field_exact.append(correct(item, answer, "exact"))
    allv = [v for vs in per.values() for v in vs]
    out: dict[str, Any] = {t: _pct(sum(v), len(v)) for t, v in per.items()}
    out["field_exact"] = _pct(sum(field_exact), len(field_exact))
    out["overall"] = _pct(sum(allv), len(allv))
    out["items"] = len(allv)
    out["counts"] = {t: len(v) for t, v in per.items()} | {"field_exact": len(field_exact)}
    out["missing"] = missing
    return out


def _category(item: QaItem, answer: str) -> str:
    if item.task_type is QaType.FIELD:
        return _clean(answer).casefold()
    return yes_no(answer) or _clean(answer).upper()


def cohen_kappa(pairs: list[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters' categorical answers (None without pairs)."""
    n = len(pairs)
    if not n:
        return None
    observed = sum(1 for a, b in pairs if a == b) / n
    cats = {a for a, _ in pairs} | {b for _, b in pairs}
    expected = sum(
        (sum(1 for a, _ in pairs if a == c) / n) * (sum(1 for _, b in pairs if b == c) / n)
        for c in cats
    )
    if expected >= 1.0:
        return 1.0 if observed == 1.0 else 0.0
    return round((observed - expected) / (1 - expected), 4)


def labeler_agreement(items: Iterable[QaItem], first: str, second: str) -> dict[str, Any]:
    """Cohen's kappa and raw agreement between two labelers over the items both answered."""
    pairs: list[tuple[str, str]] = []
    by_type: dict[str, list[tuple[str, str]]] = {}
    for item in items:
        mine = {a.labeler: a.answer for a in item.answers}
        if first in mine and second in mine:
            pair = (_category(item, mine[first]), _category(item, mine[second]))
            pairs.append(pair)
            by_type.setdefault(item.task_type.value, []).append(pair)
    agree = sum(1 for a, b in pairs if a == b)
    return {
        "labelers": [first, second],
        "items": len(pairs),
        "agreement": _pct(agree, len(pairs)),
        "kappa": cohen_kappa(pairs),
        "kappa_by_type": {t: cohen_kappa(p) for t, p in sorted(by_type.items())},
    }


def blind_copy(item: QaItem, labeler: str) -> QaItem:
    """The item as `labeler` sees it: no other labeler's answer."""
    copy = item.model_copy(deep=True)
    copy.answers = [a for a in copy.answers if a.labeler == labeler]
    return copy


def record_answer(item: QaItem, labeler: str, answer: str) -> QaItem:
    """Keep `labeler`'s answer (replacing their earlier one) apart from the ground truth;
    ReviewError when it is no answer to the item's question (`qa.review.checked_answer`)."""
    if not labeler:
        raise ReviewError(f"QA item {item.task_id}: an answer needs the labeler's name")
    answer = checked_answer(item, answer)
    at = datetime.now(UTC).isoformat(timespec="seconds")
    answers = [a for a in item.answers if a.labeler != labeler]
    answers.append(QaAnswer(labeler=labeler, answer=answer, at=at))
    return item.model_copy(update={"answers": answers})
