"""`studio blocks text|build`: a project's text, a project from text, --into, bad text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.services.core.blocktext.project_text import project_text
from studio.services.core.sb3 import load_sb3

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tasks" / "debug_game_over" / "golden.sb3"


def test_text_then_build_gives_the_same_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["blocks", "text", str(GOLDEN)]) == 0
    text = capsys.readouterr().out
    assert "// sprite: Bug\nwhen @greenFlag clicked\nset [lives v] to (3)\n" in text
    source = tmp_path / "game.txt"
    source.write_text(text, "utf-8")
    out = tmp_path / "game.sb3"
    assert main(["blocks", "build", str(source), "--out", str(out)]) == 0
    assert "created sprite 'Bug'" in capsys.readouterr().out
    assert project_text(load_sb3(out)[1]) + "\n" == text


def test_one_sprite_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["blocks", "text", str(GOLDEN), "--sprite", "Banner", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "Banner": "when @greenFlag clicked\nhide\n\nwhen I receive [game over v]\nshow\n"
        "say [Game Over!]"
    }
    assert main(["blocks", "text", str(GOLDEN), "--sprite", "Nobody"]) == 2


def test_into_replaces_the_named_sprite(tmp_path: Path) -> None:
    source = tmp_path / "banner.txt"
    source.write_text("when I receive [game over v]\nshow\nsay [Bye] for (2) seconds\n", "utf-8")
    out = tmp_path / "fixed.sb3"
    argv = ["blocks", "build", str(source), "--into", str(GOLDEN), "--sprite", "Banner"]
    assert main([*argv, "--out", str(out)]) == 0
    project = load_sb3(out)[1]
    assert project_text(project, "Banner") == (
        "when I receive [game over v]\nshow\nsay [Bye] for (2) seconds"
    )
    assert project_text(project, "Bug") == project_text(load_sb3(GOLDEN)[1], "Bug")


def test_bad_text_writes_nothing_and_names_the_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.txt"
    source.write_text("when @greenFlag clicked\nrepeat (3)\n    jump\nend\nend\n", "utf-8")
    out = tmp_path / "bad.sb3"
    assert main(["blocks", "build", str(source), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "line 3: unknown block 'jump'" in err
    assert "line 5: `end` closes no C-block" in err
    assert not out.exists()
