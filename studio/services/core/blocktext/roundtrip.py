"""Render then parse: does a project's text give its blocks back, script by script?

`round_trip(projects)` renders every script of every project as text, reads all the texts in
one parser run, writes them into a copy of each target and compares the blocks
(blocktext.compare) script by script. Each script that does not come back is listed with why:
lines could not be placed (a block the dialect has no text for, an extension's, renders
marked `:: extension` and is refused on reading), or the blocks differ (the first differing
part is shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.services.core.blocks import target_name
from studio.services.core.blocktext.compare import script_shape
from studio.services.core.blocktext.emit import TargetWriter
from studio.services.core.blocktext.reading import read_texts
from studio.services.core.blocktext.writing import render_script, top_ids

__all__ = ["RoundTrip", "round_trip"]


@dataclass
class RoundTrip:
    """Scripts tried, those that came back equal, and a line of why for each other."""

    scripts: int = 0
    same: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.same / self.scripts if self.scripts else 1.0


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if type(a) is not type(b):
        return f"{path or 'script'}: {a!r:.120} became {b!r:.120}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list | tuple) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{index}]")
    return f"{path or 'script'}: {a!r:.120} became {b!r:.120}"


def _writable_copy(project: dict[str, Any]) -> dict[str, Any]:
    """A copy a TargetWriter may write into: the tables it changes are copied, the rest (list
    contents, block tables it replaces) shared with the original."""
    targets = []
    for target in project["targets"]:
        twin = dict(target)
        for key in ("variables", "lists", "broadcasts"):
            twin[key] = dict(target.get(key) or {})
        for key in ("costumes", "sounds"):
            twin[key] = list(target.get(key) or [])
        targets.append(twin)
    return {**project, "targets": targets}


def round_trip(projects: list[tuple[str, dict[str, Any]]]) -> RoundTrip:
    """Round-trip every script of the named projects (see the module doc)."""
    result = RoundTrip()
    jobs: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = []
    for label, project in projects:
        for target in project["targets"]:
            blocks = target.get("blocks", {})
            for top in top_ids(blocks):
                result.scripts += 1
                where = f"{label} / {target_name(target)} / {top}"
                text = render_script(blocks, top)
                jobs.append((where, project, target, top, text))
    # A script's custom-block calls need the target's definitions in the same text.
    texts = []
    defines: dict[int, list[tuple[str, str]]] = {}  # per target: (top, text) of its defines
    for _where, _project, target, top, text in jobs:
        blocks = target.get("blocks", {})
        if id(target) not in defines:
            defines[id(target)] = [
                (t, render_script(blocks, t))
                for t in top_ids(blocks)
                if isinstance(blocks[t], dict) and blocks[t]["opcode"] == "procedures_definition"
            ]
        others = [t_text for t, t_text in defines[id(target)] if t != top]
        texts.append(("\n\n".join([text, *others]), 1))
    copies: dict[int, dict[str, Any]] = {}
    for (where, project, target, top, text), (scripts, problems) in zip(
        jobs, read_texts(texts), strict=True
    ):
        if problems:
            result.failures.append(f"{where}: {problems[0]} (text: {text.splitlines()[0]!r:.80})")
            continue
        if id(project) not in copies:
            copies[id(project)] = _writable_copy(project)
        copy_project = copies[id(project)]
        copy_target = copy_project["targets"][project["targets"].index(target)]
        writer = TargetWriter(copy_project, copy_target, {})
        writer.register(scripts)
        writer.write(scripts[:1])
        new_blocks = copy_target["blocks"]
        tops = top_ids(new_blocks)
        before = script_shape(target["blocks"], top)
        after = script_shape(new_blocks, tops[0]) if tops else None
        if before == after:
            result.same += 1
        else:
            result.failures.append(f"{where}: {_first_difference(before, after)}")
    return result
