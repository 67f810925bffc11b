"""Folders carried between driver and workers: round trip, untrusted paths, run.json."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core.store import load_task
from studio.services.distributed import files
from studio.services.distributed.episodes import write_trajectory
from tests.helpers.tasks import make_task


def test_a_folder_round_trips(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.json").write_text("{}")
    (src / "sub" / "b.png").write_bytes(b"\x89PNG")
    packed = files.pack(src)
    assert packed == {"a.json": b"{}", "sub/b.png": b"\x89PNG"}
    files.unpack(packed, tmp_path / "dst")
    assert files.pack(tmp_path / "dst") == packed


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a/../../x", "a//b", "a\\b", "", "./a"])
def test_paths_that_leave_the_folder_are_refused_and_nothing_is_written(
    tmp_path: Path, bad: str
) -> None:
    with pytest.raises(StudioError, match="refused a file path"):
        files.unpack({"ok.txt": b"1", bad: b"2"}, tmp_path / "dst")
    assert not (tmp_path / "dst").exists()


def test_symlinks_and_oversized_folders_are_not_sent(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "big").write_bytes(b"x" * 100)
    with pytest.raises(StudioError, match="more than"):
        files.pack(src, limit=50)
    os.symlink("/etc/hostname", src / "link")
    with pytest.raises(StudioError, match="symbolic link"):
        files.pack(src)


def test_a_trajectory_from_a_worker_names_this_machines_task_folder(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "lib" / "t", task_id="create_t"))
    run = RunInfo(
        episode_id="e1",
        task_id="create_t",
        task_folder="/tmp/studio-episode-x/task/t",
        mode=Mode.COMPOSITE,
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    sent = {RUN_FILE: run.model_dump_json(indent=2).encode(), "steps.jsonl": b"{}\n"}
    write_trajectory(sent, tmp_path / "out", task)
    back = RunInfo.model_validate_json((tmp_path / "out" / RUN_FILE).read_text())
    assert back.task_folder == str(task.folder) and back.episode_id == "e1"
    assert (tmp_path / "out" / "steps.jsonl").read_bytes() == b"{}\n"


def test_a_broken_run_header_is_named(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "lib" / "t", task_id="create_t"))
    with pytest.raises(StudioError, match=r"run\.json: not a run header"):
        write_trajectory({RUN_FILE: b"{nope"}, tmp_path / "out", task)
