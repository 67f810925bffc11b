"""What a task's golden changes, script by script: the task card's pictures.

`changed_scripts(initial, golden)` compares the two projects target by target (by name, the
golden's targets first in its order, then targets only the initial has) as block text
(`writing.render_script`, one text per script): a golden script whose text the initial's same
target lacks is *changed* (added, or an initial script edited), an initial script the golden
lacks is *removed* (counted as a multiset: two equal scripts where there was one make one
change). Targets with neither are left out. With no initial project, every golden script is
changed.

`changed_pictures(initial, golden)` draws the changed scripts (and the removed ones) with the
scratchblocks package in one renderer run (`pictures.render_svgs`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from studio.models.errors import StudioError
from studio.services.core.blocks import target_name
from studio.services.core.blocktext.pictures import Picture, render_svgs
from studio.services.core.blocktext.writing import render_script, top_ids
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder

__all__ = [
    "ChangedPictures",
    "ChangedTarget",
    "changed_pictures",
    "changed_scripts",
    "task_projects",
]


@dataclass(frozen=True)
class ChangedTarget:
    """One target's scripts that differ: the golden's (changed) and the initial's (removed)."""

    name: str
    changed: list[str]
    removed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ChangedPictures:
    """The pictures of one target's changed and removed scripts (each with its text)."""

    name: str
    changed: list[Picture]
    removed: list[Picture]


def _texts(target: dict[str, Any] | None) -> list[str]:
    if target is None:
        return []
    blocks = target.get("blocks") or {}
    return [render_script(blocks, top) for top in top_ids(blocks)]


def _minus(mine: list[str], other: list[str]) -> list[str]:
    left = Counter(other)
    out = []
    for text in mine:
        if left[text] > 0:
            left[text] -= 1
        else:
            out.append(text)
    return out


def changed_scripts(initial: dict[str, Any] | None, golden: dict[str, Any]) -> list[ChangedTarget]:
    """The golden's changes over the initial, target by target (see the module doc)."""
    before = {target_name(t): t for t in (initial or {}).get("targets", [])}
    names = [target_name(t) for t in golden.get("targets", [])]
    after = {target_name(t): t for t in golden.get("targets", [])}
    names += [n for n in before if n not in after]
    out = []
    for name in names:
        old, new = _texts(before.get(name)), _texts(after.get(name))
        changed, removed = _minus(new, old), _minus(old, new)
        if changed or removed:
            out.append(ChangedTarget(name, changed, removed))
    return out


def changed_pictures(
    initial: dict[str, Any] | None, golden: dict[str, Any], scale: float = 1.0
) -> list[ChangedPictures]:
    """The changed and removed scripts drawn, in one renderer run."""
    targets = changed_scripts(initial, golden)
    drawn = iter(render_svgs([t for c in targets for t in (*c.changed, *c.removed)], scale))
    return [
        ChangedPictures(c.name, [next(drawn) for _ in c.changed], [next(drawn) for _ in c.removed])
        for c in targets
    ]


def task_projects(task: TaskFolder) -> tuple[dict[str, Any], dict[str, Any]] | str:
    """A task's initial and golden projects, for its changes; else why there are none ("the
    task has no golden project", or "the projects cannot be read: ...")."""
    golden_path = task.golden_path
    if golden_path is None or not golden_path.is_file():
        return "the task has no golden project"
    try:
        _data, golden = load_sb3(golden_path)
        _data, initial = load_sb3(task.initial_path)
    except (OSError, StudioError) as exc:
        return f"the projects cannot be read: {exc}"
    return initial, golden
