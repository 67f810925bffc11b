"""Pieces shared by the task modules: the default project and task constructors.

`default_project.sb3` is the project a Scratch user starts from: a white stage and one sprite,
"Sprite1", with two costumes. Most create and compute tasks start from it. The constructors
fill in the file names the published layout uses: `<id>.sb3` for a task's own initial project
and `<id>_golden.sb3` for its golden; debug families pass their family golden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.kit import look, project
from tests.helpers.published_set.spec import Case, TaskSpec

DEFAULT = "default_project.sb3"
Build = Callable[[bool], ProjectBuilder]  # False: the initial project, True: the golden one


def default_project() -> ProjectBuilder:
    p = project()
    costumes = [look("costume1", 80, 90, "#ff9f1c"), look("costume2", 84, 90, "#ffbf69")]
    p.add_sprite("Sprite1", costumes)
    return p


def on_default(solve: Callable[[ProjectBuilder], None]) -> Build:
    """A task starting from the default project; the golden adds `solve(project)` to it."""

    def make(golden: bool) -> ProjectBuilder:
        p = default_project()
        if golden:
            solve(p)
        return p

    return make


def task(
    category: str,
    id: str,
    make: Build,
    cases: list[Case],
    *,
    instruction: str,
    description: str,
    check: str,
    timeout: int,
    shared_initial: bool = False,
    golden: bool = True,
    **extra: Any,
) -> TaskSpec:
    """A create, extend or compute task: its own golden (or none, keeping a reference)."""
    solution = lambda: make(True)  # noqa: E731
    return TaskSpec(
        id=id,
        category=category,
        description=description,
        instruction=instruction,
        check=check,
        timeout=timeout,
        cases=cases,
        initial=DEFAULT if shared_initial else f"{id}.sb3",
        make_initial=default_project if shared_initial else (lambda: make(False)),
        golden=f"{id}_golden.sb3" if golden else None,
        make_golden=solution if golden else None,
        reference=None if golden else solution,
        **extra,
    )


def debug_task(
    family: str,
    suffix: str,
    bug: str,
    make: Callable[[str | None], ProjectBuilder],
    cases: list[Case],
    *,
    instruction: str,
    description: str,
    check: str,
    timeout: int,
) -> TaskSpec:
    """A debug task: the family's starter project with `bug` injected; the family golden."""
    id = f"{family}_{suffix}"
    return TaskSpec(
        id=id,
        category="debug",
        description=description,
        instruction=instruction,
        check=check,
        timeout=timeout,
        cases=cases,
        initial=f"{id}.sb3",
        make_initial=lambda: make(bug),
        golden=f"{family}_golden.sb3",
        make_golden=lambda: make(None),
    )


def debug_family(
    family: str,
    game: str,
    noun: str,
    make: Callable[[str | None], ProjectBuilder],
    cases: dict[str, Case],
    bugs: list[tuple[str, str, list[str]]],
    *,
    check: str,
    timeout: int,
) -> list[TaskSpec]:
    """A debug task per (bug, symptom, case keys) of a family; the instruction is the game's
    description followed by the symptom."""
    return [
        debug_task(
            family,
            bug,
            bug,
            make,
            [cases[k] for k in keys],
            instruction=f"{game} But there is a bug: {symptom} Find and fix it.",
            description=f"{noun} with a bug: {symptom}",
            check=check,
            timeout=timeout,
        )
        for bug, symptom, keys in bugs
    ]
