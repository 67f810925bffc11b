"""Authoring in text without a window: the XML Apply sends to the editor, the plan and its
errors, and a task's golden or initial made from text (`studio blocks set-task`)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from studio.app.text_authoring import (
    TextAuthoringError,
    applied_as_planned,
    plan_apply,
    set_task_project,
)
from studio.cli import main
from studio.services.core.blocktext.blockly_xml import script_xml, target_scripts
from studio.services.core.blocktext.project_text import BlockTextError, build_project
from studio.services.core.sb3 import load_sb3, read_project_json
from studio.services.core.store import load_task
from tests.helpers.sample_task import write_sample_task

TEXT = """\
define jump (height) <fast>
change y by (height)

when green flag clicked
set [score v] to (0)
repeat (10)
    if <(score) > (5)> then
        jump (score) <(score) = (1)>
    else
        change [score v] by (1)
        add (score) to [seen v]
    end
end
broadcast (done v)
switch costume to (shiny v)
"""


def _cat(data: bytes) -> dict:
    return next(t for t in read_project_json(data, "p")["targets"] if t["name"] == "Cat")


def test_scripts_become_the_xml_the_vm_writes() -> None:
    built = build_project(TEXT, "t", "Cat")
    cat = _cat(built.data)
    scripts = target_scripts(cat)
    assert len(scripts) == 2
    trees = [ET.fromstring(s.xml) for s in scripts]  # well-formed
    flag = next(t for t in trees if t.get("type") == "event_whenflagclicked")
    assert flag.get("x") is not None and flag.tag == "block"
    repeat = flag.find("next/block/next/block")
    assert repeat is not None and repeat.get("type") == "control_repeat"
    times = repeat.find("value[@name='TIMES']/shadow")
    assert times is not None and times.get("type") == "math_whole_number"
    assert times.find("field[@name='NUM']").text == "10"  # type: ignore[union-attr]
    variable = flag.find("next/block/field[@name='VARIABLE']")
    assert variable is not None and variable.get("variabletype") == "" and variable.text == "score"
    assert variable.get("id")
    # a reporter over a shadow: the block and, beside it, the shadow it covers
    add = repeat.find(".//block[@type='data_addtolist']")
    assert add is not None
    item = add.find("value[@name='ITEM']")
    assert [c.tag for c in item] == ["block", "shadow"]  # type: ignore[union-attr]
    assert add.find("field[@name='LIST']").get("variabletype") == "list"  # type: ignore[union-attr]
    message = flag.find(".//shadow[@type='event_broadcast_menu']/field")
    assert message is not None and message.get("variabletype") == "broadcast_msg"
    define = next(t for t in trees if t.get("type") == "procedures_definition")
    proto = define.find("value[@name='custom_block']/shadow/mutation")
    assert proto is not None and json.loads(proto.get("argumentnames", "")) == ["height", "fast"]
    call = flag.find(".//block[@type='procedures_call']/mutation")
    assert call is not None and call.get("proccode") == "jump %s %b"


def test_a_loose_variable_reporter_is_a_block_of_its_own() -> None:
    blocks = {"v": [12, "score", "vid", 10, 20]}
    assert script_xml(blocks, "v") == (
        '<block type="data_variable" x="10" y="20">'
        '<field name="VARIABLE" id="vid" variabletype="">score</field></block>'
    )
    (script,) = target_scripts({"blocks": blocks})
    assert (script.x, script.y) == (10.0, 20.0)


def test_the_plan_replaces_one_target_and_says_what_it_made(tmp_path: Path) -> None:
    folder = write_sample_task(tmp_path / "cat")
    data = (folder / "golden.sb3").read_bytes()
    plan = plan_apply(data, "golden.sb3", TEXT, "Cat")
    assert plan.target == "Cat" and len(plan.scripts) == 2
    assert "variable 'score'" in plan.made and "list 'seen'" in plan.made
    assert "message 'done'" in plan.made
    assert plan.not_made == ["costume 'shiny'"]
    request = plan.page_request()
    assert request["target"] == "Cat" and len(request["scripts"]) == 2
    built = _cat(build_project(TEXT, "t", "Cat").data)
    assert applied_as_planned(plan, built)
    built["blocks"] = {}
    assert not applied_as_planned(plan, built)


def test_bad_lines_and_markers_are_all_named_and_nothing_is_planned(tmp_path: Path) -> None:
    data = (write_sample_task(tmp_path / "cat") / "golden.sb3").read_bytes()
    text = "when green flag clicked\nfly to the moon\n// sprite: Dog\nmove (10) steps\n"
    with pytest.raises(BlockTextError) as caught:
        plan_apply(data, "golden.sb3", text, "Cat")
    lines = [(p.line, p.message) for p in caught.value.problems]
    assert [n for n, _ in lines] == [2, 3], lines
    assert "unknown block" in lines[0][1] and "target marker" in lines[1][1]


def test_a_golden_made_from_text_and_an_initial_kept(tmp_path: Path) -> None:
    folder = write_sample_task(tmp_path / "cat")
    initial = (folder / "initial.sb3").read_bytes()
    made = set_task_project(folder, "golden", "when green flag clicked\nsay [Hi]\n", "Cat")
    assert made.base == "golden" and made.scripts == 1 and made.path == folder / "golden.sb3"
    _data, golden = load_sb3(folder / "golden.sb3")
    cat = next(t for t in golden["targets"] if t["name"] == "Cat")
    assert sorted(b["opcode"] for b in cat["blocks"].values()) == [
        "event_whenflagclicked", "looks_say",
    ]  # fmt: skip
    assert (folder / "initial.sb3").read_bytes() == initial
    task = load_task(folder).task
    assert task.metadata.blocks_changed is not None  # initial -> golden, derived again

    before = (folder / "golden.sb3").read_bytes()
    with pytest.raises(BlockTextError):
        set_task_project(folder, "golden", "when green flag clicked\nfly away\n", "Cat")
    assert (folder / "golden.sb3").read_bytes() == before  # nothing half-built


def test_a_task_without_a_golden_gets_one_from_its_initial(tmp_path: Path) -> None:
    folder = write_sample_task(tmp_path / "cat")
    (folder / "golden.sb3").unlink()
    task = json.loads((folder / "task.json").read_text())
    task["golden_project"] = None
    (folder / "task.json").write_text(json.dumps(task))
    made = set_task_project(folder, "golden", "when this sprite clicked\nsay [Hello!]\n", "Cat")
    assert made.base == "initial" and (folder / "golden.sb3").is_file()
    entry = load_task(folder)
    assert entry.golden_path == folder / "golden.sb3"
    with pytest.raises(TextAuthoringError, match="no project named 'final'"):
        set_task_project(folder, "final", "", "Cat")


def test_the_command_line_sets_a_golden_and_refuses_bad_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_sample_task(tmp_path / "cat")
    source = tmp_path / "golden.txt"
    source.write_text("when green flag clicked\nset [lives v] to (3)\n", "utf-8")
    args = ["blocks", "set-task", str(folder), "--golden", str(source), "--sprite", "Cat"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"wrote {folder / 'golden.sb3'}" in out and "created variable 'lives'" in out
    source.write_text("when green flag clicked\nfly away\n", "utf-8")
    assert main(args) == 2
    assert "line 2: unknown block 'fly away'" in capsys.readouterr().err
