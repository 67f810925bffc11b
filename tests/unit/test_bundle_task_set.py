"""The bundle's "Task set" section (issue 42, point 3): the statistics of the tasks the runs
played, found through the task folders their episodes recorded, as a table and bar charts in
SVG; tasks whose folder is gone are named, not counted. Browser-free: the data in data.js."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from studio.services.authoring.set_charts import chart_svg, stats_charts, stats_table
from studio.services.authoring.set_stats import set_stats
from studio.services.core.store import scan_library
from studio.services.runs.bundle import write_bundle
from tests.helpers.sample_task import project_json, sb3_bytes
from tests.helpers.tasks import cat_project, make_task
from tests.unit.test_bundle import read_data
from tests.unit.trajectories.build import result, run_info, step, write_trajectory

SVG = "{http://www.w3.org/2000/svg}"


def _library(root: Path) -> dict[str, Path]:
    a = make_task(root / "a", task_id="create_a", metadata={"difficulty": "easy"})
    (a / "initial.sb3").write_bytes(sb3_bytes(project_json({})))  # 3 blocks added
    b = make_task(root / "b", task_id="debug_b", category="debug")  # one number changed
    c = make_task(root / "c", task_id="compute_c", category="compute",
                  metadata={"difficulty": "hard"})  # fmt: skip
    (c / "initial.sb3").write_bytes(sb3_bytes(project_json({})))
    (c / "golden.sb3").write_bytes(cat_project(5))
    return {"create_a": a, "debug_b": b, "compute_c": c}


def _runs(root: Path, folders: dict[str, Path | None]) -> Path:
    for task, folder in folders.items():
        run = run_info(task, agent="oracle", eval=result(task, {"t1": True}),
                       episode_id=f"oracle-{task}",
                       task_folder=str(folder) if folder else None)  # fmt: skip
        write_trajectory(root / "oracle-primitive-1" / task, [step(1, "done")], run=run)
    return root


def _bars(svg: str) -> dict[str, tuple[float, str]]:
    """label -> (bar width, value text), read back from the SVG."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        label, value = (t.text or "" for t in g.iter(f"{SVG}text"))
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        out[label] = (float(rect.get("width", "0")), value)
    return out


def test_the_bundle_carries_the_figures_of_the_tasks_its_runs_played(tmp_path: Path) -> None:
    tasks = _library(tmp_path / "lib")
    gone = make_task(tmp_path / "gone", task_id="extend_gone", category="extend")
    runs = _runs(tmp_path / "runs", {**tasks, "extend_gone": gone})
    for path in gone.iterdir():
        path.unlink()
    gone.rmdir()  # the library moved since: the task is named, not counted

    site = tmp_path / "site"
    write_bundle(runs, site)
    data = read_data(site)["task_set"]

    assert data["tasks"] == 3 and data["missing"] == ["extend_gone"]
    assert data["stats"] == set_stats(scan_library(tmp_path / "lib").tasks) | {
        "per_task": data["stats"]["per_task"]
    }
    rows = {row[0]: row for row in data["table"]["rows"]}
    assert list(rows) == ["create", "debug", "compute", "all"]
    assert rows["create"][1:4] == ["1", "3.00", "3"]  # tasks, modified mean, modified max
    assert rows["debug"][1:4] == ["1", "1.00", "1"]
    assert rows["all"][1] == "3"
    charts = {c["id"]: c for c in data["charts"]}
    assert list(charts) == ["tasks", "difficulty", "modified", "block_categories", "review"]
    assert _bars(charts["tasks"]["svg"]) == {
        "create": (260.0, "1"), "debug": (260.0, "1"), "compute": (260.0, "1"),
    }  # fmt: skip
    difficulty = _bars(charts["difficulty"]["svg"])
    assert {k: v[1] for k, v in difficulty.items()} == {"easy": "1", "hard": "1", "unset": "1"}
    modified = _bars(charts["modified"]["svg"])
    assert modified["create"] == (260.0, "3.00 (max 3)")
    assert modified["debug"] == (round(260 / 3, 1), "1.00 (max 1)")
    assert set(_bars(charts["block_categories"]["svg"])) == {"Events", "Motion"}


def test_no_section_when_no_task_folder_was_recorded(tmp_path: Path) -> None:
    runs = _runs(tmp_path / "runs", {"create_a": None})
    write_bundle(runs, tmp_path / "site")
    assert read_data(tmp_path / "site")["task_set"] is None


def test_chart_text_is_escaped_and_an_empty_chart_left_out(tmp_path: Path) -> None:
    make_task(tmp_path / "lib" / "a", task_id="create_a", metadata={"difficulty": "<b>&x"})
    stats = set_stats(scan_library(tmp_path / "lib").tasks)
    charts = {c["id"]: c for c in stats_charts(stats)}
    assert "<b>&x" in _bars(chart_svg(charts["difficulty"]))  # parsed back: well-formed
    stats["overall"]["review_states"] = {}
    assert "review" not in {c["id"] for c in stats_charts(stats)}
    table = stats_table(stats)
    assert len(table["head"]) == len(table["rows"][0]) and table["rows"][-1][0] == "all"
