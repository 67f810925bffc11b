"""Authoring in block text: the window's text pane and a task's projects made from text.

The window's text pane holds one target's scripts as scratchblocks text (the editing target
of the editor). Its three steps, each written once here:

- `pane_text(target)`: the text of a target as the VM serializes it (`vm.toJSON`'s target);
- `plan_apply(project, name, text, target)`: what *Apply* puts into the editor: the project the
  editor holds (`.sb3` bytes) with `target`'s scripts replaced by the text's (`blocktext.
  project_text.build_into`), and that target's scripts as the Blockly XML the editor's
  workspace reads (`blocktext.blockly_xml`). Every line that cannot be placed raises
  `BlockTextError` naming it (nothing is applied); so does a target marker (`// sprite: X`):
  the pane holds one target's scripts. Variables, lists and messages the text names and the
  project lacks are made by the editor as the blocks arrive (global, as `studio blocks build`
  makes them); costumes, backdrops, sounds and sprites it names are not made in the editor
  (`TextApply.not_made` lists them; the blocks name them anyway);
- `applied_as_planned(plan, target)`: whether the target the editor holds after the apply has
  exactly the planned scripts (as `blocktext.compare` compares blocks: opcodes, fields, inputs,
  order within a script; not ids or positions).

`set_task_project(folder, which, text, sprite)` makes a task's "initial" or "golden" project
from text (`studio blocks set-task`): the text's targets replace their scripts in the task's
project of that name, or, when the task has none yet, in a copy of its other project; the
file is written atomically (`golden.sb3` beside the task when it had no golden).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.services.authoring.metadata import apply_metadata
from studio.services.core import atomic
from studio.services.core.blocks import Project, target_name
from studio.services.core.blocktext.blockly_xml import ScriptXml, target_scripts
from studio.services.core.blocktext.compare import target_shapes
from studio.services.core.blocktext.project_text import (
    MARKER,
    BlockTextError,
    NoSuchTarget,
    build_into,
)
from studio.services.core.blocktext.reading import Problem
from studio.services.core.blocktext.writing import render_target, top_ids
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder, load_task, save_task

__all__ = [
    "PANE_SOURCE", "TaskProjectSet", "TextApply", "TextAuthoringError", "applied_as_planned",
    "pane_text", "plan_apply", "set_task_project",
]  # fmt: skip

PANE_SOURCE = "the text pane"
DOCUMENTS = ("initial", "golden")
_NOT_MADE = ("costume", "backdrop", "sound", "sprite")


class TextAuthoringError(StudioError, ValueError):
    """A task project that cannot be made from text as asked (which task, and why)."""


@dataclass(frozen=True)
class TextApply:
    """What Apply puts into the editor's `target`: its scripts as XML, what the text made."""

    target: str
    scripts: list[ScriptXml]
    made: list[str]  # variables, lists and messages the project lacked
    not_made: list[str]  # costumes, backdrops, sounds, sprites named but not made in the editor
    shapes: list[str] = field(default_factory=list)  # the scripts' shapes, sorted JSON

    def page_request(self) -> dict[str, Any]:
        """The request the editor page's `studioTextApply.apply` takes."""
        return {
            "target": self.target,
            "scripts": [{"xml": s.xml, "x": s.x, "y": s.y} for s in self.scripts],
        }


def pane_text(target: dict[str, Any]) -> str:
    """The scratchblocks text of one target's scripts (a blank line between scripts)."""
    return render_target(target)


def _shapes(target: dict[str, Any]) -> list[str]:
    blocks = target.get("blocks") or {}
    return sorted(json.dumps(s, sort_keys=True) for s in target_shapes(blocks, top_ids(blocks)))


def plan_apply(project: bytes, name: str, text: str, target: str) -> TextApply:
    """What Apply puts into `target` of the editor's `project` (see the module doc)."""
    markers = [
        Problem(number, f"a target marker ({line.strip()}): the pane holds {target}'s scripts")
        for number, line in enumerate(text.split("\n"), 1)
        if MARKER.fullmatch(line.strip())
    ]
    if markers:  # with every other line that cannot be placed (markers read as blank lines)
        lines = text.split("\n")
        for problem in markers:
            lines[problem.line - 1] = ""
        try:
            build_into(project, name, "\n".join(lines), PANE_SOURCE, target)
        except BlockTextError as exc:
            markers += exc.problems
        raise BlockTextError(PANE_SOURCE, sorted(markers, key=lambda p: p.line))
    built = build_into(project, name, text, PANE_SOURCE, target)
    after = read_project_json(built.data, name)
    chosen = next((t for t in after["targets"] if target_name(t) == target), None)
    if chosen is None:  # build_into made it: the editor has no such target
        raise NoSuchTarget(f"{name}: the editor's project has no sprite named {target!r}")
    made = [c for c in built.created if c.split(" ", 1)[0] not in _NOT_MADE]
    not_made = [c for c in built.created if c.split(" ", 1)[0] in _NOT_MADE]
    return TextApply(target, target_scripts(chosen), made, not_made, _shapes(chosen))


def applied_as_planned(plan: TextApply, target: dict[str, Any]) -> bool:
    """Whether `target` (as the VM serializes it after the apply) holds the planned scripts."""
    return _shapes(target) == plan.shapes


@dataclass(frozen=True)
class TaskProjectSet:
    """What `set_task_project` wrote: the file, the project it started from, what it made."""

    path: Path
    base: str  # "initial" or "golden": the project whose other scripts were kept
    scripts: int
    created: list[str]


def set_task_project(
    folder: Path, which: str, text: str, sprite: str = "Sprite1", source: str = "text"
) -> TaskProjectSet:
    """Make task `folder`'s `which` project ("initial" or "golden") from `text` (see the
    module doc); BlockTextError names each line that cannot be placed (nothing is written)."""
    if which not in DOCUMENTS:
        raise TextAuthoringError(f"{folder}: no project named {which!r} (initial or golden)")
    entry = load_task(folder)
    paths = {"initial": entry.initial_path, "golden": entry.golden_path}
    out = paths[which] or entry.folder / "golden.sb3"
    base = which
    if not out.is_file():
        base = "initial" if which == "golden" else "golden"
        other = paths[base]
        if other is None or not other.is_file():
            raise TextAuthoringError(f"{folder}: the task has no project to start the {which} from")
    base_path = paths[base]
    assert base_path is not None
    try:
        data = base_path.read_bytes()
    except OSError as exc:
        raise TextAuthoringError(f"{base_path}: cannot be read ({exc.strerror or exc})") from None
    built = build_into(data, str(base_path), text, source, sprite)
    atomic.write_bytes(out, built.data)
    task = entry.task
    if which == "golden" and task.golden_project is None:  # the task now names its golden
        task = task.model_copy(update={"golden_project": out.name})
    task = apply_metadata(task, *_both(entry, which, built.data))
    save_task(TaskFolder(task, entry.folder))
    return TaskProjectSet(out, base, built.scripts, built.created)


def _both(entry: TaskFolder, which: str, made: bytes) -> tuple[Project, Project | None]:
    """The task's initial and golden projects (None: no golden), `which` being `made`."""
    golden_path = entry.golden_path
    initial = made if which == "initial" else entry.initial_path.read_bytes()
    if which == "golden":
        golden: bytes | None = made
    elif golden_path is not None and golden_path.is_file():
        golden = golden_path.read_bytes()
    else:
        golden = None
    return (
        read_project_json(initial, str(entry.initial_path)),
        read_project_json(golden, str(golden_path)) if golden is not None else None,
    )
