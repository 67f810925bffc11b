"""Block text read with the real scratchblocks package (Node) and mapped to Scratch 3 blocks.

Every opcode of the dialect is read back as itself; a text with every hat, nested C-blocks
with else, custom blocks with arguments, lists, messages and variables builds a project whose
rendered text is the text again; bad lines are named with their numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.services.core.blocktext.dialect import KINDS, PLACEHOLDER, TEMPLATES
from studio.services.core.blocktext.project_text import (
    BlockTextError,
    build_project,
    project_text,
)
from studio.services.core.blocktext.reading import (
    MAX_LINE,
    TextBlock,
    read_text,
    read_texts,
)
from studio.services.core.blocktext.scratchblocks import VERSION
from studio.services.core.blocktext.writing import BOOLEAN_OPCODES, REPORTER_OPCODES
from studio.services.core.projectbuild.spec import BOOL, COLOR, FIELD, LIST, MSG, MSG_IN, TEXT, VAR
from studio.services.core.sb3 import check_sb3

ROOT = Path(__file__).resolve().parents[3]

ALL_KINDS_TEXT = """\
// stage
when @greenFlag clicked
switch backdrop to (night v)

when backdrop switches to [night v]
broadcast (start v)

when [loudness v] > (10)
next backdrop

when stage clicked
add [a] to [seen v]

// sprite: Cat
when @greenFlag clicked
set [score v] to (0)
repeat (10)
    if <touching (edge v)?> then
        change [score v] by (1)
        turn right (15) degrees
    else
        repeat until <(score) > (5)>
            move ((score) * (2)) steps
        end
    end
end
say (join [score: ] (score)) for (2) seconds

when [space v] key pressed
jump (10) <mouse down?>

when this sprite clicked
switch costume to (costume2 v)
play sound (pop v) until done
create clone of (myself v)

when I receive [start v]
forever
    go to (random position v)
    wait (0.5) seconds
    if <(item (1) of [seen v]) = [a]> then
        stop [this script v]
    end
end

when I start as a clone
delete this clone

define jump (height) <fast>
if <fast> then
    change y by (height)
end
say (seen :: list)
"""


def _sample(kind: object) -> str:
    if kind == BOOL:
        return "<mouse down?>"
    if kind in (FIELD, VAR, LIST, MSG):
        return "[thing v]"
    if kind == MSG_IN or isinstance(kind, tuple):
        return "(thing v)"
    if kind == COLOR:
        return "[#ff0000]"
    return "[hello]" if kind == TEXT else "(7)"


def test_the_makefile_pins_the_version_the_studio_names() -> None:
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert f"SCRATCHBLOCKS_VERSION := {VERSION}\n" in makefile
    assert "bundle-scratchblocks" in re.search(r"^setup:.*$", makefile, re.M).group()


def test_every_opcode_of_the_dialect_reads_back_as_itself() -> None:
    texts, expected = [], []
    samples = {"EFFECT": "[color v]", "WHENGREATERTHANMENU": "[timer v]", "OPERATOR": "[sqrt v]"}
    for opcode, template in TEMPLATES.items():
        kinds = KINDS[opcode]
        line = PLACEHOLDER.sub(
            lambda m, kinds=kinds: samples.get(m.group(1)) or _sample(kinds[m.group(1)]), template
        )
        if opcode in ("sound_changeeffectby", "sound_seteffectto"):
            line = line.replace("[color v]", "[pitch v]")
        if opcode == "sensing_of":
            line = "[x position v] of (Cat v)"
        if opcode in BOOLEAN_OPCODES:
            line = f"wait until <{line}>"
        elif not line.startswith("when ") and opcode in REPORTER_OPCODES:
            line = f"say ({line})"
        if opcode == "control_if_else":
            line += "\nelse\nend"
        elif "SUBSTACK" in kinds:
            line += "\nend"
        texts.append((line, 1))
        expected.append(opcode)
    wrong = []
    for opcode, (text, _), (scripts, problems) in zip(
        expected, texts, read_texts(texts), strict=True
    ):
        found = _opcodes(scripts[0].blocks) if scripts else []
        if problems or opcode not in found:
            wrong.append((opcode, text, [str(p) for p in problems], found))
    assert wrong == []


def _opcodes(items: list[object]) -> list[str]:
    out: list[str] = []
    for item in items:
        if isinstance(item, TextBlock):
            out.append(item.opcode)
            for value in item.args.values():
                out += _opcodes([value])
            for mouth in item.mouths:
                out += _opcodes(list(mouth))
    return out


def test_a_text_with_every_hat_builds_and_renders_back_the_same() -> None:
    built = build_project(ALL_KINDS_TEXT)
    project = check_sb3(built.data, "built.sb3")  # loadable: every asset is carried
    assert project_text(project) == ALL_KINDS_TEXT
    cat = next(t for t in project["targets"] if t["name"] == "Cat")
    opcodes = {b["opcode"] for b in cat["blocks"].values() if isinstance(b, dict)}
    assert {
        "control_if_else", "control_repeat_until", "procedures_definition", "procedures_call",
        "argument_reporter_boolean", "argument_reporter_string_number", "control_start_as_clone",
        "event_whenkeypressed", "event_whenthisspriteclicked", "event_whenbroadcastreceived",
    } <= opcodes  # fmt: skip
    created = set(built.created)
    for item in ("variable 'score'", "list 'seen'", "message 'start'", "costume 'costume2'",
                 "sound 'pop'", "backdrop 'night'", "sprite 'Cat'"):  # fmt: skip
        assert item in created
    stage = next(t for t in project["targets"] if t["isStage"])
    assert sorted(stage["broadcasts"].values()) == ["start"]
    assert [v[0] for v in stage["variables"].values()] == ["score"]


def test_the_call_uses_the_definitions_argument_ids() -> None:
    project = check_sb3(build_project(ALL_KINDS_TEXT).data, "built.sb3")
    cat = next(t for t in project["targets"] if t["name"] == "Cat")
    blocks = cat["blocks"]
    proto = next(b for b in blocks.values() if b["opcode"] == "procedures_prototype")
    call = next(b for b in blocks.values() if b["opcode"] == "procedures_call")
    assert proto["mutation"]["proccode"] == call["mutation"]["proccode"] == "jump %s %b"
    assert proto["mutation"]["argumentids"] == call["mutation"]["argumentids"]
    assert proto["mutation"]["argumentnames"] == '["height", "fast"]'


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("when @greenFlag clicked\nmove (10) steps\nend\n", 3, "`end` closes no C-block"),
        ("when @greenFlag clicked\n\nfly to the moon\n", 3, "unknown block 'fly to the moon'"),
        ("when @greenFlag clicked\n(x position)\nmove (1) steps\n", 2, "where a stack block goes"),
        ("when @greenFlag clicked\nrepeat (2)\nelse\nend\n", 2, "`else` after a block"),
        ("when @greenFlag clicked\nhop (3)\n", 2, "unknown block 'hop (3)'"),
        (
            "when @greenFlag clicked\nmove (1) steps\nsay [" + "x" * MAX_LINE + "]\n",
            3,
            f"more than the {MAX_LINE} allowed",
        ),
    ],
)
def test_a_bad_line_is_named_with_its_number(text: str, line: int, expected: str) -> None:
    _scripts, problems = read_text(text)
    assert problems, text
    assert problems[0].line == line
    assert expected in problems[0].message


def test_line_numbers_hold_after_nested_blocks_and_blank_lines() -> None:
    text = (
        "when @greenFlag clicked\n"  # 1
        "repeat (3)\n"  # 2
        "    if <mouse down?> then\n"  # 3
        "        move (1) steps\n"  # 4
        "    else\n"  # 5
        "        bogus one\n"  # 6
        "    end\n"  # 7
        "end\n"  # 8
        "\n"  # 9
        "when this sprite clicked\n"  # 10
        "bogus two\n"  # 11
        "end\n"  # 12
    )
    _scripts, problems = read_text(text)
    named = [(p.line, p.message.split("'")[1] if "'" in p.message else p.message) for p in problems]
    assert named == [
        (6, "bogus one"),
        (11, "bogus two"),
        (12, "`end` closes no C-block (expected a block or a blank line)"),
    ]


def test_deep_nesting_is_refused_with_its_line_not_a_crash() -> None:
    deep = "when @greenFlag clicked\n" + "repeat (2)\n" * 400 + "move (1) steps\n" + "end\n" * 400
    _scripts, problems = read_text(deep)
    assert problems and "nest" in problems[0].message
    parens = "when @greenFlag clicked\nsay " + "(" * 3000 + "1" + ")" * 3000 + "\n"
    _scripts, problems = read_text(parens)
    assert problems and "nest" in problems[0].message


def test_a_bad_text_builds_nothing_and_names_every_line() -> None:
    with pytest.raises(BlockTextError) as caught:
        build_project("// sprite: A\nwhen @greenFlag clicked\nfoo\n\n// sprite: B\nbar (1)\n")
    message = str(caught.value)
    assert "line 3: unknown block 'foo'" in message
    assert "line 6: unknown block 'bar (1)'" in message
    assert "nothing was built" in message
