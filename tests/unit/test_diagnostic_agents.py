"""Agents of the diagnostics without a model: oracle, random and scripted, drag and QA."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from studio.models.drag_item import ConnectionType, DragItem, EvaluationConfig, category_of
from studio.models.errors import StudioError
from studio.models.qa_item import QaItem, QaType
from studio.services.diagnostics.agents import (
    DragObservation,
    OracleDragAgent,
    OracleQaAgent,
    QaObservation,
    RandomDragAgent,
    RandomQaAgent,
    ScriptedDragAgent,
    ScriptedQaAgent,
    oracle_drag,
    read_script,
)
from studio.services.diagnostics.drag.scoring import Attempt, score_attempt

PNG = b"\x89PNG\r\n\x1a\n"


def drag_item(
    item_id: str = "a", drag_start: list[float] | None = None, regions: bool = True
) -> DragItem:
    cfg = EvaluationConfig(
        target_block_opcode="looks_say",
        target_block_id="t",
        reference_block_id="r",
        reference_block_opcode="control_repeat",
        connection_type=ConnectionType.NEXT,
        drag_start_point=drag_start if drag_start is not None else [100.0, 100.0],
        # the drag start (100, 100) lies outside this start region when given as (80, 100)
        feasible_start_points=[[x, y] for x in range(90, 125, 5) for y in range(95, 110, 5)]
        if regions
        else [],
        feasible_points=[[x, y] for x in range(300, 340, 5) for y in range(200, 230, 5)]
        if regions
        else [],
    )
    return DragItem(
        id=item_id,
        category=category_of(ConnectionType.NEXT),
        instruction="Put the say block below the repeat block.",
        evaluation_config=cfg,
    )


def obs(item_id: str = "a", attempt: int = 0) -> DragObservation:
    return DragObservation(item_id, "do it", PNG, attempt)


def qa_item(task_id: str, kind: QaType, truth: str) -> QaItem:
    return QaItem(
        task_id=task_id,
        instruction="?",
        screenshot="s.png",
        task_type=kind,
        tag=f"{kind.value}_x",
        ground_truth=truth,
    )


def qa_obs(task_id: str, kind: QaType) -> QaObservation:
    return QaObservation(task_id, "?", kind, PNG)


@pytest.mark.parametrize("drag_start", [[100.0, 100.0], [80.0, 100.0]])
def test_oracle_drag_scores_as_feasible(drag_start: list[float]) -> None:
    item = drag_item(drag_start=drag_start)
    found = oracle_drag(item)
    assert found is not None
    start, end = found
    assert start == ((100.0, 100.0) if drag_start[0] == 100 else (90.0, 100.0))
    score = score_attempt(item, Attempt(start, end))
    assert score.start_ok and score.end_ok
    # the end is deep inside the region (the 8x6 region erodes to its two middle rows)
    shifted = (end[0] - (start[0] - drag_start[0]), end[1] - (start[1] - drag_start[1]))
    assert 305 <= shifted[0] <= 330 and 210 <= shifted[1] <= 215


def test_oracle_agent_refuses_without_regions_or_item() -> None:
    agent = OracleDragAgent({"a": drag_item(regions=False)})
    decision = asyncio.run(agent.drag(obs()))
    assert decision.start is None and "no feasible regions" in (decision.error or "")
    decision = asyncio.run(agent.drag(obs("zz")))
    assert decision.start is None and "does not know" in (decision.error or "")
    good = asyncio.run(OracleDragAgent({"a": drag_item()}).drag(obs()))
    assert good.start == (100.0, 100.0) and good.error is None


def test_random_drag_is_seeded_per_item_and_attempt() -> None:
    a, b = RandomDragAgent(seed=3), RandomDragAgent(seed=3)
    first = [asyncio.run(a.drag(obs("x", n))) for n in range(3)]
    # another agent, items asked in another order: the same drags
    again = [asyncio.run(b.drag(obs("x", n))) for n in reversed(range(3))][::-1]
    assert [d.start for d in first] == [d.start for d in again]
    assert len({d.start for d in first}) == 3
    other = asyncio.run(RandomDragAgent(seed=4).drag(obs("x")))
    assert other.start != first[0].start
    for d in first:
        assert d.start is not None and d.end is not None
        assert all(0 <= p[0] < 1280 and 0 <= p[1] < 720 for p in (d.start, d.end))


def test_scripted_drag_lines_and_attempts(tmp_path: Path) -> None:
    script = tmp_path / "s.jsonl"
    rows = [
        {"id": "a", "start": [1, 2], "end": [3, 4]},
        {"task_id": "a", "start": [5, 6], "end": [7, 8], "reasoning": "second try"},
        {"id": "b", "attempts": [{"error": "unusable reply"}, {"start": [9, 9], "end": [0, 0]}]},
        {"id": "c", "start": [1], "end": [2, 2]},
    ]
    script.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    agent = ScriptedDragAgent(read_script(script))
    one, two = (asyncio.run(agent.drag(obs("a", n))) for n in range(2))
    assert (one.start, one.end, two.start, two.reasoning) == ((1, 2), (3, 4), (5, 6), "second try")
    assert "no attempt 3" in (asyncio.run(agent.drag(obs("a", 2))).error or "")
    b0, b1 = (asyncio.run(agent.drag(obs("b", n))) for n in range(2))
    assert b0.start is None and b0.error == "unusable reply" and b1.start == (9, 9)
    assert "line 4" in (asyncio.run(agent.drag(obs("c"))).error or "")
    assert asyncio.run(agent.drag(obs("zz"))).start is None


def test_script_errors_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "start": [1, 2], "end": [3, 4]}\n{"start": [1, 2]}\n')
    with pytest.raises(StudioError, match="line 2"):
        read_script(bad)
    bad.write_text("{not json\n")
    with pytest.raises(StudioError, match="line 1: not JSON"):
        read_script(bad)
    with pytest.raises(StudioError, match="cannot be read"):
        read_script(tmp_path / "missing.jsonl")


def test_qa_agents(tmp_path: Path) -> None:
    items = {
        "c": qa_item("c", QaType.CONNECTION, "YES"),
        "f": qa_item("f", QaType.FIELD, "10"),
    }
    oracle = OracleQaAgent(items)
    assert asyncio.run(oracle.answer(qa_obs("f", QaType.FIELD))).answer == "10"
    assert asyncio.run(oracle.answer(qa_obs("zz", QaType.FIELD))).error
    rnd = RandomQaAgent(seed=1)
    yes_no = {asyncio.run(RandomQaAgent(s).answer(qa_obs("c", QaType.CONNECTION))).answer
              for s in range(20)}  # fmt: skip
    assert yes_no == {"YES", "NO"}
    field = asyncio.run(rnd.answer(qa_obs("f", QaType.FIELD))).answer
    assert field and field == asyncio.run(RandomQaAgent(1).answer(qa_obs("f", QaType.FIELD))).answer
    script = tmp_path / "a.jsonl"
    script.write_text('{"task_id": "c", "answer": "NO"}\n{"task_id": "f", "answer": 10}\n')
    scripted = ScriptedQaAgent(read_script(script))
    assert asyncio.run(scripted.answer(qa_obs("c", QaType.CONNECTION))).answer == "NO"
    assert asyncio.run(scripted.answer(qa_obs("f", QaType.FIELD))).answer == "10"
    missing = asyncio.run(scripted.answer(qa_obs("zz", QaType.FIELD)))
    assert missing.answer == "" and "no answer" in (missing.error or "")
