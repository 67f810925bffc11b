"""The final program of each bundled episode as block pictures, its text a click away.

For every episode whose folder holds its final project (`final.sb3`), each script of each
target is drawn by the scratchblocks package (`core.blocktext.pictures`; all episodes in one
renderer run) and written to `img/<episode>/blocks/<target>-<n>.svg`; the episode's entry in
data.js gets `program: [{target, stage, scripts: [{img, w, h, text}]}]`, which the page shows
under the film strip (the picture, and the script's text in a <details>). A final project that
cannot be read, or a renderer that cannot run, is one line in the episode's `problems` (the
texts are still given, with `img` null, when only the renderer failed).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.trajectory import FINAL_PROJECT
from studio.services.core.blocktext.pictures import TargetPictures, many_pictures
from studio.services.core.blocktext.writing import render_script, top_ids
from studio.services.core.sb3 import load_sb3

__all__ = ["add_programs"]


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "target"


def add_programs(episodes: list[dict[str, Any]], out: Path) -> None:
    """Give each episode (as `episode_data` made it, with its `folder`) its `program`."""
    found: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for episode in episodes:
        episode["program"] = []
        path = Path(str(episode.get("folder") or "")) / FINAL_PROJECT
        if not path.is_file():
            continue
        try:
            _data, project = load_sb3(path)
        except StudioError as exc:
            episode["problems"].append(f"final program not shown: {exc}")
            continue
        found.append((episode, project["targets"]))
    if not found:
        return
    try:
        drawn = many_pictures([targets for _, targets in found])
    except StudioError as exc:  # no Node or no font: the texts alone
        for episode, targets in found:
            episode["problems"].append(f"block pictures not drawn: {exc}")
            episode["program"] = _texts_only(targets)
        return
    for (episode, _targets), pictures in zip(found, drawn, strict=True):
        episode["program"] = _write(episode, pictures, out)


def _write(episode: dict[str, Any], targets: list[TargetPictures], out: Path) -> list[Any]:
    folder = f"img/{int(episode['id']):05d}/blocks"
    program = []
    for target in targets:
        scripts = []
        for number, picture in enumerate(target.pictures, 1):
            rel = None
            if picture.error is None:
                rel = f"{folder}/{_file_name(target.name)}-{number}.svg"
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
                (out / rel).write_text(picture.svg + "\n", encoding="utf-8")
            else:
                episode["problems"].append(f"{target.name} script {number}: {picture.error}")
            scripts.append(
                {"img": rel, "w": picture.width, "h": picture.height, "text": picture.text}
            )
        program.append({"target": target.name, "stage": target.is_stage, "scripts": scripts})
    return program


def _texts_only(targets: list[dict[str, Any]]) -> list[Any]:
    program = []
    for target in targets:
        blocks = target.get("blocks", {})
        scripts = [
            {"img": None, "w": 0, "h": 0, "text": render_script(blocks, top)}
            for top in top_ids(blocks)
        ]
        name = "Stage" if target.get("isStage") else str(target.get("name"))
        program.append({"target": name, "stage": bool(target.get("isStage")), "scripts": scripts})
    return program
