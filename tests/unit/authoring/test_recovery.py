"""Autosave drafts and detection of a session that did not exit cleanly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.services.authoring.errors import RecoveryError
from studio.services.authoring.recovery import LOCK_FILE, RecoveryStore


@pytest.fixture
def store(tmp_path: Path) -> RecoveryStore:
    return RecoveryStore(tmp_path / "recovery")


def dead_pid() -> int:
    """The pid of a process that has finished (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_save_and_list_drafts(store: RecoveryStore) -> None:
    store.save("t1", "evaluate.js", b"one")
    store.save("t1", "golden.sb3", b"two")
    draft = store.save("t2", "task.json", b"{}")
    assert draft.task_id == "t2" and draft.kind == "task.json" and draft.read() == b"{}"
    assert draft.saved_at.utcoffset() is not None
    found = {(d.task_id, d.kind) for d in store.drafts()}
    assert found == {("t1", "evaluate.js"), ("t1", "golden.sb3"), ("t2", "task.json")}
    store.save("t1", "evaluate.js", b"newer")
    assert store.read("t1", "evaluate.js") == b"newer"
    assert store.read("t1", "initial.sb3") is None


def test_no_drafts_without_a_folder(store: RecoveryStore) -> None:
    assert store.drafts() == []
    assert not store.crashed_session()


def test_half_written_files_are_not_drafts(store: RecoveryStore) -> None:
    store.save("t1", "evaluate.js", b"x")
    (store.drafts_dir / "t1" / ".evaluate.js.abc.tmp").write_bytes(b"partial")
    assert [d.kind for d in store.drafts()] == ["evaluate.js"]


def test_discard(store: RecoveryStore) -> None:
    store.save("t1", "evaluate.js", b"1")
    store.save("t1", "golden.sb3", b"2")
    store.save("t2", "task.json", b"3")
    store.discard("t1", "evaluate.js")
    assert {(d.task_id, d.kind) for d in store.drafts()} == {
        ("t1", "golden.sb3"),
        ("t2", "task.json"),
    }
    store.discard("t1", "golden.sb3")
    assert not (store.drafts_dir / "t1").exists()
    store.discard("t2")
    store.discard("t3")
    assert store.drafts() == []


def test_discard_all(store: RecoveryStore) -> None:
    store.save("t1", "evaluate.js", b"1")
    store.discard_all()
    assert store.drafts() == []


@pytest.mark.parametrize(
    ("task_id", "kind"), [("../x", "task.json"), ("t1", "a/b"), (".", "x"), ("t1", "")]
)
def test_unsafe_names_are_refused(store: RecoveryStore, task_id: str, kind: str) -> None:
    with pytest.raises(RecoveryError, match="not a valid"):
        store.save(task_id, kind, b"x")


def test_clean_exit_is_not_a_crash(store: RecoveryStore) -> None:
    store.mark_running()
    store.save("t1", "evaluate.js", b"x")
    assert json.loads(store.lock_path.read_text())["pid"] == os.getpid()
    assert not store.crashed_session()  # this very process is alive
    store.mark_clean_exit()
    assert not store.lock_path.exists()
    assert not store.crashed_session()


def test_a_dead_session_with_drafts_is_a_crash(store: RecoveryStore) -> None:
    store.save("t1", "evaluate.js", b"x")
    store.lock_path.write_text(json.dumps({"pid": dead_pid(), "started": "2025-01-01T00:00:00Z"}))
    assert store.crashed_session()
    store.discard("t1")
    assert not store.crashed_session()  # nothing to recover


def test_a_live_other_session_is_not_a_crash(store: RecoveryStore) -> None:
    store.save("t1", "evaluate.js", b"x")
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        store.lock_path.write_text(json.dumps({"pid": child.pid}))
        assert not store.crashed_session()
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
    assert store.crashed_session()


@pytest.mark.parametrize("content", ["garbage", "[]", '{"pid": "12"}', '{"pid": true}'])
def test_an_unreadable_lock_counts_as_a_crash(store: RecoveryStore, content: str) -> None:
    store.save("t1", "evaluate.js", b"x")
    (store.folder / LOCK_FILE).write_text(content)
    assert store.lock_pid() == 0
    assert store.crashed_session()
