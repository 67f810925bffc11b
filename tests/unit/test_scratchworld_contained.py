"""Export and import stay inside their folders: names read from files are plain names, links
out of a checkout are refused, a crafted style cannot make a file that is not JSON, and one bad
task never stops the others."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.services.core.errors import TaskFileError
from studio.services.core.store import load_task
from studio.services.diagnostics.drag.item import load_item
from studio.services.diagnostics.qa.item import read_item
from studio.services.formats.scratchworld.checkout import export_checkout, import_checkout
from studio.services.formats.scratchworld.tasks import import_scratchworld
from studio.services.formats.scratchworld.tasks.layout import JsonStyle
from tests.helpers.scratchworld_fixture import SPECS, build_set
from tests.helpers.tasks import cat_project
from tests.unit.test_scratchworld_checkout import DRAG, build_checkout

EVIL = ["../../evil.json", "/tmp/studio-evil/evil.json", "..", "a/../../evil.json"]


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _files(tmp_path: Path) -> set[Path]:
    return {p for p in tmp_path.rglob("*") if p.is_file()}


def _outside(tmp_path: Path, out: Path, before: set[Path] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Files written below tmp_path but outside `out`, the library and the checkout, and not
    there `before`."""
    kept = ("sw", "lib", out.name)
    return [
        p.relative_to(tmp_path).as_posix()
        for p in _files(tmp_path) - before
        if p.relative_to(tmp_path).parts[0] not in kept
    ]


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    report = import_checkout(build_checkout(tmp_path / "sw"), tmp_path / "lib")
    assert report.ok, report.skipped
    return tmp_path / "lib"


def _sw_meta(lib: Path, task: str) -> Path:
    return lib / task / "task.json"


# ---- export: names from task and item files ---------------------------------------------------


@pytest.mark.parametrize("name", EVIL)
def test_export_writes_a_task_file_only_inside_dest(lib: Path, tmp_path: Path, name: str) -> None:
    def change(data: dict[str, Any]) -> None:
        data["metadata"]["scratchworld"]["file"] = name
        shapes = data["metadata"]["scratchworld"]["task_list_shapes"]
        shapes[name] = next(iter(shapes.values()))

    _edit(_sw_meta(lib, "compute_sum_list"), change)
    report = export_checkout(lib, tmp_path / "out")
    assert _outside(tmp_path, tmp_path / "out") == []
    assert "compute_sum_list" in report.exported
    assert (tmp_path / "out/tasks/compute/compute_sum_list.json").is_file()
    assert any("metadata.scratchworld.file" in w for w in report.warnings)
    assert any("is not a plain .json file name; not written" in w for w in report.warnings)


@pytest.mark.parametrize("field", ["initial_project", "golden_project"])
def test_a_task_naming_a_project_outside_its_folder_is_refused(
    lib: Path, tmp_path: Path, field: str
) -> None:
    (tmp_path / "secret.sb3").write_bytes(cat_project(12345))
    _edit(_sw_meta(lib, "compute_sum_list"), lambda d: d.update({field: "../../secret.sb3"}))
    with pytest.raises(TaskFileError, match=r"inside the task folder|plain file name") as err:
        load_task(lib / "compute_sum_list")
    assert err.value.field == field
    report = export_checkout(lib, tmp_path / "out")
    assert "compute_sum_list" not in report.exported and not report.ok
    assert cat_project(12345) not in [p.read_bytes() for p in (tmp_path / "out").rglob("*.sb3")]


def test_export_keeps_drag_and_qa_files_inside_dest(lib: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 30)
    before = _files(tmp_path)
    drag = lib / "diagnostics/drag/T1_001/item.json"
    _edit(drag, lambda d: d["sw_source"].update(file="../../../evil.json"))
    with pytest.raises(TaskFileError, match=r"sw_source\.file"):
        load_item(drag)
    studio_made = lib / "diagnostics/drag/T1_002/item.json"
    _edit(studio_made, lambda d: d.update(sw_source=None, screenshot="../../../../secret.png"))
    qa = next((lib / "diagnostics/qa/items").glob("*.json"))
    _edit(qa, lambda d: d.update(screenshot="../../../secret.png"))
    with pytest.raises(TaskFileError, match="screenshot"):
        read_item(qa)
    report = export_checkout(lib, tmp_path / "out")
    assert _outside(tmp_path, tmp_path / "out", before) == []
    skipped = {p.file.parent.name for p in report.skipped} | {p.file.name for p in report.skipped}
    assert {"T1_001", "T1_002", qa.name} <= skipped
    assert len(report.drag_items) == 2 and len(report.qa_items) == 3


def test_a_studio_key_of_an_imported_drag_record_sets_no_file_names(tmp_path: Path) -> None:
    root = build_checkout(tmp_path / "sw")
    folder = root / "single_step_drag_benchmark/tasks"
    source = {"file": "../../../evil.json", "record": {"id": "T9_source"}}
    for item_id, studio in (
        ("T9_source", {"sw_source": source}),
        ("T9_shot", {"screenshot": "../../../../secret.png"}),
    ):
        record = {**DRAG[0][1], "id": item_id, "studio": studio}
        (folder / f"{item_id}.json").write_text(json.dumps(record))
    report = import_checkout(root, tmp_path / "lib")
    assert "T9_source" in report.drag_items
    assert load_item(tmp_path / "lib/diagnostics/drag/T9_source").item.sw_source is None
    [problem] = report.skipped
    assert (problem.file.name, problem.field) == ("T9_shot.json", "screenshot")
    assert "is a path, not a plain file name" in problem.problem
    before = _files(tmp_path)
    out = export_checkout(tmp_path / "lib", tmp_path / "out")
    assert out.ok and _outside(tmp_path, tmp_path / "out", before) == []
    assert (tmp_path / "out/single_step_drag_benchmark/tasks/T9_source.json").is_file()


# ---- export: a crafted style is still JSON -----------------------------------------------------

SHELL = "\n:; echo pwned > /tmp/studio-pwned; exit\n"


@pytest.mark.parametrize("indent", [SHELL, 10**6, -1, " x"])
def test_a_crafted_indent_is_refused(indent: Any) -> None:
    with pytest.raises(ValueError, match="indent must be"):
        JsonStyle(indent=indent)


def test_every_file_export_writes_is_json_whatever_style_a_file_holds(
    lib: Path, tmp_path: Path
) -> None:
    task = _sw_meta(lib, "compute_sum_list")
    _edit(task, lambda d: d["metadata"]["scratchworld"]["style"].update(indent=SHELL))
    drag = lib / "diagnostics/drag/T1_001/item.json"
    _edit(drag, lambda d: d["sw_source"].update(text=SHELL + "{}", style={"indent": SHELL}))
    qa = next((lib / "diagnostics/qa/items").glob("*.json"))
    _edit(qa, lambda d: d["sw_source"].update(text="#!/bin/sh\necho pwned\n"))
    report = export_checkout(lib, tmp_path / "out")
    for path in (tmp_path / "out").rglob("*.json"):
        text = path.read_text()
        json.loads(text)
        assert "pwned" not in text, path
    assert "compute_sum_list" in report.exported
    assert any("metadata.scratchworld is not readable" in w for w in report.warnings)


# ---- import: reserved names, one bad task never stops the others ---------------------------


@pytest.mark.parametrize("name", [".trash", "diagnostics", ".", "..", ".hidden"])
def test_import_refuses_library_names_and_imports_the_rest(tmp_path: Path, name: str) -> None:
    sw = build_set(tmp_path / "sw")
    raw = dict(SPECS[0].raw, name=name)
    (sw.tasks / "create" / "evil.json").write_text(json.dumps(raw))
    lib = tmp_path / "lib"
    (lib / ".trash" / "old_task").mkdir(parents=True)
    (lib / ".trash" / "old_task" / "task.json").write_text("{}")
    (lib / "diagnostics" / "drag").mkdir(parents=True)
    report = import_scratchworld(sw.root, lib, overwrite=True)
    assert sorted(report.imported) == sorted(sw.ids)
    [problem] = report.skipped
    assert problem.file.name == "evil.json" and problem.field == "name"
    assert (
        "reserved" in problem.problem or "hidden" in problem.problem or "folder" in problem.problem
    )
    assert (lib / ".trash" / "old_task" / "task.json").read_text() == "{}"
    assert (lib / "diagnostics" / "drag").is_dir()


def _run(*argv: str) -> int:
    return main(list(argv))


def test_cli_import_with_a_dot_task_imports_the_others_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sw = build_set(tmp_path / "sw")
    (sw.tasks / "create" / "dot.json").write_text(json.dumps(dict(SPECS[0].raw, name="..")))
    assert _run("import", "scratchworld", str(sw.root), str(tmp_path / "lib"), "--overwrite") == 1
    assert f"imported {len(sw.ids)} tasks" in capsys.readouterr().out


def test_a_task_file_naming_a_project_outside_the_checkout_is_skipped(tmp_path: Path) -> None:
    sw = build_set(tmp_path / "sw")
    (tmp_path / "outside.sb3").write_bytes(cat_project(3))
    raw = dict(SPECS[0].raw, name="sneaky", initial_project="../../outside.sb3")
    (sw.tasks / "create" / "sneaky.json").write_text(json.dumps(raw))
    (sw.scripts / "sneaky.js").write_text("module.exports = async () => ({});")
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert [(p.file.name, p.field) for p in report.skipped] == [("sneaky.json", "initial_project")]
    assert not (tmp_path / "lib" / "sneaky").exists()


# ---- import: symbolic links --------------------------------------------------------------------


def test_links_out_of_the_checkout_are_refused_and_named(tmp_path: Path) -> None:
    sw = build_set(tmp_path / "sw")
    outside = tmp_path / "notes.txt"
    outside.write_text("an outside text file")
    script = sw.scripts / f"{SPECS[0].raw['name']}.js"
    script.unlink()
    os.symlink(outside, script)
    inner = sw.scripts / f"{SPECS[1].raw['name']}.js"
    kept = inner.read_bytes()
    (sw.root / "moved.js").write_bytes(kept)
    inner.unlink()
    os.symlink(sw.root / "moved.js", inner)  # a link that stays inside the checkout is followed
    (tmp_path / "far.json").write_text(json.dumps(dict(SPECS[0].raw, name="far")))
    os.symlink(tmp_path / "far.json", sw.tasks / "create" / "far.json")
    report = import_scratchworld(sw.root, tmp_path / "lib")
    found = {p.file.name: p.problem for p in report.skipped}
    assert set(found) == {f"{SPECS[0].raw['name']}.json", "far.json"}
    assert all(
        "is a symbolic link to" in why and "outside the checkout" in why for why in found.values()
    )
    assert sorted(report.imported) == sorted(set(sw.ids) - {SPECS[0].raw["name"]})
    assert (tmp_path / "lib" / SPECS[1].raw["name"] / inner.name).read_bytes() == kept
    texts = [p.read_bytes() for p in (tmp_path / "lib").rglob("*") if p.is_file()]
    assert outside.read_bytes() not in texts


def test_drag_and_qa_files_linked_out_of_the_checkout_are_refused(tmp_path: Path) -> None:
    root = build_checkout(tmp_path / "sw")
    (tmp_path / "p.sb3").write_bytes(cat_project(9))
    project = root / "scratch-gui/static/T1_001.sb3"
    project.unlink()
    os.symlink(tmp_path / "p.sb3", project)
    shots = root / "visual_perception_benchmark/screenshots_final"
    (tmp_path / "shot.png").write_bytes((shots / "ws_b.png").read_bytes())
    (shots / "ws_b.png").unlink()
    os.symlink(tmp_path / "shot.png", shots / "ws_b.png")
    report = import_checkout(root, tmp_path / "lib")
    reasons = [p.problem for p in report.skipped]
    assert reasons and all("outside the checkout" in r for r in reasons)
    assert {p.field for p in report.skipped} == {"init_project", "screenshot"}
    assert "T1_001" not in report.drag_items and "T1_002" in report.drag_items


def test_export_refuses_library_files_linked_out_of_their_folder(lib: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"SECRET" + b"\0" * 40)
    script = lib / "compute_sum_list" / "compute_sum_list.js"
    script.unlink()
    script.symlink_to(secret)
    project = lib / "diagnostics/drag/T1_001/T1_001.sb3"
    project.unlink()
    project.symlink_to(secret)
    report = export_checkout(lib, tmp_path / "out")
    named = [str(p) for p in report.skipped]
    assert any("compute_sum_list.js is a symbolic link" in n for n in named)
    assert any("T1_001.sb3 is a symbolic link out of its folder" in n for n in named)
    written = [p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert all(b"SECRET" not in data for data in written)


@pytest.mark.parametrize(
    ("value", "plain", "for_library"),
    [
        ("pong.sb3", True, True),
        ("my task.js", True, True),
        (".trash", True, False),
        ("diagnostics", True, False),
        (".hidden", True, False),
        (".", False, False),
        ("..", False, False),
        ("../x.sb3", False, False),
        ("/etc/passwd", False, False),
        ("a\\b.js", False, False),
        ("C:x.sb3", False, False),
        ("x\n.sb3", False, False),
        (" x.sb3", False, False),
        ("", False, False),
        (7, False, False),
    ],
)
def test_plain_and_library_names(value: Any, plain: bool, for_library: bool) -> None:
    from studio.services.core.names import library_name_problem, name_problem

    assert (name_problem(value) is None) == plain
    assert (library_name_problem(value) is None) == for_library


def test_contained_follows_links(tmp_path: Path) -> None:
    from studio.services.core.names import contained

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a").write_text("a")
    (tmp_path / "in" / "to_a").symlink_to(tmp_path / "in" / "a")
    (tmp_path / "in" / "out").symlink_to(tmp_path)
    assert contained(tmp_path / "in" / "to_a", tmp_path / "in")
    assert not contained(tmp_path / "in" / "out", tmp_path / "in")
    assert not contained(tmp_path / "in" / ".." / "x", tmp_path / "in")


def test_a_helper_library_linked_out_of_the_checkout_is_refused_not_a_crash(
    tmp_path: Path,
) -> None:
    sw = build_set(tmp_path / "sw")
    helper = sw.scripts / "evaluation_utils.js"
    (tmp_path / "outside.js").write_bytes(helper.read_bytes())
    helper.unlink()
    helper.symlink_to(tmp_path / "outside.js")
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert [p.file.name for p in report.skipped] == ["evaluation_utils.js"]
    assert "outside the checkout" in report.skipped[0].problem
    assert sorted(report.imported) == sorted(sw.ids)
    assert not list((tmp_path / "lib").glob("*/evaluation_utils.js"))
