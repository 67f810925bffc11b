"""Block pictures drawn by the real scratchblocks renderer in Node: SVG documents whose shapes
follow the text, the scripts of a project in order, and `studio blocks picture`'s three forms."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from studio.cli import main
from studio.services.core.blocktext.pictures import (
    font_file,
    picture_html,
    project_pictures,
    render_svgs,
)
from studio.services.core.blocktext.project_text import NoSuchTarget
from studio.services.core.blocktext.writing import render_script, top_ids
from studio.services.core.sb3 import load_sb3

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tasks" / "debug_game_over" / "golden.sb3"
SVG = "{http://www.w3.org/2000/svg}"
LOOP = "when green flag clicked\nrepeat (10)\n    move (10) steps\nend"


def _labels(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_a_script_is_drawn_as_an_svg_of_its_blocks() -> None:
    (picture,) = render_svgs([LOOP])
    assert picture.error is None
    root = ET.fromstring(picture.svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width", "0")) == pytest.approx(picture.width)
    assert float(root.get("height", "0")) == pytest.approx(picture.height)
    assert _labels(picture.svg) == ["when", "clicked", "repeat", "10", "move", "10", "steps"]
    # only the icons it links to are kept: the flag and the loop arrow, no inline PNGs
    kept = {el.get("id") for el in root.find(f"{SVG}defs") or [] if el.get("id")}
    assert kept == {"sb3-greenFlag", "sb3-loopArrow"}
    assert "data:image/png" not in picture.svg
    assert root.find(f"{SVG}defs/{SVG}style") is not None
    # the labels' font also as attributes, for SVG readers that ignore the `font` shorthand
    labels = [t for t in root.iter(f"{SVG}text") if "sb3-label" in (t.get("class") or "")]
    assert labels and all(t.get("font-size") == "16px" for t in labels)


def test_labels_are_measured_so_longer_text_draws_wider() -> None:
    short, long, taller = render_svgs(["say [hi]", "say [hi there, world]", LOOP])
    assert long.width > short.width + 60
    assert taller.height > short.height * 3
    assert font_file().suffix in (".ttf", ".otf")


def test_every_script_of_a_project_in_text_order() -> None:
    _data, project = load_sb3(GOLDEN)
    targets = project_pictures(project)
    assert [t.name for t in targets] == [
        "Stage" if t.get("isStage") else t["name"] for t in project["targets"]
    ]
    for target, entry in zip(targets, project["targets"], strict=True):
        blocks = entry["blocks"]
        assert [p.text for p in target.pictures] == [
            render_script(blocks, t) for t in top_ids(blocks)
        ]
        assert all(p.error is None and p.svg.startswith("<svg") for p in target.pictures)
    (banner,) = project_pictures(project, "Banner")
    assert banner.name == "Banner" and len(banner.pictures) == 2
    with pytest.raises(NoSuchTarget, match="Nobody"):
        project_pictures(project, "Nobody")


def test_picture_html_keeps_the_text_a_click_away() -> None:
    (picture,) = render_svgs(["say [<b>&]"])
    fragment = picture_html(picture)
    assert "<details><summary>text</summary><pre>say [&lt;b&gt;&amp;]</pre></details>" in fragment
    assert fragment.index("<svg") < fragment.index("<details>")


def test_cli_writes_a_folder_a_page_or_one_svg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pics"
    assert main(["blocks", "picture", str(GOLDEN), "--out", str(folder)]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "Banner-1.svg",
        "Banner-2.svg",
        "Bug-1.svg",
        "Bug-2.svg",
        "Bug-3.svg",
        "index.html",
    ]
    ET.parse(folder / "Bug-1.svg")
    page = tmp_path / "all.html"
    assert main(["blocks", "picture", str(GOLDEN), "--out", str(page)]) == 0
    assert page.read_text("utf-8").count("<svg") == 5
    one = tmp_path / "banner.svg"
    assert main(["blocks", "picture", str(GOLDEN), "--sprite", "Banner", "--out", str(one)]) == 0
    assert "game over" in " ".join(_labels(one.read_text("utf-8")))
    capsys.readouterr()


def test_one_svg_of_many_targets_is_refused_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "all.svg"
    assert main(["blocks", "picture", str(GOLDEN), "--out", str(out)]) == 2
    assert "targets with scripts: Bug, Banner" in capsys.readouterr().err
    assert not out.exists()
