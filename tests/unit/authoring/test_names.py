"""Whether an instruction mentions a name, and which names a project has."""

from __future__ import annotations

import json
import zipfile

import pytest

from studio.services.authoring.names import has_name, mentions, project_names, scratch_key
from studio.services.authoring.script_refs import Ref, RefKind
from tests.unit.authoring.conftest import TASKS

K = RefKind


def ref(kind: RefKind, name: str) -> Ref:
    return Ref(kind, name, 1)


@pytest.mark.parametrize(
    ("instruction", "kind", "name", "expected"),
    [
        ("Each click on the Coin adds 1 to the score.", K.SPRITE, "coin", True),
        ("Each click on the Coin adds 1.", K.VARIABLE, "score", False),
        ("Count the Coins.", K.SPRITE, "Coin", True),
        ("The Coin's colour.", K.SPRITE, "Coin", True),
        ("The Coinage.", K.SPRITE, "Coin", False),
        ("Add a variable named my score.", K.VARIABLE, "my score", True),
        ("Press the right arrow key.", K.KEY, "right arrow", True),
        ("Walk with the left and right arrow keys.", K.KEY, "left arrow", True),
        ("Walk with the arrow keys.", K.KEY, "up arrow", False),
        ("Turn right when clicked.", K.KEY, "right arrow", False),
        ("Press the right arrow.", K.KEY, "ArrowRight", True),
        ("Jump with the space bar.", K.KEY, "space", True),
        ("Jump with the spacebar.", K.KEY, " ", True),
        ("Press enter to start.", K.KEY, "Enter", True),
        ("Press a to start.", K.KEY, "a", False),
        ("Press the a key to start.", K.KEY, "a", True),
        ("Press 'a' to start.", K.KEY, "a", True),
        ("Press key B to start.", K.KEY, "b", True),
        ("When the game over message is broadcast.", K.MESSAGE, "game over", True),
    ],
)
def test_mentions(instruction: str, kind: RefKind, name: str, expected: bool) -> None:
    assert mentions(instruction, ref(kind, name)) is expected


def test_project_names_of_a_bundled_project() -> None:
    with zipfile.ZipFile(TASKS / "debug_game_over" / "golden.sb3") as zf:
        project = json.loads(zf.read("project.json"))
    assert {"bug", "banner"} <= project_names(project, K.SPRITE)
    assert "lives" in project_names(project, K.VARIABLE)
    assert "game over" in project_names(project, K.MESSAGE)
    assert has_name(project, ref(K.SPRITE, "BUG"))
    assert not has_name(project, ref(K.VARIABLE, "Lives"))  # variables compare exactly
    assert not has_name(None, ref(K.SPRITE, "Bug"))


def test_key_names_come_from_key_hats() -> None:
    with zipfile.ZipFile(TASKS / "extend_frog_jump" / "initial.sb3") as zf:
        project = json.loads(zf.read("project.json"))
    assert {"left arrow", "right arrow"} <= project_names(project, K.KEY)
    assert has_name(project, ref(K.KEY, "ArrowLeft")) and has_name(project, ref(K.KEY, "right"))
    assert not has_name(project, ref(K.KEY, "space"))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("ArrowLeft", "left arrow"), ("up", "up arrow"), (" ", "space"), ("Return", "enter"),
     ("A", "a"), ("right  Arrow", "right arrow")],
)  # fmt: skip
def test_scratch_key(name: str, expected: str) -> None:
    assert scratch_key(name) == expected
