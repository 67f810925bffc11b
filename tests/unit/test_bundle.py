"""The bundle writer (`studio report --bundle`): what data.js holds, the screenshots copied,
the marks drawn per action, runs grouped by folder, and an existing folder left alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import Element, EpisodeStatus
from studio.models.errors import StudioError
from studio.services.runs.bundle import write_bundle
from studio.services.runs.bundle.writer import GLOBAL
from tests.helpers.cli import studio_here
from tests.unit.trajectories.build import (
    observation,
    png,
    result,
    run_info,
    step,
    write_trajectory,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sw_results"


def read_data(site: Path) -> dict[str, Any]:
    text = (site / "data.js").read_text(encoding="utf-8")
    prefix = f"window.{GLOBAL} = "
    assert text.startswith(prefix) and text.rstrip().endswith(";")
    data: dict[str, Any] = json.loads(text[len(prefix) :].rstrip().rstrip(";"))
    return data


def studio_runs(root: Path) -> Path:
    """Two runs of the random agent and one of the oracle, in their batch folders."""
    steps = [
        step(1, "click", x=100, y=50),
        step(2, "drag_and_drop", start_x=10, start_y=20, end_x=300, end_y=400),
        step(3, "scroll", direction="up", amount=2, index=0),
        step(4, "type", ok=False, text="hi"),
        step(5, "done"),
    ]
    elements = [Element(index=0, type="canvas", x=200, y=100, w=400, h=300)]
    obs = {
        1: observation(1, [Element(index=0, type="blocks", x=90, y=40, w=30, h=20)]),
        3: observation(3, elements),
    }
    for batch, agent, task, passed in (
        ("random-primitive-1", "random", "create_a", False),
        ("random-primitive-1", "random", "debug_b", True),
        ("oracle-primitive-1", "oracle", "create_a", True),
    ):
        outcome = {"t1": passed, "t2": True}
        run = run_info(task, agent=agent, eval=result(task, outcome), episode_id=f"{agent}-{task}")
        shots = {s.index: png(s.index) for s in steps if s.index != 4}  # step 4's is missing
        write_trajectory(root / batch / task, steps, shots, run, final_png=png(9), observations=obs)
    return root


def test_data_js_holds_report_runs_episodes_and_the_marks(tmp_path: Path) -> None:
    root = studio_runs(tmp_path / "runs")
    summary = write_bundle(root, tmp_path / "site")
    assert (summary.runs, summary.episodes, summary.steps) == (2, 3, 15)
    data = read_data(tmp_path / "site")
    assert data["format"] == "scratch-bench-bundle"
    assert {r["agent"] for r in data["report"]["rows"]} == {"random", "oracle"}
    assert [(r["agent"], r["episodes"]) for r in data["runs"]] == [("oracle", 1), ("random", 2)]
    first = data["episodes"][0]
    assert (first["task"], first["outcome"], first["run"]) == ("create_a", "pass", 0)
    marks = [s["mark"] for s in first["steps"]]
    assert marks[0] == {"kind": "click", "points": [[100.0, 50.0]], "button": "left",
                        "box": [90.0, 40.0, 30.0, 20.0]}  # fmt: skip
    assert marks[1]["kind"] == "drag" and marks[1]["points"] == [[10.0, 20.0], [300.0, 400.0]]
    assert marks[2]["kind"] == "scroll" and marks[2]["points"] == [[400.0, 250.0]]
    assert marks[2]["direction"] == "up"
    assert marks[3] == {"kind": "caption", "points": [], "text": 'type "hi"'}
    assert marks[4]["kind"] == "caption" and marks[4]["text"] == "done"
    shots = [s["img"] for s in first["steps"]]
    assert shots[3] is None and first["steps"][3]["missing"] == ["screenshot step_0004.png"]
    assert not first["steps"][3]["ok"] and first["steps"][3]["error"] == "boom"
    for rel in [s for s in shots if s] + [first["final"]]:
        assert (tmp_path / "site" / rel).is_file()
    assert (tmp_path / "site" / shots[0]).read_bytes() == png(1)
    assert [t["name"] for t in first["tests"]] == ["t1", "t2"]
    for name in ("index.html", "bundle.js", "bundle.css"):
        assert (tmp_path / "site" / name).is_file()


def test_scratchworld_folders_are_runs_of_the_bundle(tmp_path: Path) -> None:
    summary = write_bundle(FIXTURE, tmp_path / "site")
    data = read_data(tmp_path / "site")
    assert summary.episodes == 6
    assert [r["folder"] for r in data["runs"]] == [
        str(FIXTURE / "result_gpt-4o_composite_scratch_agent"),
        str(FIXTURE / "result_gpt-4o_primitive_scratch_agent"),
    ]
    extend = next(e for e in data["episodes"] if e["task"] == "extend_rain_clones")
    assert extend["outcome"] == "error" and "Read timed out" in extend["error"]
    debug = next(e for e in data["episodes"] if e["task"] == "debug_pong_paddle" and e["run"] == 1)
    assert any("recording missing" in p for p in debug["problems"])
    assert {d["kind"] for d in data["report"]["diagnostics"]} == {"drag", "qa"}
    assert any("torn" in p for p in data["report"]["problems"])


def test_an_existing_bundle_is_replaced_and_other_folders_are_left_alone(tmp_path: Path) -> None:
    root = studio_runs(tmp_path / "runs")
    site = tmp_path / "site"
    write_bundle(root, site)
    (site / "img" / "stale.png").write_bytes(b"x")
    write_bundle(root, site)
    assert not (site / "img" / "stale.png").exists() and (site / "data.js").is_file()
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep")
    with pytest.raises(StudioError, match="holds no bundle; not replaced"):
        write_bundle(root, other)
    assert [p.name for p in other.iterdir()] == ["mine.txt"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_episode_folder_that_vanished_keeps_its_verdict(tmp_path: Path) -> None:
    root = studio_runs(tmp_path / "runs")
    from studio.services.runs.reports import report_for

    report = report_for(root)
    gone = root / "random-primitive-1" / "debug_b"
    for path in gone.iterdir():
        if path.name != "run.json":
            path.unlink()
    write_bundle(root, tmp_path / "site", report)
    episode = next(e for e in read_data(tmp_path / "site")["episodes"] if e["task"] == "debug_b")
    assert episode["outcome"] == "pass" and episode["steps"] == []
    assert any("steps.jsonl: missing" in p for p in episode["problems"])


def test_cli_report_bundle(tmp_path: Path) -> None:
    root = studio_runs(tmp_path / "runs")
    done = studio_here("report", str(root), "--bundle", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr
    assert f"bundle written to {tmp_path / 'site' / 'index.html'} (3 episodes" in done.stdout
    assert read_data(tmp_path / "site")["root"] == str(root)


def test_status_of_an_unevaluated_run_is_an_error_outcome(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    run = run_info("create_c", status=EpisodeStatus.FAILED, agent="idle")
    write_trajectory(root / "idle-primitive-1" / "create_c", [step(1)], run=run)
    write_bundle(root, tmp_path / "site")
    (episode,) = read_data(tmp_path / "site")["episodes"]
    assert episode["outcome"] == "error" and episode["error"].startswith("not evaluated")


def test_a_campaign_with_epochs_is_one_run_and_episodes_carry_their_epoch(tmp_path: Path) -> None:
    """Two campaigns of 2 tasks x 2 epochs: two runs of 4 episodes each, so "two runs side by
    side" pairs the same tasks; each episode row has its epoch."""
    root = tmp_path / "runs"
    steps = [step(1, "done")]
    for campaign in ("oracle-composite-1", "random-composite-1"):
        agent = campaign.split("-")[0]
        for task in ("create_a", "debug_b"):
            for epoch in (1, 2):
                run = run_info(task, agent=agent, eval=result(task, {"t1": epoch == 1}),
                               episode_id=f"{agent}-{task}-{epoch}")  # fmt: skip
                run.meta["epoch"] = epoch
                folder = root / campaign / task / f"epoch-{epoch}"
                write_trajectory(folder, steps, {1: png(1)}, run)
    summary = write_bundle(root, tmp_path / "site")
    assert (summary.runs, summary.episodes) == (2, 8)
    data = read_data(tmp_path / "site")
    assert [(r["agent"], r["episodes"]) for r in data["runs"]] == [("oracle", 4), ("random", 4)]
    assert sorted((e["task"], e["epoch"]) for e in data["episodes"] if e["run"] == 0) == [
        ("create_a", 1), ("create_a", 2), ("debug_b", 1), ("debug_b", 2)
    ]  # fmt: skip
    page = (tmp_path / "site" / "index.html").read_text()
    assert "<th>Task</th><th>Epoch</th>" in page
