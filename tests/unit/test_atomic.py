"""Atomic writes: content, file mode, and clean-up of temporaries a killed save left behind."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.services.core import atomic


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_writes_bytes_text_and_json(tmp_path: Path) -> None:
    atomic.write_bytes(tmp_path / "sub" / "a.bin", b"\x00\x01")
    atomic.write_text(tmp_path / "b.txt", "é")
    atomic.write_json(tmp_path / "c.json", {"k": [1]})
    assert (tmp_path / "sub" / "a.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "b.txt").read_bytes() == "é".encode()
    assert (tmp_path / "c.json").read_text() == '{\n  "k": [\n    1\n  ]\n}\n'
    assert _leftovers(tmp_path) == [] and _leftovers(tmp_path / "sub") == []


def test_a_new_file_gets_the_mode_of_a_plain_open(tmp_path: Path, umask_022: None) -> None:
    atomic.write_bytes(tmp_path / "new.sb3", b"x")
    assert _mode(tmp_path / "new.sb3") == 0o644
    os.umask(0o077)
    atomic.write_bytes(tmp_path / "private.sb3", b"x")
    assert _mode(tmp_path / "private.sb3") == 0o600


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o664])
def test_rewriting_keeps_the_mode_of_the_target(tmp_path: Path, umask_022: None, mode: int) -> None:
    target = tmp_path / "task.json"
    target.write_text("{}")
    target.chmod(mode)
    atomic.write_text(target, '{"a": 1}')
    assert target.read_text() == '{"a": 1}' and _mode(target) == mode


def test_stale_temporaries_of_the_file_are_removed_on_its_next_write(tmp_path: Path) -> None:
    old = time.time() - 3600  # an hour ago
    stale = tmp_path / ".golden.sb3.0123abcd.tmp"  # what a save killed before its rename leaves
    stale_legacy = tmp_path / ".golden.sb3.k3j_9xq2.tmp"  # named by the former mkstemp
    fresh = tmp_path / ".golden.sb3.fedc4321.tmp"  # a concurrent writer's live temporary
    other = tmp_path / ".initial.sb3.0123abcd.tmp"  # belongs to another file
    unrelated = tmp_path / ".golden.sb3.notes.txt"
    for path in (stale, stale_legacy, fresh, other, unrelated):
        path.write_bytes(b"partial")
    for path in (stale, stale_legacy, other, unrelated):
        os.utime(path, (old, old))
    atomic.write_bytes(tmp_path / "golden.sb3", b"PK")
    assert not stale.exists() and not stale_legacy.exists()
    assert fresh.exists() and other.exists() and unrelated.exists()
    assert (tmp_path / "golden.sb3").read_bytes() == b"PK"


def test_a_failed_write_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(src: object, dst: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(atomic.os, "replace", fail)
    with pytest.raises(OSError, match="disk gone"):
        atomic.write_bytes(tmp_path / "out" / "a.bin", b"x")
    assert list((tmp_path / "out").iterdir()) == []
