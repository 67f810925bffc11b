"""export_archive / open_archive: one self-contained zip, safe and verified extraction."""

from __future__ import annotations

import hashlib
import json
import struct
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.models.errors import StudioError
from studio.models.trajectory import RunInfo
from studio.services.runs.trajectories import archive
from studio.services.runs.trajectories.archive import open_archive, read_manifest
from studio.services.runs.trajectories.export import export_archive
from studio.services.runs.trajectories.view import load_view

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
    out = export_archive(folder, tmp_path / "out" / "run.zip", task)
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
    stamp = (first / "archive.json").read_bytes()
    assert open_archive(out, tmp_path / "opened") == first
    assert (first / "archive.json").read_bytes() == stamp  # not extracted again
    assert len(list((tmp_path / "opened").iterdir())) == 1


@pytest.mark.parametrize("change", ["edited", "added", "removed", "run.json", "linked"])
def test_an_extraction_changed_since_is_extracted_again(tmp_path: Path, change: str) -> None:
    task = _task(tmp_path / "task")
    out = export_archive(_trajectory(tmp_path, task), tmp_path / "run.zip", task)
    first = open_archive(out, tmp_path / "opened")
    script = first / "task" / "evaluate.js"
    original = script.read_bytes()
    if change == "edited":
        script.write_text("module.exports = async () => ({success: true});")
    elif change == "added":
        (first / "task" / "helper.js").write_text("window.pass = true;")
    elif change == "removed":
        (first / "final.sb3").unlink()
    elif change == "run.json":
        run = json.loads((first / "run.json").read_text())
        (first / "run.json").write_text(json.dumps({**run, "task_folder": str(tmp_path)}))
    else:
        (tmp_path / "elsewhere.js").write_bytes(original)
        script.unlink()
        script.symlink_to(tmp_path / "elsewhere.js")
    again = open_archive(out, tmp_path / "opened")
    assert again == first and not script.is_symlink()
    assert script.read_bytes() == original and (first / "final.sb3").is_file()
    assert not (first / "task" / "helper.js").exists()
    run = json.loads((first / "run.json").read_text())
    assert run["task_folder"] == str((first / "task").resolve())


def test_a_task_folder_that_is_gone_is_noted_in_the_manifest(tmp_path: Path) -> None:
    folder = _trajectory(tmp_path, tmp_path / "gone")
    out = export_archive(folder, tmp_path / "run.zip", tmp_path / "gone")
    with zipfile.ZipFile(out) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    assert manifest["task"]["included"] is False and "not found" in manifest["task"]["note"]
    opened = open_archive(out, tmp_path / "opened")
    run = load_view(opened).run
    assert run is not None and run.task_folder is None  # a path from an archive is not followed
    info = json.loads((opened / "archive.json").read_text())
    assert info["original_task_folder"] == str(tmp_path / "gone")


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


# ---- limits --------------------------------------------------------------------------------
KB = 1024


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The sizes of all chunks read from zip members, wherever the code reads them."""
    sizes: list[int] = []
    original = zipfile.ZipExtFile.read

    def read(self: zipfile.ZipExtFile, n: int = -1) -> bytes:
        data = original(self, n)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(zipfile.ZipExtFile, "read", read)
    yield sizes


def _with_member(src: Path, dst: Path, name: str, data: bytes, declared: int | None = None) -> Path:
    """Copy an archive adding `name` (deflated, listed in the manifest with its true hash);
    with `declared`, its headers claim that uncompressed size instead of the true one."""
    with zipfile.ZipFile(src) as zin:
        manifest = json.loads(zin.read("manifest.json"))
        members = {n: zin.read(n) for n in zin.namelist() if n != "manifest.json"}
    entry = {"path": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    manifest["files"].append(entry)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for n, blob in members.items():
            zout.writestr(n, blob)
        zout.writestr(name, data)
        zout.writestr("manifest.json", json.dumps(manifest))
    if declared is not None:
        raw = bytearray(dst.read_bytes())
        encoded = name.encode()
        for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
            at = raw.find(signature)
            while raw[at + name_at : at + name_at + len(encoded)] != encoded:
                at = raw.find(signature, at + 1)
            struct.pack_into("<I", raw, at + size_at, declared)
        dst.write_bytes(bytes(raw))
    return dst


def test_the_limits_are_sensible() -> None:
    assert archive.MAX_MANIFEST >= 16 * KB * KB
    assert archive.MAX_ARCHIVE_MEMBER >= 300 * KB * KB  # an .sb3 at its own limit fits
    assert archive.MAX_ARCHIVE_MEMBER <= archive.MAX_ARCHIVE_TOTAL <= 4 * KB * KB * KB
    assert 10_000 <= archive.MAX_ARCHIVE_MEMBERS <= 100_000


def test_a_member_that_inflates_past_the_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]
) -> None:
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBER", 4 * KB)
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    bomb = _with_member(out, tmp_path / "bomb.zip", "big.bin", bytes(5 * KB))
    counted.clear()
    with pytest.raises(StudioError) as info:
        open_archive(bomb, tmp_path / "opened")
    message = str(info.value)
    assert message.startswith(f"{bomb}: member 'big.bin'") and f"more than {4 * KB}" in message
    assert sum(counted) == 0 and not (tmp_path / "opened").exists()
    with pytest.raises(StudioError, match=r"'big\.bin'"):
        read_manifest(bomb)


def test_the_archive_is_bounded_in_total_and_in_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    with zipfile.ZipFile(out) as zf:
        count, total = len(zf.infolist()), sum(i.file_size for i in zf.infolist())
    monkeypatch.setattr(archive, "MAX_ARCHIVE_TOTAL", total - 1)
    with pytest.raises(StudioError, match=rf"run\.zip: .* more than {total - 1} allowed"):
        open_archive(out, tmp_path / "opened")
    monkeypatch.setattr(archive, "MAX_ARCHIVE_TOTAL", total)
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBERS", count - 1)
    with pytest.raises(StudioError, match=rf"run\.zip: .*{count} members, more than {count - 1}"):
        open_archive(out, tmp_path / "opened")
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBERS", count)
    assert open_archive(out, tmp_path / "opened").is_dir()


def test_a_manifest_past_its_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive, "MAX_MANIFEST", 100)
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    with pytest.raises(StudioError, match=r"run\.zip: member 'manifest\.json' .*more than 100"):
        read_manifest(out)


def test_a_member_whose_header_understates_its_size_is_not_read_past_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]
) -> None:
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBER", 4 * KB)
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    liar = _with_member(out, tmp_path / "liar.zip", "big.bin", bytes(200 * KB), declared=100)
    counted.clear()
    opened = open_archive(liar, tmp_path / "opened")
    assert not (opened / "big.bin").exists()
    assert any("big.bin cannot be read" in p for p in load_view(opened).problems)
    assert sum(counted) < 4 * KB  # the whole archive's members, read within the limit


def test_the_chunked_read_stops_at_the_limit_whatever_the_header_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]
) -> None:
    out = export_archive(_trajectory(tmp_path, None), tmp_path / "run.zip")
    big = _with_member(out, tmp_path / "big.zip", "big.bin", bytes(1024 * KB))
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBER", 4 * KB)
    monkeypatch.setattr(archive, "_check_directory", lambda zf, zip_path: None)  # as if it lied
    counted.clear()
    with pytest.raises(StudioError, match=rf"big\.zip: member 'big\.bin' .*more than .*{4 * KB}"):
        open_archive(big, tmp_path / "opened")
    assert sum(counted) < 64 * KB  # not the whole MB
    assert not list((tmp_path / "opened").iterdir())


# ---- the extraction cache ------------------------------------------------------------------
def test_archives_that_differ_in_any_byte_never_share_an_extraction(tmp_path: Path) -> None:
    folder = _trajectory(tmp_path, None)
    genuine = export_archive(folder, tmp_path / "run.zip")
    tampered = _rewrite(genuine, tmp_path / "tampered.zip", {"step_0001.png": b"other"})
    with zipfile.ZipFile(genuine) as a, zipfile.ZipFile(tampered) as b:
        assert a.read("manifest.json") == b.read("manifest.json")
    first = open_archive(tampered, tmp_path / "opened")
    second = open_archive(genuine, tmp_path / "opened")
    assert first != second
    assert (first / "step_0001.png").read_bytes() == b"other"
    assert (second / "step_0001.png").read_bytes() == (folder / "step_0001.png").read_bytes()
    assert load_view(second).problems == []
    digest = hashlib.sha256(genuine.read_bytes()).hexdigest()
    assert json.loads((second / "archive.json").read_text())["archive_sha256"] == digest
    assert open_archive(genuine, tmp_path / "opened") == second


# ---- the task folder of an opened archive --------------------------------------------------
def test_exporting_an_opened_archive_never_packs_a_folder_its_run_json_names(
    tmp_path: Path,
) -> None:
    secret = tmp_path / "secret"
    folder = _trajectory(tmp_path, secret)  # not there when exported: no task/ in the archive
    out = export_archive(folder, tmp_path / "run.zip")
    secret.mkdir()
    (secret / "id_rsa").write_text("PRIVATE KEY")
    opened = open_archive(out, tmp_path / "opened")
    again = export_archive(opened, tmp_path / "again.zip")
    with zipfile.ZipFile(again) as zf:
        names = zf.namelist()
        manifest = json.loads(zf.read("manifest.json"))
    assert not [n for n in names if n.startswith("task/") or "id_rsa" in n]
    assert manifest["task"]["included"] is False and "--task" in manifest["task"]["note"]
    # nor when run.json of the extracted folder names it (as an older studio left it)
    run = json.loads((opened / "run.json").read_text())
    (opened / "run.json").write_text(json.dumps(run | {"task_folder": str(secret)}))
    with zipfile.ZipFile(export_archive(opened, tmp_path / "again2.zip")) as zf:
        assert not [n for n in zf.namelist() if n.startswith("task/")]
    # a task folder given explicitly is packed
    task = _task(tmp_path / "task")
    with zipfile.ZipFile(export_archive(opened, tmp_path / "given.zip", task)) as zf:
        assert "task/task.json" in zf.namelist()


def test_an_opened_archive_exports_again_with_its_own_task_folder(tmp_path: Path) -> None:
    task = _task(tmp_path / "task")
    out = export_archive(_trajectory(tmp_path, task), tmp_path / "run.zip", task)
    opened = open_archive(out, tmp_path / "opened")
    with zipfile.ZipFile(export_archive(opened, tmp_path / "again.zip")) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read("manifest.json"))
    assert {"task/task.json", "task/assets/cat.svg", "run.json"} <= names
    assert manifest["task"]["source"] == str(opened / "task")
    assert "archive.json" not in names


def test_export_refuses_what_open_would_refuse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _trajectory(tmp_path, None)
    (folder / "final.sb3").write_bytes(bytes(5 * KB))
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBER", 4 * KB)
    with pytest.raises(StudioError, match=rf"final\.sb3 is {5 * KB} bytes, more than {4 * KB}"):
        export_archive(folder, tmp_path / "run.zip")
    assert not (tmp_path / "run.zip").exists()


def test_a_received_run_folder_packs_only_what_it_holds(tmp_path: Path) -> None:
    secret = tmp_path / "home" / ".ssh"
    secret.mkdir(parents=True)
    (secret / "id_rsa").write_text("PRIVATE KEY")
    (secret / "task.json").write_text('{"id": "t1"}')
    folder = _trajectory(tmp_path, secret)  # a run folder as received: run.json names ~/.ssh
    (folder / "notes.txt").symlink_to(secret / "id_rsa")  # and a link out of it
    out = export_archive(folder, tmp_path / "run.zip")
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read("manifest.json"))
    assert not any(n.startswith("task/") for n in names) and "notes.txt" not in names
    assert b"PRIVATE KEY" not in out.read_bytes()
    assert manifest["task"]["included"] is False and "pass --task DIR" in manifest["task"]["note"]
    assert any("notes.txt: a symbolic link out of" in p for p in manifest["problems"])
    own = _task(folder / "task")  # what the run folder itself holds is packed
    with zipfile.ZipFile(export_archive(folder, tmp_path / "own.zip")) as zf:
        assert "task/evaluate.js" in zf.namelist()
    assert own.is_dir()


def test_the_window_passes_the_task_folder_only_of_runs_the_studio_recorded(
    tmp_path: Path,
) -> None:
    from studio.services.runs.trajectories.archive import recorded_task_folder

    task = _task(tmp_path / "task")
    stores = [tmp_path / "runs"]
    (tmp_path / "runs").mkdir()
    inside = write_trajectory(
        tmp_path / "runs" / "r1", [step(1)], run=run_info(task_folder=str(task))
    )
    received = write_trajectory(tmp_path / "r2", [step(1)], run=run_info(task_folder=str(task)))
    pointing_away = write_trajectory(
        tmp_path / "runs" / "r3", [step(1)], run=run_info(task_folder=str(tmp_path / "home"))
    )
    assert recorded_task_folder(inside, stores) == task
    assert recorded_task_folder(received, stores) is None
    assert recorded_task_folder(pointing_away, stores) is None  # not a task folder
