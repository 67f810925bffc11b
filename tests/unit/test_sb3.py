"""Checking .sb3 files before they reach the VM."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import build_sb3, check_sb3, read_project_json
from tests.helpers.tasks import cat_project

BASE_PROJECT = {"targets": [{"isStage": True, "name": "Stage", "blocks": {}}], "meta": {}}


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


def test_an_extension_scratch_does_not_have_is_named() -> None:
    project = json.loads(json.dumps(BASE_PROJECT))
    project["extensions"] = ["pen"]
    project["targets"][0]["blocks"] = {
        "a": {"opcode": "pen_clear", "topLevel": True},
        "b": {"opcode": "foo_bar", "topLevel": True},
    }
    data = build_sb3(project, {})
    with pytest.raises(ProjectFileError) as info:
        check_sb3(data, "odd.sb3")
    assert "'foo', which is not built into Scratch 3" in info.value.problem
    assert str(info.value.path) == "odd.sb3"


def test_malformed_blocks_are_left_for_the_vm_to_name() -> None:
    from tests.helpers.sample_task import vm_refused_sb3

    project = check_sb3(vm_refused_sb3(), "odd.sb3")
    assert project["targets"][1]["blocks"] == 5


def test_project_json_of_any_declared_size_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.services.core import sb3

    monkeypatch.setattr(sb3, "MAX_PROJECT_JSON", 100)
    data = build_sb3(BASE_PROJECT | {"meta": {"pad": "x" * 200}}, {})
    with pytest.raises(ProjectFileError) as info:
        check_sb3(data, "big.sb3")
    assert "more than 100 allowed" in info.value.problem
