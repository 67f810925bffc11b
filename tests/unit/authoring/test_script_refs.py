"""Names evaluation scripts pass to the helper library as string literals."""

from __future__ import annotations

import pytest

from studio.services.authoring.script_refs import RefKind, script_refs, tokens
from tests.unit.authoring.conftest import TASKS

K = RefKind


def names(src: str) -> list[tuple[str, str]]:
    return [(r.kind.value, r.name) for r in script_refs(src)]


def test_helper_calls_in_every_style() -> None:
    src = """
const EU = EvaluationUtils;
const { getVariableValue, pressKey } = EU;
EU.requireSprite(vm, 'Cat');
EvaluationUtils.getSpriteState(vm, "Dog");
getVariableValue(vm, 'score', 'Cat');
EU.setVariableValue(vm, 'lives', 3, 'Bug');
EU.getList(vm, 'items');
pressKey(vm, 'space', 50);
EU.keyDown(vm, `a`);
EU.broadcast(vm, 'game over');
EU.isTouching(vm, 'Cat', '_edge_');
EU.isTouching(vm, 'Cat', 'Mouse');
"""
    assert names(src) == [
        ("sprite", "Cat"),
        ("sprite", "Dog"),
        ("variable", "score"),
        ("sprite", "Cat"),
        ("variable", "lives"),
        ("sprite", "Bug"),
        ("list", "items"),
        ("key", "space"),
        ("key", "a"),
        ("message", "game over"),
        ("sprite", "Cat"),
        ("sprite", "Cat"),
        ("sprite", "Mouse"),
    ]


def test_find_variable_kind_follows_its_type_argument() -> None:
    src = "EU.findVariable(vm, 'a'); EU.findVariable(vm, 'b', null, 'list');"
    src += "EU.findVariable(vm, 'c', 'Cat', 'broadcast_msg');"
    assert names(src) == [("variable", "a"), ("list", "b"), ("message", "c"), ("sprite", "Cat")]


def test_recorder_methods_name_sprites() -> None:
    src = "const says = EU.recordSays(vm); says.texts('Balloon'); says.last(); last('x');"
    assert names(src) == [("sprite", "Balloon")]


def test_non_literals_comments_and_definitions_are_skipped() -> None:
    src = """
// EU.requireSprite(vm, 'Commented');
/* EU.getVariableValue(vm, 'block comment') */
const name = 'Cat';
EU.requireSprite(vm, name);
EU.requireSprite(vm, `Ca${'t'}`);
EU.requireSprite(vm, 'Ca' + 't');
function getPosition(vm, sprite) { return 1; }
EU.getPosition(vm, ['Not', 'a', 'literal'][0]);
"""
    assert names(src) == []


def test_quotes_inside_regexes_and_strings_do_not_derail() -> None:
    src = r"""
const isWin = (text) => /^\s*you' "win!?\s*$/i.test(text);
const half = 10 / 2; const other = half / 5;
const s = 'it\'s EU.requireSprite(vm, "Hidden")';
const t = `template with 'quotes' and ${fn("x)")}`;
EU.requireSprite(vm, 'After');
"""
    assert names(src) == [("sprite", "After")]


def test_lines_are_counted() -> None:
    src = "const a = `two\nlines`;\n/* c\n */\nEU.requireSprite(vm, 'Cat');\n"
    assert [r.line for r in script_refs(src)] == [5]


def test_nested_calls_in_arguments() -> None:
    src = "EU.setVariableValue(vm, 'n', Math.max(1, 2), pick('a', 'b'));"
    assert names(src) == [("variable", "n")]


def test_tokens_of_a_small_script() -> None:
    kinds = [t.kind for t in tokens("a.b('x', `y`, 1, /r/g)")]
    assert kinds == ["id", "p", "id", "p", "str", "p", "str", "p", "num", "p", "re", "p"]


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("debug_score_reset", {("sprite", "Coin"), ("variable", "score")}),
        ("extend_balloon_pops", {("sprite", "Balloon"), ("variable", "pops")}),
        (
            "extend_rain_clones",
            {("key", "left arrow"), ("key", "right arrow"), ("key", "space"),
             ("sprite", "Cloud"), ("sprite", "Drop")},
        ),
    ],
)  # fmt: skip
def test_bundled_scripts(task: str, expected: set[tuple[str, str]]) -> None:
    src = (TASKS / task / "evaluate.js").read_text()
    assert set(names(src)) == expected
