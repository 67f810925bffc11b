"""Checking .sb3 files before they reach the VM."""

from __future__ import annotations

import io
import zipfile

import pytest

from studio.services.errors import ProjectFileError
from studio.services.sb3 import check_sb3, read_project_json
from tests.helpers.tasks import cat_project


def test_valid_project_reads() -> None:
    project = check_sb3(cat_project(), "cat.sb3")
    assert [t["name"] for t in project["targets"]] == ["Stage", "Cat"]


def test_not_a_zip() -> None:
    with pytest.raises(
        ProjectFileError, match=r"broken\.sb3: not a Scratch 3 project: .*not a zip"
    ):
        read_project_json(b"this is text", "broken.sb3")


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_zip_without_project_json() -> None:
    with pytest.raises(ProjectFileError, match=r"project\.json is missing"):
        read_project_json(_zip({"x.txt": b"hi"}), "p.sb3")


def test_project_json_not_json() -> None:
    with pytest.raises(ProjectFileError, match="not valid JSON"):
        read_project_json(_zip({"project.json": b"{oops"}), "p.sb3")


def test_scratch2_style_json_rejected() -> None:
    with pytest.raises(ProjectFileError, match="no list of targets"):
        read_project_json(_zip({"project.json": b'{"objName": "Stage", "children": []}'}), "p.sb3")


def test_missing_asset_named() -> None:
    data = cat_project()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        files = {n: zf.read(n) for n in zf.namelist()}
    victim = next(n for n in files if n.endswith(".svg"))
    del files[victim]
    with pytest.raises(ProjectFileError, match=victim):
        check_sb3(_zip(files), "p.sb3")


def test_build_is_byte_identical_across_runs() -> None:
    assert cat_project() == cat_project()
