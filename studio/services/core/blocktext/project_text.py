"""Whole projects as block text, and projects built from block text.

The text of a project marks each target with a line of its own, `// stage` or
`// sprite: NAME`, followed by that target's scripts (blank lines between scripts):

    // stage
    when @greenFlag clicked
    switch backdrop to (night v)

    // sprite: Cat
    when @greenFlag clicked
    move (10) steps

Text without a marker belongs to one sprite (`--sprite`, default `Sprite1`). Building reads
every target's text in one parser run; any line that cannot be placed stops the build with
`BlockTextError`, which lists every such line with its number: nothing is half-built.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from studio.models.errors import StudioError
from studio.services.core.blocks import target_name
from studio.services.core.blocktext.emit import TargetWriter
from studio.services.core.blocktext.reading import Problem, TextScript, read_texts
from studio.services.core.blocktext.writing import render_target
from studio.services.core.errors import cut
from studio.services.core.projectbuild import Costume, ProjectBuilder
from studio.services.core.sb3 import build_sb3, open_sb3, read_members, read_project_json

__all__ = [
    "MARKER", "BlockTextError", "Built", "NoSuchTarget", "TargetText", "build_into",
    "build_project", "project_text", "split_targets",
]  # fmt: skip

MARKER = re.compile(r"//\s*(stage|sprite:\s*(?P<name>.+?))\s*")
MAX_PROBLEMS_SHOWN = 50


class NoSuchTarget(StudioError, KeyError):
    """A sprite name the project does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class BlockTextError(StudioError, ValueError):
    """Block text with lines that cannot be placed; `problems` names each line."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        shown = [str(p) for p in problems[:MAX_PROBLEMS_SHOWN]]
        more = len(problems) - len(shown)
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(
            f"{cut(source, 200)}: {len(problems)} line(s) cannot be placed, nothing was built:\n  "
            + "\n  ".join(shown)
            + tail
        )


@dataclass
class TargetText:
    """The text of one target: its name (None: the default sprite), stage or not, first line."""

    name: str | None
    is_stage: bool
    text: str
    first_line: int


@dataclass
class Built:
    """A project built from text: the .sb3 bytes and what had to be created for it."""

    data: bytes
    created: list[str]
    scripts: int


def project_text(
    project: dict[str, Any], sprite: str | None = None, source: str = "project"
) -> str:
    """Every target's scripts under its marker; with `sprite`, that target's scripts alone
    (NoSuchTarget when the project has no such sprite)."""
    if sprite is not None:
        for target in project["targets"]:
            if target_name(target) == sprite:
                return render_target(target)
        raise NoSuchTarget(f"{source}: the project has no sprite named {sprite!r}")
    parts = []
    for target in project["targets"]:
        marker = "// stage" if target.get("isStage") else f"// sprite: {target['name']}"
        body = render_target(target)
        parts.append(marker + ("\n" + body if body else ""))
    return "\n\n".join(parts) + "\n"


def split_targets(text: str) -> list[TargetText]:
    """The text cut at its target markers (text before the first marker: the default sprite)."""
    out: list[TargetText] = []
    current = TargetText(None, False, "", 1)
    body: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        found = MARKER.fullmatch(line.strip())
        if found is None:
            body.append(line)
            continue
        if body and (current.name is not None or any(b.strip() for b in body)):
            current.text = "\n".join(body)
            out.append(current)
        name = found.group("name")
        current = TargetText(name.strip() if name else "Stage", name is None, "", number + 1)
        body = []
    if current.name is not None or any(b.strip() for b in body):
        current.text = "\n".join(body)
        out.append(current)
    return out


def _read(source: str, parts: list[TargetText]) -> list[list[TextScript]]:
    results = read_texts([(p.text, p.first_line) for p in parts])
    problems = [problem for _, found in results for problem in found]
    if problems:
        raise BlockTextError(source, sorted(problems, key=lambda p: p.line))
    return [scripts for scripts, _ in results]


def _sprite_entry(project: dict[str, Any], name: str, assets: dict[str, bytes]) -> dict[str, Any]:
    costume = Costume.circle("costume1", 30, "#ff8c1a")
    assets[costume.md5ext] = costume.data
    entry = {
        "isStage": False, "name": name, "variables": {}, "lists": {}, "broadcasts": {},
        "blocks": {}, "comments": {}, "currentCostume": 0, "costumes": [costume.entry()],
        "sounds": [], "volume": 100, "layerOrder": len(project["targets"]), "visible": True,
        "x": 0, "y": 0, "size": 100, "direction": 90, "draggable": False,
        "rotationStyle": "all around",
    }  # fmt: skip
    project["targets"].append(entry)
    return entry


def _write(
    project: dict[str, Any],
    assets: dict[str, bytes],
    parts: list[TargetText],
    read: list[list[TextScript]],
    default_sprite: str,
) -> tuple[list[str], int]:
    created: list[str] = []
    count = 0
    for part, scripts in zip(parts, read, strict=True):
        name = "Stage" if part.is_stage else (part.name or default_sprite)
        target = next((t for t in project["targets"] if target_name(t) == name), None)
        if target is None:
            target = _sprite_entry(project, name, assets)
            created.append(f"sprite {name!r}")
        writer = TargetWriter(project, target, assets)
        writer.write(scripts)
        created += [c for c in writer.created if c not in created]
        count += len(scripts)
    extensions = {
        blk["opcode"].split("_", 1)[0]
        for t in project["targets"]
        for blk in t["blocks"].values()
        if isinstance(blk, dict) and blk["opcode"].split("_", 1)[0] in ("pen", "music")
    }
    project["extensions"] = sorted(set(project.get("extensions") or []) | extensions)
    return created, count


def build_project(
    text: str,
    source: str = "text",
    sprite: str = "Sprite1",
    scripts: list[TextScript] | None = None,
) -> Built:
    """A new project holding the text's scripts (see the module doc); BlockTextError if a line
    cannot be placed. `scripts`: the text's scripts already read (text of one target only, as
    when many texts were read in one parser run)."""
    parts = split_targets(text)
    read = [scripts] if scripts is not None and len(parts) == 1 else _read(source, parts)
    base = ProjectBuilder()
    project = base.to_json()
    assets = base.assets()
    created, count = _write(project, assets, parts, read, sprite)
    return Built(build_sb3(project, assets), created, count)


def build_into(
    data: bytes, name: str, text: str, source: str = "text", sprite: str = "Sprite1"
) -> Built:
    """The project `data` with the scripts of each target the text names (unmarked text:
    `sprite`) replaced by the text's; the other targets are kept as they were."""
    project = copy.deepcopy(read_project_json(data, name))
    parts = split_targets(text)
    read = _read(source, parts)
    with open_sb3(data, name) as zf:
        members = read_members(zf, name, skip=frozenset({"project.json"}))
    assets = {info.filename: blob for info, blob in members}
    created, count = _write(project, assets, parts, read, sprite)
    return Built(build_sb3(project, assets), created, count)
