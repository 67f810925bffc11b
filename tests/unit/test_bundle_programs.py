"""The bundle shows each episode's final program as block pictures (the real scratchblocks
renderer), its text a click away; a final project that cannot be read is named, not drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from studio.services.core.blocktext.writing import render_script, top_ids
from studio.services.core.sb3 import load_sb3
from studio.services.runs.bundle import write_bundle
from tests.unit.test_bundle import read_data
from tests.unit.trajectories.build import result, run_info, step, write_trajectory

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tasks" / "debug_game_over" / "golden.sb3"


def test_final_programs_are_drawn_per_target_with_their_text(tmp_path: Path) -> None:
    runs = tmp_path / "runs" / "oracle-primitive-1"
    for task, final in (("debug_a", GOLDEN.read_bytes()), ("debug_b", b"not a zip")):
        run = run_info(task, agent="oracle", eval=result(task, {"t1": True}), episode_id=task)
        write_trajectory(runs / task, [step(1, "done")], run=run, final_sb3=final)
    write_bundle(tmp_path / "runs", tmp_path / "site")
    good, bad = read_data(tmp_path / "site")["episodes"]
    _data, project = load_sb3(GOLDEN)
    assert [t["target"] for t in good["program"]] == ["Stage", "Bug", "Banner"]
    for shown, target in zip(good["program"], project["targets"], strict=True):
        blocks = target["blocks"]
        texts = [render_script(blocks, top) for top in top_ids(blocks)]
        assert [s["text"] for s in shown["scripts"]] == texts
        for script in shown["scripts"]:
            svg = ET.parse(tmp_path / "site" / script["img"]).getroot()
            assert svg.tag == "{http://www.w3.org/2000/svg}svg"
            assert float(svg.get("width", "0")) == script["w"] > 0
    assert not any("final program" in p for p in good["problems"])
    assert bad["program"] == []
    assert any(p.startswith("final program not shown:") for p in bad["problems"])
