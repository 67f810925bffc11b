"""Protocol presets: `--protocol scratchworld` sets the published settings, every run records
its protocol, and `studio report` shows it and never pools runs of different protocols."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

import pytest

from studio import cli
from studio.cli.campaign import campaign_for
from studio.cli.protocol_flags import resolve_item_protocol
from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.protocols import (
    ProtocolError,
    ProtocolRecord,
    protocol_label,
    resolve_protocol,
)
from studio.models.trajectory import RUN_FILE
from studio.services.core.store import load_task
from studio.services.diagnostics.report import row_from_summary
from studio.services.runs import campaign
from studio.services.runs.batch import run_batch
from studio.services.runs.reports import format_table, report_for
from tests.helpers.tasks import make_task
from tests.unit.campaigns.test_campaign import FakeRunner, _no_agent


def _args(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["run", *argv])


def test_scratchworld_fixes_50_steps_and_keeps_its_options() -> None:
    record = resolve_protocol("scratchworld", "run", {"steps": None}, mode="primitive")
    assert record.settings["steps"] == 50 and record.settings["element_list"] is True
    ablation = resolve_protocol("scratchworld", "run", {"element_list": False}, mode="primitive")
    assert protocol_label(ablation) == "scratchworld, no element list"
    composite = resolve_protocol("scratchworld", "run", {}, mode="composite")
    assert "element_list" not in composite.settings and protocol_label(composite) == "scratchworld"
    assert protocol_label(resolve_protocol(None, "run", {"steps": 50}, mode="composite")) == (
        "steps 50"
    )
    assert protocol_label(resolve_protocol(None, "run", {}, mode="composite")) == ""
    assert resolve_protocol("scratchworld", "drag").settings["k"] == 3


def test_bad_protocols_and_settings_are_refused_by_name() -> None:
    with pytest.raises(ProtocolError, match=r"--protocol swe: unknown protocol \(known: "):
        resolve_protocol("swe", "run")
    with pytest.raises(ProtocolError, match="--steps 80: protocol scratchworld fixes steps at 50"):
        resolve_protocol("scratchworld", "run", {"steps": 80}, mode="primitive")
    with pytest.raises(ProtocolError, match="--no-element-list: composite mode has no element"):
        resolve_protocol("scratchworld", "run", {"element_list": False}, mode="composite")
    with pytest.raises(ProtocolError, match="--k 2: protocol scratchworld fixes k at 3"):
        resolve_protocol("scratchworld", "drag", {"k": 2})
    with pytest.raises(ProtocolError, match="--knowledge: the qa runs of protocol studio have"):
        resolve_protocol("studio", "qa", {"knowledge": True})


def test_a_campaign_records_its_protocol_and_a_resume_keeps_it(tmp_path: Path) -> None:
    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    new = _args(str(a), "--agent", "idle", "--mode", "primitive", "--protocol", "scratchworld",
                "--out", str(tmp_path / "runs"))  # fmt: skip
    opened = campaign_for(new)
    run_dir, manifest = opened.run_dir, opened.manifest
    assert new.steps == 50 and manifest.settings["steps"] == 50
    assert manifest.settings["protocol"] == {
        "name": "scratchworld",
        "settings": {
            "steps": 50,
            "evaluation": "once, at the end of the episode",
            "element_list": True,
        },
    }
    again = _args("--resume", str(run_dir))
    campaign_for(again)
    assert (again.protocol, again.steps) == ("scratchworld", 50)
    with pytest.raises(StudioError, match="runs under protocol scratchworld"):
        campaign_for(_args("--resume", str(run_dir), "--protocol", "studio"))
    default = _args(str(a), "--agent", "idle", "--out", str(tmp_path / "runs2"))
    manifest = campaign_for(default).manifest
    assert manifest.settings["protocol"]["name"] == "studio"
    assert manifest.settings["protocol"]["settings"]["steps"] == 100


def test_unknown_protocol_on_the_command_line_is_a_named_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = make_task(tmp_path / "a", task_id="create_a")
    code = cli.main(["run", str(a), "--agent", "idle", "--protocol", "osworld",
                     "--out", str(tmp_path / "runs")])  # fmt: skip
    assert code == 2
    assert "--protocol osworld: unknown protocol" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()  # nothing recorded
    code = cli.main(["run", str(a), "--agent", "idle", "--protocol", "scratchworld",
                     "--steps", "100", "--out", str(tmp_path / "runs")])  # fmt: skip
    assert code == 2 and "fixes steps at 50" in capsys.readouterr().err


def test_report_shows_protocols_and_never_pools_them(tmp_path: Path) -> None:
    tasks = [load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))]
    root = tmp_path / "runs"
    for name, record in (
        ("studio", resolve_protocol(None, "run", {}, mode="composite")),
        ("sw", resolve_protocol("scratchworld", "run", {}, mode="composite")),
    ):
        run_dir = root / name
        coro = run_batch(
            FakeRunner(), tasks, _no_agent, Mode.COMPOSITE, run_dir, 1, "fake",
            ledger=campaign.Ledger(run_dir), run_meta={"protocol": record.model_dump()},
        )  # fmt: skip
        batch = asyncio.run(coro)
        assert batch.run_meta["protocol"]["name"] == record.name
    run = json.loads((root / "sw" / "create_a" / RUN_FILE).read_text())
    assert run["meta"]["protocol"]["settings"]["steps"] == 50
    report = report_for(root)
    assert sorted(r.agent for r in report.rows) == ["fake", "fake [scratchworld]"]
    sw = next(r for r in report.rows if r.protocol == "scratchworld")
    assert sw.protocol_settings["steps"] == 50 and sw.overall.runs == 1
    text = format_table(report)
    assert "[scratchworld]: protocol scratchworld" in text and "steps 50" in text
    assert "fake (composite): runs under 2 protocols or settings are shown as separate" in text
    assert json.loads(report.model_dump_json())["rows"][0]["protocol"] in ("studio", "scratchworld")
    from studio.services.runs.report_html import render_html

    assert "[scratchworld]: protocol scratchworld" in render_html(report)


def test_drag_and_qa_runs_take_and_record_the_protocol(tmp_path: Path) -> None:
    parser = cli.build_parser()
    drag = parser.parse_args(["drag", "run", "items", "--agent", "oracle", "--protocol",
                              "scratchworld"])  # fmt: skip
    record = resolve_item_protocol(drag, "drag")
    assert drag.k == 3 and record.settings["ground_truth_start"] is False
    plain = parser.parse_args(["drag", "run", "items", "--agent", "oracle"])
    resolve_item_protocol(plain, "drag")
    assert plain.k == 1
    bad = parser.parse_args(["drag", "run", "items", "--agent", "oracle", "--k", "2",
                             "--protocol", "scratchworld"])  # fmt: skip
    with pytest.raises(ProtocolError, match="--k 2"):
        resolve_item_protocol(bad, "drag")
    qa = parser.parse_args(["qa", "run", "qa", "--agent", "oracle", "--protocol", "scratchworld"])
    assert resolve_item_protocol(qa, "qa").name == "scratchworld"

    record = ProtocolRecord(name="scratchworld", settings={"k": 3, "knowledge": True})
    summary = {"kind": "drag", "agent": "llm", "items": 2, "k": 3, "pass@1": 50.0,
               "protocol": record.model_dump()}  # fmt: skip
    row = row_from_summary(summary, tmp_path)
    assert row.agent == "llm [scratchworld, knowledge]" and row.protocol == "scratchworld"


def test_baselines_are_idle_and_random_campaigns_with_the_same_settings(tmp_path: Path) -> None:
    from studio.cli.baselines import baseline_args

    args = _args("lib", "--agent", "llm", "--planner", "global", "--protocol", "scratchworld",
                 "--mode", "primitive", "--baselines", "--epochs", "2")  # fmt: skip
    extras = baseline_args(args)
    assert [e.agent for e in extras] == ["idle", "random"]
    assert all(e.protocol == "scratchworld" and e.epochs == 2 and e.planner is None
               and not e.baselines for e in extras)  # fmt: skip
    assert args.agent == "llm" and args.planner == "global"  # the command's own flags stay
    assert [e.agent for e in baseline_args(_args("lib", "--agent", "random", "--baselines"))] == [
        "idle"
    ]
    assert baseline_args(_args("lib", "--agent", "llm")) == []
    with pytest.raises(StudioError, match="--baselines starts new campaigns: not with --resume"):
        baseline_args(_args("--resume", str(tmp_path), "--baselines"))


def test_no_element_list_is_refused_where_it_cannot_play(tmp_path: Path) -> None:
    from studio.app.campaigns import resolve_run_protocol
    from studio.app.runners import episode_runner

    args = _args("lib", "--agent", "llm", "--mode", "primitive", "--no-element-list",
                 "--api", "http://127.0.0.1:9")  # fmt: skip
    with pytest.raises(StudioError, match="--no-element-list plays in this process's browser"):
        resolve_run_protocol(args)
    with pytest.raises(StudioError, match="leave out --ray and --api"):
        episode_runner(ray="local", element_list=False)
    local = _args("lib", "--agent", "llm", "--mode", "primitive", "--no-element-list")
    assert resolve_run_protocol(local).settings["element_list"] is False
    assert local.element_list is False
