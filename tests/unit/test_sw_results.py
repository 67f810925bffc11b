"""ScratchWorld runners' result folders (tests/fixtures/sw_results, our own fixture in the
published layout) in `studio report` and the run viewer: the published figures computed by
hand, and bad input (a torn result.json, missing recordings and screenshots) named by path."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.services.formats.scratchworld.results.folders import classify, find_result_folders
from studio.services.runs.reports import format_table, report_for
from studio.services.runs.trajectories.view import load_view
from tests.helpers.cli import studio_here

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sw_results"
PRIM = FIXTURE / "result_gpt-4o_primitive_scratch_agent"
COMP = FIXTURE / "result_gpt-4o_composite_scratch_agent"
AGENT = "gpt-4o (scratch_agent)"


def test_folder_names_give_kind_model_mode_and_agent() -> None:
    folder = classify(Path("result_my_model-v2_primitive_react_agent"))
    assert folder is not None
    assert (folder.kind, folder.model, folder.mode, folder.agent) == (
        "task", "my_model-v2", "primitive", "react_agent",
    )  # fmt: skip
    drag = classify(Path("result_single_step_drag_benchmark_qwen3_vl"))
    assert drag is not None and (drag.kind, drag.model) == ("drag", "qwen3_vl")
    qa = classify(Path("result_visual_perception_benchmark_gpt-5"))
    assert qa is not None and (qa.kind, qa.model) == ("qa", "gpt-5")
    assert classify(Path("results_gpt")) is None
    assert [f.kind for f in find_result_folders(FIXTURE)] == ["task", "task", "drag", "qa"]
    assert [f.path for f in find_result_folders(PRIM)] == [PRIM]


def test_task_runner_folders_are_rows_with_sr_and_psr_per_category() -> None:
    report = report_for(FIXTURE)
    rows = {(r.agent, r.mode): r for r in report.rows}
    assert set(rows) == {(AGENT, "composite"), (AGENT, "primitive")}
    prim = rows[(AGENT, "primitive")]
    # create 3/3 pass, debug 1/3, extend raised (exception record: failed, PSR 0), compute 5/5
    assert prim.overall.tasks == 4
    assert prim.overall.sr == pytest.approx(2 / 4)
    assert prim.overall.psr == pytest.approx((1 + 1 / 3 + 0 + 1) / 4)
    assert {c: cell.sr for c, cell in prim.categories.items()} == {
        "create": 1.0, "debug": 0.0, "extend": 0.0, "compute": 1.0,
    }  # fmt: skip
    comp = rows[(AGENT, "composite")]  # the torn compute_average is left out
    assert comp.overall.tasks == 2
    assert comp.overall.sr == pytest.approx(0.5) and comp.overall.psr == pytest.approx(0.75)
    assert comp.categories["compute"].tasks == 0
    extend = next(t for t in prim.tasks if t.task_id == "extend_rain_clones")
    assert extend.sr == 0.0 and extend.psr == 0.0
    create = next(t for t in prim.tasks if t.task_id == "create_balloon_score")
    assert create.mean_seconds == pytest.approx(35.0)  # first turn at +5 s, record at +40 s


def test_drag_pass_at_k_per_interaction_type_and_perception_accuracy_per_tag() -> None:
    report = report_for(FIXTURE)
    drag = next(d for d in report.diagnostics if d.kind == "drag")
    # T1_001 [pass, fail], T1_002 [fail, fail, pass], T2_001 [fail x3], T2_002 [pass]
    assert (drag.agent, drag.items, drag.k) == ("gpt-4o", 4, 3)
    assert [drag.scores[f"pass@{k}"] for k in (1, 2, 3)] == [50.0, 50.0, 75.0]
    assert [drag.scores[f"T1 pass@{k}"] for k in (1, 2, 3)] == [50.0, 50.0, 100.0]
    assert [drag.scores[f"T2 pass@{k}"] for k in (1, 2, 3)] == [50.0, 50.0, 50.0]
    qa = next(d for d in report.diagnostics if d.kind == "qa")
    assert qa.items == 5
    assert (qa.scores["connection"], qa.scores["existence"], qa.scores["field"]) == (
        50.0, 100.0, 50.0,
    )  # fmt: skip
    assert qa.scores["overall"] == 60.0
    assert qa.scores["tag connection_no_hard"] == 0.0 and qa.scores["tag field_value"] == 50.0
    text = format_table(report)
    assert "T1 Pass@3" in text and "Tag existence_yes_occluded" in text


def test_bad_input_is_named_by_path_and_the_rest_is_shown() -> None:
    problems = report_for(FIXTURE).problems
    torn = COMP / "compute" / "compute_average" / "result.json"
    assert any(p.startswith(f"{torn}: torn") for p in problems)
    debug = PRIM / "debug" / "debug_pong_paddle"
    assert f"{debug / 'recording.webm'}: recording missing (named in result.json)" in problems
    assert any(p.startswith(f"{debug}: 1 screenshot(s) missing (step_2.png)") for p in problems)
    drag_run = FIXTURE / "result_single_step_drag_benchmark_gpt-4o" / "T2_001" / "1"
    assert f"{drag_run}: screenshot(s) missing: 1.png, 2.png" in problems


def test_a_task_folder_without_result_and_a_torn_answer(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    shutil.copytree(PRIM, root / PRIM.name)
    unfinished = root / PRIM.name / "create" / "create_unfinished"
    unfinished.mkdir()
    qa = root / "result_visual_perception_benchmark_m" / "7"
    qa.mkdir(parents=True)
    (qa / "result.json").write_text('{"task_id": 7, "tag": "field_x", "succ')
    (qa.parent / "8").mkdir()
    (qa.parent / "8" / "result.json").write_text(json.dumps({"tag": "field_x", "success": True}))
    report = report_for(root)
    assert f"{unfinished / 'result.json'}: missing (the task did not finish); left out" in (
        report.problems
    )
    assert any(p.startswith(f"{qa / 'result.json'}: torn") for p in report.problems)
    assert next(d for d in report.diagnostics if d.kind == "qa").scores["field"] == 100.0
    assert report.rows[0].overall.tasks == 4


def test_the_viewer_opens_a_task_runner_folder_with_its_steps() -> None:
    view = load_view(PRIM / "debug" / "debug_pong_paddle")
    assert view.run is not None and view.run.task_id == "debug_pong_paddle"
    assert view.run.eval is not None and view.run.eval.passed_tests == 1
    assert [s.record.action["api"] for s in view.steps] == ["scroll", "click", "done"]
    assert view.steps[0].screenshot is not None and view.steps[0].screenshot.is_file()
    assert view.steps[1].missing == ["screenshot step_2.png"] and "failed" in view.steps[1].flags
    assert view.steps[1].record.error == "element not found"
    assert view.steps[0].geometry().points == [(600.0, 400.0)]
    assert any("recording.webm: recording missing" in p for p in view.problems)
    torn = load_view(COMP / "compute" / "compute_average")
    assert torn.run is None and torn.steps == []
    assert any("result.json: torn" in p for p in torn.problems)


def test_cli_report_json_on_the_fixture() -> None:
    done = studio_here("report", str(FIXTURE), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {(r["agent"], r["mode"]) for r in data["rows"]} == {
        (AGENT, "composite"), (AGENT, "primitive"),
    }  # fmt: skip
    assert {d["kind"] for d in data["diagnostics"]} == {"drag", "qa"}


def test_the_viewer_opens_a_drag_run_as_one_step_on_its_before_screenshot() -> None:
    drag = FIXTURE / "result_single_step_drag_benchmark_gpt-4o"
    view = load_view(drag / "T1_002" / "2")
    assert view.run is not None and (view.run.task_id, view.run.agent) == ("T1_002", "gpt-4o")
    assert view.run.eval is not None and view.run.eval.success
    (only,) = view.steps
    assert only.screenshot == drag / "T1_002" / "2" / "1.png"
    assert only.geometry().points == [(102.0, 200.0), (500.0, 322.0)]
    assert view.final_png == drag / "T1_002" / "2" / "2.png"
    lost = load_view(drag / "T2_001" / "1")
    assert lost.steps[0].missing == ["screenshot 1.png"]
    assert lost.missing == ["final screenshot 2.png"]
