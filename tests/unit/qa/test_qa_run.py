"""A QA run without a model: answers scored per type, files `studio qa score` reads, errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from studio.models.qa_item import QaItem, QaType
from studio.services.diagnostics.agents import QaObservation, QaReply
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.run import run_qa
from studio.services.diagnostics.qa.scoring import read_answers, score

PNG = b"\x89PNG\r\n\x1a\nshot"


def qa_set(root: Path) -> QaSet:
    qa = QaSet(root)
    for task_id, kind, truth in [
        ("c1", QaType.CONNECTION, "YES"),
        ("c2", QaType.CONNECTION, "NO"),
        ("e1", QaType.EXISTENCE, "YES"),
        ("f1", QaType.FIELD, "10"),
        ("f2", QaType.FIELD, "Hello!"),
    ]:
        item = QaItem(
            task_id=task_id,
            instruction=f"question {task_id}",
            screenshot="shared.png" if task_id != "e1" else "gone.png",
            task_type=kind,
            tag=f"{kind.value}_x",
            ground_truth=truth,
        )
        qa.save(item, PNG if task_id == "c1" else None)
    return qa


class Canned:
    """Answers from a table; raises for one item (an endpoint failure)."""

    name = "canned"

    def __init__(self) -> None:
        self.seen: list[QaObservation] = []

    async def answer(self, observation: QaObservation) -> QaReply:
        self.seen.append(observation)
        table = {
            "c1": QaReply("Yes, they are.", "looks joined"),
            "c2": QaReply("", "rambling", "unusable reply: no ANSWER line"),
            "f1": QaReply("10.0"),
        }
        if observation.task_id == "f2":
            raise ConnectionError("endpoint down")
        return table[observation.task_id]


def test_run_scores_writes_and_counts_errors(tmp_path: Path) -> None:
    qa = qa_set(tmp_path / "qa")
    agent = Canned()
    progress: list[tuple[int, int, str]] = []
    run = asyncio.run(
        run_qa(qa, agent, tmp_path / "run", 2, lambda d, t, o: progress.append((d, t, o.label)))
    )
    assert sorted(p[2] for p in progress) == ["c1", "c2", "e1", "f1", "f2"]
    assert [p[0] for p in progress] == [1, 2, 3, 4, 5] and progress[0][1] == 5
    seen = {o.task_id: o for o in agent.seen}
    assert "e1" not in seen  # its screenshot is missing: not asked
    assert seen["c1"].screenshot_png == PNG and seen["c1"].question == "question c1"
    assert seen["f1"].task_type is QaType.FIELD
    out = run.summary()
    assert (out["kind"], out["agent"], out["items"]) == ("qa", "canned", 5)
    assert out["connection"] == 50.0 and out["existence"] == 0.0
    assert out["field"] == 50.0 and out["field_exact"] == 0.0  # "10.0" is 10, not exactly
    assert out["overall"] == 40.0 and out["no_answer"] == 1
    assert [e["id"] for e in out["errors"]] == ["e1", "f2"]
    assert "gone.png" in out["errors"][0]["error"] and "endpoint down" in out["errors"][1]["error"]

    answers = read_answers(tmp_path / "run" / "answers.jsonl")
    assert list(answers) == ["canned"]
    assert score(qa.items(), answers["canned"])["overall"] == 40.0
    rows = [json.loads(x) for x in (tmp_path / "run" / "answers.jsonl").read_text().splitlines()]
    c2 = next(r for r in rows if r["task_id"] == "c2")
    assert c2["error"].startswith("unusable reply") and c2["crashed"] is False
    assert c2["reasoning"] == "rambling" and c2["correct"] is False
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["overall"] == 40.0 and summary["qa_dir"] == str(tmp_path / "qa")


def test_outcome_lines(tmp_path: Path) -> None:
    run = asyncio.run(run_qa(qa_set(tmp_path / "qa"), Canned(), tmp_path / "run"))
    lines = {o.label: o.line() for o in run.outcomes}
    assert lines["c1"] == "RIGHT c1: 'Yes, they are.' (truth 'YES')"
    assert lines["f2"] == "ERROR f2: agent error: endpoint down"


def test_empty_folder_is_named(tmp_path: Path) -> None:
    from studio.services.core.errors import TaskFileError

    with pytest.raises(TaskFileError, match="items/ is missing"):
        asyncio.run(run_qa(QaSet(tmp_path / "none"), Canned(), tmp_path / "run"))
