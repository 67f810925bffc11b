"""The drag benchmark's Table 2 settings: GT Start gives a valid start point, Knowledge adds our
hints to the prompt; what cannot run is refused by name; the report lists runs by setting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studio import cli
from studio.models.protocols import ProtocolRecord
from studio.models.report import RunReport
from studio.services.diagnostics.agents import RandomDragAgent, oracle_drag
from studio.services.diagnostics.drag_settings import (
    KNOWLEDGE_HINTS,
    SettingsDragAgent,
    settings_problems,
)
from studio.services.diagnostics.llm_agent import drag_messages
from studio.services.diagnostics.report import row_from_summary
from studio.services.runs.protocol_report import drag_settings_table
from tests.helpers.tasks import cat_project
from tests.unit.test_diagnostic_agents import drag_item, obs


def test_ground_truth_start_hands_the_oracle_start_to_the_agent() -> None:
    items = {"a": drag_item("a")}
    start = oracle_drag(items["a"])
    assert start is not None
    agent = SettingsDragAgent(RandomDragAgent(seed=3), items, ground_truth_start=True)
    decision = asyncio.run(agent.drag(obs("a")))
    assert decision.start == start[0] and agent.name == "random"
    plain = asyncio.run(RandomDragAgent(seed=3).drag(obs("a")))
    assert plain.start != start[0] and plain.end == decision.end  # only the start is given


def test_the_llm_prompt_carries_the_start_and_the_hints() -> None:
    items = {"a": drag_item("a")}
    seen = []

    class Recorder:
        name = "llm"

        async def drag(self, observation):  # type: ignore[no-untyped-def]
            seen.append(observation)
            return await RandomDragAgent().drag(observation)

    agent = SettingsDragAgent(Recorder(), items, ground_truth_start=True, knowledge=True)
    asyncio.run(agent.drag(obs("a")))
    text = drag_messages(seen[0])[1]["content"][0]["text"]
    x, y = oracle_drag(items["a"])[0]  # type: ignore[index]
    assert f"A valid start point is given: ({round(x)}, {round(y)})" in text
    assert KNOWLEDGE_HINTS in text and "Baseline" not in text
    baseline = drag_messages(obs("a"))[1]["content"][0]["text"]
    assert "valid start point" not in baseline and "Hints" not in baseline


def test_settings_that_cannot_run_are_named() -> None:
    items = {"a": drag_item("a"), "b": drag_item("b", regions=False)}
    assert settings_problems(items, "oracle", True, True, ("llm",)) == [
        "--knowledge: the oracle agent reads no prompt (only: llm)",
        "--ground-truth-start: no computed start region for item(s) b (`studio regions "
        "compute` first)",
    ]
    assert settings_problems({"a": items["a"]}, "llm", True, True, ("llm",)) == []


def test_drag_run_refuses_knowledge_for_an_agent_without_a_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    item = tmp_path / "items" / "a"
    item.mkdir(parents=True)
    (item / "item.json").write_text(drag_item("a").model_dump_json())
    (item / "project.sb3").write_bytes(cat_project())
    code = cli.main(["drag", "run", str(tmp_path / "items"), "--agent", "random",
                     "--knowledge", "--out", str(tmp_path / "runs")])  # fmt: skip
    assert code == 2 and "--knowledge: the random agent reads no prompt" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_the_report_lists_drag_runs_by_setting_as_table_2(tmp_path: Path) -> None:
    rows = []
    for name, settings in (
        ("base", {"k": 3, "ground_truth_start": False, "knowledge": False}),
        ("gt", {"k": 3, "ground_truth_start": True, "knowledge": False}),
        ("kn", {"k": 3, "ground_truth_start": False, "knowledge": True}),
    ):
        summary = {"kind": "drag", "agent": "gpt", "items": 60, "k": 3, "pass@1": 23.33,
                   "pass@2": 28.33, "pass@3": 35.0, "start_acc": 66.67, "end_acc": 32.5,
                   "start_error_px": 28.32, "end_error_px": 36.05,
                   "protocol": ProtocolRecord(name="scratchworld",
                                              settings=settings).model_dump()}  # fmt: skip
        rows.append(row_from_summary(summary, tmp_path / name))
    assert [r.agent for r in rows] == [
        "gpt [scratchworld]",
        "gpt [scratchworld, ground-truth start]",
        "gpt [scratchworld, knowledge]",
    ]
    lines = drag_settings_table(rows)
    assert lines[1].split() == ["Model", "Setting", "@1", "@2", "@3", "Start", "acc", "End",
                                "acc", "Start", "err", "px", "End", "err", "px", "Run"]  # fmt: skip
    assert [line.split()[:3] for line in lines[2:]] == [
        ["gpt", "Baseline", "23.33"],
        ["gpt", "GT", "Start"],
        ["gpt", "Knowledge", "23.33"],
    ]
    assert lines[2].split()[-3:] == ["28.32", "36.05", "base"]
    assert drag_settings_table(RunReport(root="").diagnostics) == []
