""".sb3 files are read within limits: per member, in total, in count; checked and enforced."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from studio.services.checking.mutation import mutant_sb3
from studio.services.core import sb3
from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import build_sb3, check_sb3, read_project_json

PROJECT = {"targets": [{"isStage": True, "name": "Stage", "blocks": {}}], "meta": {}}
KB = 1024


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _project_json(pad: int = 0) -> bytes:
    return json.dumps(PROJECT | {"meta": {"pad": " " * pad}}).encode()


def _lying(data: bytes, member: str, declared: int) -> bytes:
    """The zip with `member`'s uncompressed size patched to `declared` in both of its headers."""
    raw = bytearray(data)
    name = member.encode()
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        at = raw.find(signature)
        while raw[at + name_at : at + name_at + len(name)] != name:
            at = raw.find(signature, at + 1)
        struct.pack_into("<I", raw, at + size_at, declared)
    return bytes(raw)


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


def test_the_limits_are_sensible() -> None:
    assert sb3.MAX_PROJECT_JSON == 64 * 1024 * KB
    assert sb3.MAX_ASSET == 50 * 1024 * KB
    assert sb3.MAX_SB3_TOTAL == 300 * 1024 * KB
    assert 1000 <= sb3.MAX_SB3_MEMBERS <= 100_000


def test_an_asset_that_inflates_past_its_limit_is_refused_unread(
    monkeypatch: pytest.MonkeyPatch, counted: list[int]
) -> None:
    monkeypatch.setattr(sb3, "MAX_ASSET", 4 * KB)
    data = _zip({"project.json": _project_json(), "big.wav": bytes(5 * KB)})
    assert len(data) < 1 * KB  # small on disk, more than the limit once inflated
    with pytest.raises(ProjectFileError) as info:
        check_sb3(data, "bomb.sb3")
    problem = str(info.value)
    assert problem.startswith("bomb.sb3: ") and "'big.wav'" in problem
    assert f"more than {4 * KB} allowed" in problem
    assert sum(counted) == 0  # refused on the declared size, before reading anything
    with pytest.raises(ProjectFileError, match=r"'big\.wav'"):
        read_project_json(data, "bomb.sb3")


def test_project_json_over_its_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sb3, "MAX_PROJECT_JSON", 4 * KB)
    with pytest.raises(ProjectFileError, match=rf"'project\.json'.*more than {4 * KB} allowed"):
        read_project_json(_zip({"project.json": _project_json(5 * KB)}), "p.sb3")


def test_the_whole_project_is_bounded_uncompressed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sb3, "MAX_ASSET", 4 * KB)
    monkeypatch.setattr(sb3, "MAX_SB3_TOTAL", 10 * KB)
    assets = {f"a{i}.wav": bytes(3 * KB + i) for i in range(4)}
    with pytest.raises(ProjectFileError) as info:
        check_sb3(_zip({"project.json": _project_json(), **assets}), "many.sb3")
    problem = str(info.value)
    assert problem.startswith("many.sb3: ") and "'a3.wav'" in problem
    assert f"more than {10 * KB} allowed" in problem


def test_the_number_of_members_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sb3, "MAX_SB3_MEMBERS", 3)
    files = {"project.json": _project_json(), **{f"a{i}.svg": b"<svg/>" for i in range(3)}}
    with pytest.raises(ProjectFileError, match=r"many\.sb3: .*4 members, more than 3 allowed"):
        read_project_json(_zip(files), "many.sb3")


def test_a_member_whose_header_understates_its_size_is_not_read_past_it(
    counted: list[int],
) -> None:
    data = _lying(_zip({"project.json": _project_json(200 * KB)}), "project.json", 100)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.getinfo("project.json").file_size == 100
    with pytest.raises(ProjectFileError) as info:
        read_project_json(data, "liar.sb3")
    problem = str(info.value)
    assert problem.startswith("liar.sb3: member 'project.json' cannot be read")
    assert sum(counted) <= 100


def test_the_chunked_read_stops_at_the_limit_whatever_the_header_says(
    counted: list[int],
) -> None:
    data = _zip({"big.wav": bytes(1024 * KB)})
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo("big.wav")
        assert sb3.read_capped(zf, info, 4 * KB) is None  # more than 4 KB in it
        assert sum(counted) <= 4 * KB + 1
        assert sb3.read_capped(zf, info, 1024 * KB) == bytes(1024 * KB)
        with pytest.raises(ProjectFileError, match=rf"x\.sb3: member 'big\.wav' .*{2 * KB}"):
            sb3.read_member(zf, info, "x.sb3", 2 * KB)


def test_mutants_are_not_built_from_an_oversized_golden(
    monkeypatch: pytest.MonkeyPatch, counted: list[int]
) -> None:
    golden = build_sb3(PROJECT, {"big.wav": bytes(8 * KB)})
    project: dict[str, Any] = json.loads(json.dumps(PROJECT))
    assert read_project_json(mutant_sb3(golden, project), "m.sb3") == project
    counted.clear()
    monkeypatch.setattr(sb3, "MAX_ASSET", 4 * KB)
    with pytest.raises(ProjectFileError, match=rf"'big\.wav'.*more than {4 * KB} allowed"):
        mutant_sb3(golden, project)
    assert sum(counted) == 0
