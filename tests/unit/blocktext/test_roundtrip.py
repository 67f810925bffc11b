"""Render then parse gives the same blocks back: every script of the bundled goldens and initial
projects, and of the published-style corpus; a difference the text cannot carry is listed."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from studio.services.core.blocktext.project_text import build_into, build_project, project_text
from studio.services.core.blocktext.roundtrip import round_trip
from studio.services.core.sb3 import check_sb3, load_sb3, read_project_json
from tests.corpus.published_style import PUBLISHED_STYLE_CASES

ROOT = Path(__file__).resolve().parents[3]
TASKS = ROOT / "tasks"


def _bundled() -> list[tuple[str, dict]]:
    return [
        (f"{task.name}/{sb3.name}", load_sb3(sb3)[1])
        for task in sorted(TASKS.iterdir())
        for sb3 in sorted(task.glob("*.sb3"))
    ]


def test_every_bundled_script_comes_back() -> None:
    projects = _bundled()
    assert len(projects) == 24
    result = round_trip(projects)
    assert result.failures == []
    assert result.scripts == result.same > 40


def test_the_published_style_scripts_come_back() -> None:
    projects = [
        (f"{case.id}-{variant.name}", read_project_json(variant.build().build()))
        for case in PUBLISHED_STYLE_CASES
        for variant in case.variants
    ]
    result = round_trip(projects)
    assert result.failures == []
    assert result.share == 1.0


def test_a_difference_the_text_cannot_carry_is_listed_with_why() -> None:
    built = read_project_json(
        build_project("define hop (n)\nchange y by (n)\n\nwhen @greenFlag clicked\nhop (3)\n").data
    )
    warped = copy.deepcopy(built)
    sprite = warped["targets"][1]
    for blk in sprite["blocks"].values():
        if blk["opcode"] in ("procedures_prototype", "procedures_call"):
            blk["mutation"]["warp"] = "true"
    assert round_trip([("plain", built)]).failures == []
    result = round_trip([("warped", warped)])
    assert result.same == 0 and result.scripts == 2
    assert all("warp" in failure for failure in result.failures)


def test_whole_project_text_builds_every_target_back() -> None:
    for label, project in _bundled():
        text = project_text(project)
        again = read_project_json(build_project(text, label).data)
        assert project_text(again) == text, label


def test_into_replaces_one_targets_scripts_and_keeps_the_rest(tmp_path: Path) -> None:
    source = TASKS / "debug_game_over" / "golden.sb3"
    data, project = load_sb3(source)
    built = build_into(data, str(source), "when @greenFlag clicked\nsay [hi]\n", sprite="Banner")
    after = check_sb3(built.data, "into.sb3")
    assert project_text(after, "Banner") == "when @greenFlag clicked\nsay [hi]"
    assert project_text(after, "Bug") == project_text(project, "Bug")
    assert [t["name"] for t in after["targets"]] == [t["name"] for t in project["targets"]]
    assert json.dumps(after["targets"][0]["variables"]) == json.dumps(
        project["targets"][0]["variables"]
    )


def test_an_extension_block_is_shown_and_listed_not_built() -> None:
    project = read_project_json(build_project("when @greenFlag clicked\nsay [hi]\n").data)
    sprite = project["targets"][1]
    say = next(b for b in sprite["blocks"].values() if b["opcode"] == "looks_say")
    say["opcode"] = "text2speech_speakAndWait"
    say["inputs"]["WORDS"] = say["inputs"].pop("MESSAGE")
    assert project_text(project, "Sprite1") == (
        "when @greenFlag clicked\ntext2speech_speakAndWait [hi] :: extension"
    )
    result = round_trip([("speech", project)])
    assert result.same == 0
    assert "unknown block 'text2speech_speakAndWait [hi] :: extension'" in result.failures[0]
