"""Batch runs with the fake episode manager, and the serve/run/report command lines."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from studio.app.agents import episode_agents, load_actions
from studio.cli import build_parser
from studio.cli.common import run_command
from studio.models.agent import Mode, Observation
from studio.models.errors import StudioError
from studio.services.core.store import TaskFolder, load_task
from studio.services.runs.batch import run_batch, run_dir_name
from studio.services.runs.reports import report_for
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.tasks import make_task


class ListAgent:
    """Replays a fixed list of actions, then `done`."""

    def __init__(self, name: str, actions: list[dict[str, Any]]) -> None:
        self.name = name
        self.actions = list(actions)
        self.refused: list[str] = []

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        return (self.actions.pop(0) if self.actions else {"api": "done"}), "scripted"

    def feedback(self, error: str) -> None:
        self.refused.append(error)


@pytest.fixture
def tasks(tmp_path: Path) -> list[TaskFolder]:
    lib = tmp_path / "lib"
    return [
        load_task(make_task(lib / "a", task_id="create_a")),
        load_task(make_task(lib / "b", task_id="debug_b", category="debug")),
        load_task(make_task(lib / "c", task_id="compute_c", category="compute")),
    ]


def test_batch_records_runs_that_the_report_reads(tasks: list[TaskFolder], tmp_path: Path) -> None:
    solve: list[dict[str, Any]] = [
        {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}},
        {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
    ]
    agents: list[ListAgent] = []

    def agent_for(task: TaskFolder, position: int) -> ListAgent:
        if task.task.id == "compute_c":
            raise RuntimeError("endpoint down")
        script: list[dict[str, Any]] = (
            solve if task.task.id == "create_a" else [*solve[:1], {"api": "nope"}]
        )
        agents.append(ListAgent("lister", script))
        return agents[-1]

    seen: list[tuple[int, int]] = []
    run_dir = tmp_path / "runs" / run_dir_name("lister", Mode.COMPOSITE)
    batch = asyncio.run(
        _with_manager(
            lambda m: run_batch(
                m, tasks, agent_for, Mode.COMPOSITE, run_dir, workers=2, agent_name="lister",
                on_done=lambda done, total, _o: seen.append((done, total)),
            )
        )
    )  # fmt: skip
    assert [o.task.task.id for o in batch.outcomes] == ["create_a", "debug_b", "compute_c"]
    assert [o.success for o in batch.outcomes] == [True, False, False]
    assert batch.outcomes[1].psr == 0.5 and batch.outcomes[2].error == "endpoint down"
    assert batch.sr == pytest.approx(1 / 3) and batch.psr == pytest.approx(0.5)
    assert batch.errors == 1 and sorted(seen) == [(1, 3), (2, 3), (3, 3)]
    assert any("unknown api 'nope'" in e for a in agents for e in a.refused)
    report = report_for(tmp_path / "runs")
    (row,) = report.rows
    assert (row.agent, row.mode, row.overall.tasks) == ("lister", "composite", 3)
    assert row.categories["create"].sr == 1.0 and row.categories["compute"].sr == 0.0
    crash = json.loads((run_dir / "compute_c" / "run.json").read_text())
    assert crash["meta"]["error"] == "endpoint down" and crash["eval"] is None
    summary = batch.to_json()
    assert summary["tasks"] == 3 and summary["episodes"][2]["error"] == "endpoint down"


async def _with_manager(body: Any) -> Any:
    manager = FakeEpisodeManager()
    try:
        return await body(manager)
    finally:
        await manager.close()


def test_run_dir_name_is_safe() -> None:
    name = run_dir_name("org/model: v1", Mode.PRIMITIVE)
    assert name.startswith("org_model_v1-primitive-") and "/" not in name


def test_report_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.unit.test_reports import write_run

    write_run(tmp_path / "runs", "oracle", "composite", "create_a", 2, 2)
    write_run(tmp_path / "runs", "idle", "composite", "create_a", 0, 2)
    html = tmp_path / "out" / "report.html"
    args = build_parser().parse_args(["report", str(tmp_path / "runs"), "--html", str(html)])
    assert run_command(args) == 0
    out = capsys.readouterr().out
    assert "oracle" in out and "100.00" in out and f"written to {html}" in out
    assert html.read_text().startswith("<!DOCTYPE html>")
    args = build_parser().parse_args(["report", str(tmp_path / "runs"), "--json"])
    assert run_command(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert {(r["agent"], r["overall"]["sr"]) for r in data["rows"]} == {("oracle", 1), ("idle", 0)}
    args = build_parser().parse_args(["report", str(tmp_path / "empty")])
    assert run_command(args) == 2
    assert "does not exist" in capsys.readouterr().err


def test_serve_refuses_remote_host(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "0"])
    assert run_command(args) == 2
    assert "--allow-remote" in capsys.readouterr().err


def test_run_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_command(build_parser().parse_args(["run", str(empty), "--agent", "idle"])) == 2
    assert "holds no task folder" in capsys.readouterr().err
    task = make_task(tmp_path / "t")
    args = build_parser().parse_args(["run", str(task), "--agent", "scripted"])
    assert run_command(args) == 2
    assert "--actions FILE" in capsys.readouterr().err


def test_actions_file_formats(tmp_path: Path) -> None:
    listed = tmp_path / "a.json"
    listed.write_text(json.dumps([{"api": "done", "args": {}}]))
    assert load_actions(listed) == [{"api": "done", "args": {}}]
    lines = tmp_path / "steps.jsonl"
    lines.write_text('{"index": 1, "action": {"api": "select_stage"}}\n{"api": "done"}\n')
    assert [a["api"] for a in load_actions(lines)] == ["select_stage", "done"]
    bad = tmp_path / "bad.json"
    bad.write_text("[1]")
    with pytest.raises(StudioError, match="item 1 is not an action"):
        load_actions(bad)


def test_agent_factory_builds_every_agent(
    tasks: list[TaskFolder], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def make(agent: str, *extra: str) -> Any:
        args = build_parser().parse_args(["run", "x", "--agent", agent, "--seed", "5", *extra])
        return episode_agents(agent, Mode.COMPOSITE, args.seed, args.actions)

    assert make("idle")(tasks[0], 0).name == "idle"
    assert make("random")(tasks[0], 2).name == "random"
    assert make("oracle")(tasks[0], 0).name == "oracle"
    monkeypatch.setenv("STUDIO_LLM_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("STUDIO_LLM_MODEL", "m")
    llm = make("llm")(tasks[0], 0)
    assert llm.name == "m" and llm.instruction == tasks[0].task.instruction
    scripts = tmp_path / "scripts"
    (scripts / "debug_b").mkdir(parents=True)
    (scripts / "create_a.json").write_text('[{"api": "select_stage"}]')
    (scripts / "debug_b" / "steps.jsonl").write_text('{"index": 1, "action": {"api": "failed"}}\n')
    per_task = make("scripted", "--actions", str(scripts))
    first = asyncio.run(per_task(tasks[0], 0).act(Observation(mode=Mode.COMPOSITE, step=0)))
    second = asyncio.run(per_task(tasks[1], 1).act(Observation(mode=Mode.COMPOSITE, step=0)))
    assert first[0]["api"] == "select_stage" and second[0]["api"] == "failed"
    with pytest.raises(StudioError, match="no script for task compute_c"):
        per_task(tasks[2], 2)
