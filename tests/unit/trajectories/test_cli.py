"""`studio trajectory show|export|compare` on synthetic runs (no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main

from .build import png, result, run_info, step, write_trajectory


def _run(tmp_path: Path, name: str = "a", **kw: object) -> Path:
    steps = [step(1, x=3, y=4), step(2, x=3, y=4), step(3, "type", text="hi"), step(4, "done")]
    run = run_info(eval=result("t1", {"moves": True}), **kw)
    return write_trajectory(tmp_path / name, steps, shots={1: png(1), 2: png(1)}, run=run)


def test_show_prints_the_timeline_with_flags_and_missing_marks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _run(tmp_path)
    with open(folder / "steps.jsonl", "a") as fh:
        fh.write('{"index": 5')
    assert main(["trajectory", "show", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "task t1  agent scripted  mode primitive  status done  steps 4  time 30.0 s" in out
    lines = out.splitlines()
    step1 = next(line for line in lines if line.strip().startswith("1  click (3, 4)"))
    assert "0.2s" in step1 and "no_op" in step1
    step2 = next(line for line in lines if line.strip().startswith("2  click"))
    assert "repeated" in step2 and "missing screenshot step_0003.png" not in step2
    assert 'type "hi"' in out and "missing screenshot step_0003.png" in out
    assert "missing: final screenshot final.png" in out
    assert "problem: " in out and "steps.jsonl: line 5 truncated" in out


def test_show_json_export_and_show_the_zip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _run(tmp_path)
    assert main(["trajectory", "show", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["flags"] for s in data["steps"]][:2] == [["no_op"], ["repeated"]]
    assert data["run"]["task_id"] == "t1"
    out_zip = tmp_path / "out.zip"
    assert main(["trajectory", "export", str(folder), "-o", str(out_zip)]) == 0
    out = capsys.readouterr().out
    assert "exported" in out and "note: task not included" in out
    dest = tmp_path / "opened"
    assert main(["trajectory", "show", str(out_zip), "--json", "--dest", str(dest)]) == 0
    opened = json.loads(capsys.readouterr().out)
    assert [s["action"] for s in opened["steps"]] == [s["action"] for s in data["steps"]]
    assert opened["folder"].startswith(str(dest))


def test_compare_two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _run(tmp_path, "a")
    b = write_trajectory(tmp_path / "b", [step(1, x=3, y=4)], run=run_info("t2"))
    assert main(["trajectory", "compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "warning: different tasks: t1" in out and "first difference at step 2" in out
    assert main(["trajectory", "compare", str(a), str(b), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["first_divergence"] == 2 and len(data["steps"]) == 4


def test_bad_input_exits_2_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["trajectory", "show", str(tmp_path / "nope")]) == 2
    assert "nope: does not exist" in capsys.readouterr().err
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"junk")
    assert main(["trajectory", "show", str(junk), "--dest", str(tmp_path / "d")]) == 2
    assert "junk.zip: not a zip archive" in capsys.readouterr().err
    assert main(["trajectory", "export", str(tmp_path / "nope"), "-o", str(junk)]) == 2
    assert "nope: is not a trajectory folder" in capsys.readouterr().err


def test_export_of_an_opened_archive_without_its_task_says_to_pass_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "secret"
    folder = _run(tmp_path, task_folder=str(secret))  # gone when exported: no task/ inside
    out_zip = tmp_path / "out.zip"
    assert main(["trajectory", "export", str(folder), "-o", str(out_zip)]) == 0
    capsys.readouterr()
    secret.mkdir()
    (secret / "id_rsa").write_text("PRIVATE KEY")
    dest = tmp_path / "opened"
    assert main(["trajectory", "show", str(out_zip), "--json", "--dest", str(dest)]) == 0
    opened = Path(json.loads(capsys.readouterr().out)["folder"])
    again = tmp_path / "again.zip"
    assert main(["trajectory", "export", str(opened), "-o", str(again)]) == 0
    out = capsys.readouterr().out
    assert "note: task not included: " in out and "pass --task DIR" in out
    assert "id_rsa" not in again.read_bytes().decode("latin-1")
    assert main(["trajectory", "export", str(opened), "-o", str(again), "--task", str(secret)]) == 0
    assert "task not included" not in capsys.readouterr().out
