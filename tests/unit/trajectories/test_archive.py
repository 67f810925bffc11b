"""export_archive / open_archive: one self-contained zip, safe and verified extraction."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from studio.models.trajectory import RunInfo
from studio.services.errors import StudioError
from studio.services.trajectories.archive import export_archive, open_archive
from studio.services.trajectories.view import load_view

from .build import png, result, run_info, step, write_trajectory


def _task(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "task.json").write_text('{"id": "t1"}')
    (folder / "initial.sb3").write_bytes(b"PK-initial")
    (folder / "evaluate.js").write_text("module.exports = async () => ({});")
    (folder / "assets").mkdir()
    (folder / "assets" / "cat.svg").write_text("<svg/>")
    (folder / ".hidden").write_text("x")
    return folder


def _trajectory(tmp_path: Path, task: Path | None) -> Path:
    run = run_info(task_folder=str(task) if task else None, eval=result("t1", {"a": True}))
    steps = [step(1), step(2, "type", text="hi"), step(3, "done")]
    return write_trajectory(tmp_path / "run", steps, run=run, final_png=png(7))


def test_export_then_open_gives_identical_steps_and_the_task(tmp_path: Path) -> None:
    task = _task(tmp_path / "task")
    folder = _trajectory(tmp_path, task)
    out = export_archive(folder, tmp_path / "out" / "run.zip")
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read("manifest.json"))
    assert "task/assets/cat.svg" in names and "task/.hidden" not in names
    assert {"run.json", "steps.jsonl", "step_0001.png", "final.png", "final.sb3"} <= names
    assert manifest["format"] == "scratch-bench-trajectory" and manifest["version"] == 1
    assert manifest["run"]["task_id"] == "t1" and manifest["run"]["success"] is True
    assert manifest["task"]["included"] is True
    assert {f["path"] for f in manifest["files"]} == names - {"manifest.json"}
    assert not list((tmp_path / "out").glob(".*.tmp"))

    opened = open_archive(out, tmp_path / "opened")
    original, copy = load_view(folder), load_view(opened)
    assert [s.record for s in copy.steps] == [s.record for s in original.steps]
    assert copy.problems == [] and copy.final_png is not None
    assert (opened / "step_0002.png").read_bytes() == (folder / "step_0002.png").read_bytes()
    run = RunInfo.model_validate_json((opened / "run.json").read_text())
    assert run.task_folder == str((opened / "task").resolve())
    assert (opened / "task" / "evaluate.js").is_file()
    info = json.loads((opened / "archive.json").read_text())
    assert info["original_task_folder"] == str(task)


def test_opening_twice_reuses_the_extracted_folder(tmp_path: Path) -> None:
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    first = open_archive(out, tmp_path / "opened")
    (first / "marker").write_text("still here")
    assert open_archive(out, tmp_path / "opened") == first
    assert (first / "marker").is_file()
    assert len(list((tmp_path / "opened").iterdir())) == 1


def test_a_task_folder_that_is_gone_is_noted_in_the_manifest(tmp_path: Path) -> None:
    folder = _trajectory(tmp_path, tmp_path / "gone")
    out = export_archive(folder, tmp_path / "run.zip")
    with zipfile.ZipFile(out) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    assert manifest["task"]["included"] is False and "not found" in manifest["task"]["note"]
    opened = open_archive(out, tmp_path / "opened")
    run = load_view(opened).run
    assert run is not None and run.task_folder == str(tmp_path / "gone")


def test_an_explicit_task_folder_wins(tmp_path: Path) -> None:
    task = _task(tmp_path / "elsewhere")
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip", task)
    with zipfile.ZipFile(out) as zf:
        assert "task/task.json" in zf.namelist()


def _rewrite(src: Path, dst: Path, change: dict[str, bytes | None]) -> Path:
    """Copy a zip, replacing (bytes) or dropping (None) members, adding new ones."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for name in zin.namelist():
            if name not in change:
                zout.writestr(name, zin.read(name))
        for name, data in change.items():
            if data is not None:
                zout.writestr(name, data)
    return dst


def test_content_that_does_not_match_the_manifest_is_a_problem_not_an_error(
    tmp_path: Path,
) -> None:
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    bad = _rewrite(
        out,
        tmp_path / "bad.zip",
        {"step_0001.png": b"other", "final.png": None, "extra.txt": b"x"},
    )
    view = load_view(open_archive(bad, tmp_path / "opened"))
    assert len(view.steps) == 3
    text = "\n".join(view.problems)
    assert "step_0001.png does not match its sha256" in text
    assert "final.png is listed in manifest.json but missing" in text
    assert "extra.txt is not listed" in text
    assert view.final_png is None and "final screenshot final.png" in view.missing


def test_a_damaged_member_is_a_problem_and_the_rest_opens(tmp_path: Path) -> None:
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    stored = _rewrite(out, tmp_path / "stored.zip", {})  # members stored uncompressed
    raw = bytearray(stored.read_bytes())
    at = raw.index(png(1)) + 20  # inside step_0001.png's data
    raw[at] ^= 0xFF
    stored.write_bytes(bytes(raw))
    view = load_view(open_archive(stored, tmp_path / "opened"))
    assert [s.index for s in view.steps] == [1, 2, 3]
    assert view.steps[0].missing == ["screenshot step_0001.png"]
    assert any("step_0001.png cannot be read" in p for p in view.problems)


@pytest.mark.parametrize("member", ["../evil.txt", "/etc/evil", "a/../../evil", "C:/evil"])
def test_unsafe_member_paths_are_refused(tmp_path: Path, member: str) -> None:
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    bad = _rewrite(out, tmp_path / "bad.zip", {member: b"x"})
    with pytest.raises(StudioError, match=r"bad\.zip: member .* unsafe path"):
        open_archive(bad, tmp_path / "opened" / "deep")
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "opened").exists()


def test_not_a_zip_and_no_manifest_are_refused_naming_the_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(StudioError, match=r"junk\.zip: not a zip archive"):
        open_archive(junk, tmp_path / "opened")
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    bare = _rewrite(out, tmp_path / "bare.zip", {"manifest.json": None})
    with pytest.raises(StudioError, match=r"bare\.zip: no manifest\.json"):
        open_archive(bare, tmp_path / "opened")
    wrong = _rewrite(out, tmp_path / "wrong.zip", {"manifest.json": b'{"format": "x"}'})
    with pytest.raises(StudioError, match=r"wrong\.zip: manifest\.json: format"):
        open_archive(wrong, tmp_path / "opened")
    with pytest.raises(StudioError, match="does not exist"):
        open_archive(tmp_path / "missing.zip", tmp_path / "opened")
