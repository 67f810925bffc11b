"""`studio study new|show|export` and `studio report` on a study whose runs a desk recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.services.core import paths
from studio.services.studies.plan import load_study
from tests.unit.studies.test_desk import _clicks, _desk, _end, _project, _skip_practice

IDS = ["create_cat_walk", "debug_score_reset"]


def test_new_show_report_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "study"
    args = ["study", "new", str(paths.BUNDLED_TASKS), "--participants", "2", "--seed", "3"]
    args += [a for t in IDS for a in ("--task", t)] + ["--break", "0", "--out", str(study)]
    assert main(args) == 0
    plan = load_study(study)
    assert plan.break_s == 0 and len(plan.participants) == 2
    desk = _desk((study, plan))
    desk.claim("tab-aaaaaaaa")
    desk.consent()
    _skip_practice((study, plan), desk)
    first = plan.participants[0].queue[0]
    desk.start()
    desk.events(_clicks(4))
    _end(desk, "done", _project((study, plan), first))
    desk.start()
    _end(desk, "give up", _project((study, plan), "debug_score_reset"))
    capsys.readouterr()

    assert main(["study", "show", str(study)]) == 0
    shown = capsys.readouterr().out
    assert "1 finished, 1 gave up" in shown and "2 waiting" in shown
    assert main(["study", "show", str(study), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all("token" not in p for p in data["plan"]["participants"])
    assert data["totals"]["finished"] == 1
    assert data["results"]["participants"][0]["ended"] == 2

    html = tmp_path / "report.html"
    assert main(["report", str(study), "--html", str(html)]) == 0
    text = capsys.readouterr().out
    assert "Human baseline study" in text and "per participant" in text
    assert "human-practice" in text  # the practice is a row of its own, not the study's
    assert "Per participant" in html.read_text()

    out = tmp_path / "export"
    assert main(["study", "export", str(study), "--out", str(out)]) == 0
    exported = sorted(out.glob("runs/*/*/run.json"))
    assert len(exported) == 2 and not (out / "practice").exists()
    everything = "".join(p.read_text() for p in out.rglob("*.json"))
    assert all(p.token not in everything for p in plan.participants)
    assert str(paths.BUNDLED_TASKS) not in everything
    assert main(["study", "export", str(study), "--out", str(out)]) == 2  # not over a folder
