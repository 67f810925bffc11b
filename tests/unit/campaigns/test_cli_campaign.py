"""`studio run` flags of a campaign: a new one writes its manifest; --resume takes its settings
from it, refuses other tasks or another agent, and names a torn manifest; limits and prices."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from studio import cli
from studio.cli.campaign import campaign_for, limits_for
from studio.models.errors import StudioError
from studio.services.runs.campaign import MANIFEST_FILE
from tests.helpers.tasks import make_task


def _args(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["run", *argv])


def test_new_campaign_then_resume_takes_the_manifest_settings(tmp_path: Path) -> None:
    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    b = make_task(tmp_path / "lib" / "b", task_id="debug_b", category="debug")
    out = tmp_path / "runs"
    new = _args(str(a), str(b), "--agent", "random", "--epochs", "3", "--seed", "7",
                "--steps", "5", "--max-tokens", "900", "--out", str(out))  # fmt: skip
    opened = campaign_for(new)
    tasks, run_dir = opened.tasks, opened.run_dir
    assert [t.task.id for t in tasks] == ["create_a", "debug_b"]
    data = json.loads((run_dir / MANIFEST_FILE).read_text())
    assert (data["agent"], data["mode"], data["epochs"], data["seed"]) == (
        "random",
        "composite",
        3,
        7,
    )
    assert data["settings"]["steps"] == 5 and data["settings"]["max_tokens"] == 900
    assert len(data["tasks"][0]["script_sha256"]) == 64 and data["studio_version"]

    again = _args("--resume", str(run_dir))
    opened = campaign_for(again)
    tasks, same_dir = opened.tasks, opened.run_dir
    assert same_dir == run_dir and [t.task.id for t in tasks] == ["create_a", "debug_b"]
    assert (again.agent, again.epochs, again.seed, again.steps) == ("random", 3, 7, 5)
    assert limits_for(again)[0].tokens == 900  # type: ignore[union-attr]

    with pytest.raises(StudioError, match=r"not in it: \['other'\]"):
        c = make_task(tmp_path / "lib" / "c", task_id="other")
        campaign_for(_args(str(a), str(b), str(c), "--resume", str(run_dir)))
    with pytest.raises(StudioError, match=f"--agent idle: the campaign in {run_dir} has random"):
        campaign_for(_args("--resume", str(run_dir), "--agent", "idle"))
    (run_dir / MANIFEST_FILE).write_text('{"agent": "random", "mo')
    assert cli.main(["run", "--resume", str(run_dir)]) == 2


def test_limits_and_prices_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert limits_for(_args("x", "--agent", "idle")) == (None, None)
    with pytest.raises(StudioError, match="--max-cost needs --prices"):
        limits_for(_args("x", "--agent", "llm", "--max-cost", "1"))
    prices = tmp_path / "prices.json"
    prices.write_text('{"models": {"m": {"prompt": 1, "completion": 2}}}')
    limits, table = limits_for(_args("x", "--agent", "idle", "--max-seconds", "30",
                                     "--max-cost", "2", "--prices", str(prices)))  # fmt: skip
    assert limits is not None and (limits.seconds, limits.cost) == (30, 2)
    assert table is not None and table.cost("m", 1000, 0) == pytest.approx(0.001)
    assert cli.main(["run", "--agent", "idle"]) == 2
    assert "needs TASKS and --agent" in capsys.readouterr().err


def test_two_campaigns_started_in_the_same_second_get_two_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("studio.app.campaigns.plan.run_dir_name", lambda agent, mode: "same-second")
    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    argv = (str(a), "--agent", "idle", "--out", str(tmp_path / "runs"))
    first = campaign_for(_args(*argv)).run_dir
    (first / "results.jsonl").write_text('{"task": "create_a", "epoch": 1}\n')
    second = campaign_for(_args(*argv)).run_dir
    assert first.name == "same-second" and second.name == "same-second-2"
    assert not (second / "results.jsonl").exists()


def test_resuming_a_finished_campaign_plays_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    run_dir = campaign_for(_args(str(a), "--agent", "idle", "--out", str(tmp_path))).run_dir
    (run_dir / "results.jsonl").write_text('{"task": "create_a", "epoch": 1, "success": false}\n')
    assert cli.main(["run", "--resume", str(run_dir)]) == 0
    out = capsys.readouterr().out
    assert "1 episode(s) finished, 0 to play" in out and "nothing left to play" in out


def test_resume_names_another_task_set_a_changed_script_and_another_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    run_dir = campaign_for(_args(str(a), "--agent", "idle", "--out", str(tmp_path))).run_dir
    (a / "evaluate.js").write_text("module.exports = async () => ({});\n")
    manifest = json.loads((run_dir / MANIFEST_FILE).read_text())
    manifest["studio_version"] = "0.0.1"
    (run_dir / MANIFEST_FILE).write_text(json.dumps(manifest))
    campaign_for(_args("--resume", str(run_dir)))
    err = capsys.readouterr().err
    assert f"warning: {run_dir / MANIFEST_FILE}: the campaign was started by studio 0.0.1" in err
    assert f"warning: {a / 'evaluate.js'}: evaluation script changed" in err
    data = json.loads((a / "task.json").read_text())
    data["id"] = "create_b"  # the folder now holds another task set's task
    (a / "task.json").write_text(json.dumps(data))
    with pytest.raises(
        StudioError, match=rf"{a}: holds task 'create_b', the campaign's .* 'create_a'"
    ):
        campaign_for(_args("--resume", str(run_dir)))
