"""Perception QA: answer matching, accuracy per type, Cohen's kappa, review of answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.errors import ReviewError, StudioError
from studio.models.items import ReviewState
from studio.models.qa_item import QaItem, QaType
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.review import confirm
from studio.services.diagnostics.qa.scoring import (
    blind_copy,
    cohen_kappa,
    correct,
    labeler_agreement,
    read_answers,
    record_answer,
    score,
)


def item(task_id: str, kind: QaType, truth: str) -> QaItem:
    return QaItem(
        task_id=task_id,
        instruction="?",
        screenshot="s.png",
        task_type=kind,
        tag=f"{kind.value}_x",
        ground_truth=truth,
    )


def test_matching() -> None:
    yes = item("c", QaType.CONNECTION, "YES")
    assert correct(yes, "Yes, it is connected.") and correct(yes, " yes")
    assert not correct(yes, "no") and not correct(yes, "maybe")
    f = item("f", QaType.FIELD, "10")
    assert correct(f, "10.0") and not correct(f, "10.0", "exact")
    assert correct(f, "'10'", "exact")
    s = item("g", QaType.FIELD, "Space")
    assert correct(s, "space") and not correct(s, "space", "exact")


def test_accuracy_per_type(tmp_path: Path) -> None:
    items = [
        item("c1", QaType.CONNECTION, "NO"),
        item("e1", QaType.EXISTENCE, "YES"),
        item("f1", QaType.FIELD, "3"),
        item("f2", QaType.FIELD, "lives"),
    ]
    path = tmp_path / "a.jsonl"
    rows = [
        {"task_id": "c1", "answer": "No"},
        {"task_id": "e1", "answer": "no"},
        {"task_id": "f1", "answer": "3.0"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    out = score(items, read_answers(path)["all"])
    assert out["connection"] == 100.0 and out["existence"] == 0.0
    assert out["field"] == 50.0 and out["field_exact"] == 0.0
    assert out["overall"] == 50.0 and out["missing"] == ["f2"]


def test_kappa_and_blind_labeling() -> None:
    assert cohen_kappa([("YES", "YES"), ("NO", "NO")]) == 1.0
    assert cohen_kappa([("YES", "NO"), ("NO", "YES")]) == -1.0
    assert cohen_kappa([]) is None
    items = []
    answers = [("YES", "YES"), ("NO", "NO"), ("YES", "NO"), ("NO", "NO")]
    for i, (a, b) in enumerate(answers):
        it = item(f"c{i}", QaType.CONNECTION, a)
        it = record_answer(it, "ann", a)
        assert blind_copy(it, "bob").answers == []  # the second labeler sees nothing
        items.append(record_answer(it, "bob", b))
    out = labeler_agreement(items, "ann", "bob")
    assert out["items"] == 4 and out["agreement"] == 75.0
    assert out["kappa"] == pytest.approx(0.5)


def test_confirm_review_and_files(tmp_path: Path) -> None:
    it = item("c", QaType.CONNECTION, "YES")
    with pytest.raises(StudioError):
        confirm(it, "ann", "perhaps")
    done = confirm(it, "ann", "no")
    assert done.ground_truth == "NO" and done.review.state is ReviewState.LABELED
    approved = done.model_copy(update={"review": done.review.move(ReviewState.APPROVED, "rev")})
    with pytest.raises(ReviewError):
        approved.review.move(ReviewState.LABELED, "ann")
    qa = QaSet(tmp_path)
    qa.save(approved, b"png")
    assert qa.items() == [approved]
    assert qa.screenshot_path("s.png").read_bytes() == b"png"
