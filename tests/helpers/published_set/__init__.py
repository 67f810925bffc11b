"""A ScratchWorld task set of our own, written in the exact published layout.

`build_published_set(root)` writes 83 tasks (create 20, debug 20, extend 18, compute 25):

    tasks/<category>/<id>.json                      name, description, type, instruction,
                                                    initial_project, evaluation {function,
                                                    timeout, description} (+ test_cases for
                                                    compute tasks); JSON with indent=2
    tasks/all_tasks.json                            category -> task file names
    scratch-bench-api/api/evaluation_scripts/<id>.js        one script per task
    scratch-bench-api/api/evaluation_scripts/evaluation_utils.js   the set's helper library
    scratch-gui/static/*.sb3                        initial projects (create and compute tasks
                                                    share default_project.sb3), goldens
                                                    <id>_golden.sb3, family goldens
                                                    <family>_golden.sb3 of the debug tasks; a
                                                    few tasks have no golden

Scripts follow the published protocol: `fn(vm, config, cleanup)` with config = {} in real time
under one 120 s cap; each runs 3-6 named cases, each with its own limit, sampling the program
for a few seconds. The task file's `timeout` is not a whole-script limit (it is often smaller
than the sum of the case windows, as in the published set).

`PublishedSet` says what to expect of each task: whether its golden passes (None without
golden), whether its initial project passes (debug initials must fail), the program time its
script samples and the sum of its case limits. `reference_projects()` gives solutions of the
tasks without golden (they are not part of the set) so that their scripts can be checked too.

Modules: `spec` (TaskSpec, Case, how a script is written), `kit` (block shorthands, costumes),
`common` (the default project, task constructors), `compute_common`, one module per group of
tasks (create_*, debug_<family>, extend_*, compute_*), `evaluation_utils.js` (the helper
library) and `verify` (runs every verdict through `studio eval`, real and virtual clock).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from tests.helpers.published_set import (
    compute_a,
    compute_b,
    create_a,
    create_b,
    create_c,
    create_d,
    create_e,
    create_f,
    create_g,
    debug_catch,
    debug_flappy,
    debug_maze,
    debug_pong,
    debug_shooter,
    extend_a,
    extend_b,
    extend_c,
    extend_d,
    extend_e,
    extend_f,
)
from tests.helpers.published_set.spec import CATEGORIES, TaskSpec

TASKS_DIR = "tasks"
SCRIPTS_DIR = "scratch-bench-api/api/evaluation_scripts"
PROJECTS_DIR = "scratch-gui/static"
HELPER = Path(__file__).with_name("evaluation_utils.js")
COUNTS = {"create": 20, "debug": 20, "extend": 18, "compute": 25}
_MODULES: tuple[ModuleType, ...] = (create_a, create_b, create_c, create_d, create_e, create_f)
_MODULES += (create_g, debug_pong, debug_catch, debug_maze, debug_shooter, debug_flappy)
_MODULES += (extend_a, extend_b, extend_c, extend_d, extend_e, extend_f, compute_a, compute_b)


def all_specs() -> list[TaskSpec]:
    """Every task of the set, by category in the order of all_tasks.json."""
    specs = [s for m in _MODULES for s in m.tasks()]
    return sorted(specs, key=lambda s: CATEGORIES.index(s.category))


@dataclass(frozen=True)
class Expectation:
    """What a task's evaluation should give."""

    id: str
    category: str
    initial: str
    golden: str | None
    golden_passes: bool | None  # None: the task has no golden project
    initial_passes: bool  # debug initials must fail; create/extend/compute initials fail too
    program_s: float  # program time the script samples when the program behaves
    limits_s: float  # the sum of the script's own case time limits
    timeout: int  # evaluation.timeout of the task file (not a whole-script limit)


@dataclass
class PublishedSet:
    """A written set: where it is and what each task is expected to give."""

    root: Path
    tasks: dict[str, Expectation] = field(default_factory=dict)

    @property
    def tasks_dir(self) -> Path:
        return self.root / TASKS_DIR

    @property
    def scripts_dir(self) -> Path:
        return self.root / SCRIPTS_DIR

    @property
    def projects_dir(self) -> Path:
        return self.root / PROJECTS_DIR

    @property
    def by_category(self) -> dict[str, list[str]]:
        return {c: [i for i, t in self.tasks.items() if t.category == c] for c in CATEGORIES}

    def ids(self, category: str | None = None) -> list[str]:
        return [i for i, t in self.tasks.items() if category in (None, t.category)]

    @property
    def without_golden(self) -> list[str]:
        return [i for i, t in self.tasks.items() if t.golden is None]


def _write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def build_published_set(root: Path, ids: Iterable[str] | None = None) -> PublishedSet:
    """Write the set (or only the tasks `ids`) at `root`; return what to expect of it."""
    root = Path(root)
    specs = all_specs()
    if ids is not None:
        wanted = set(ids)
        unknown = wanted - {s.id for s in specs}
        if unknown:
            raise KeyError(f"no such tasks: {', '.join(sorted(unknown))}")
        specs = [s for s in specs if s.id in wanted]
    out = PublishedSet(root)
    built: set[str] = set()
    for spec in specs:
        text = json.dumps(spec.task_json(), indent=2, ensure_ascii=False) + "\n"
        _write(out.tasks_dir / spec.category / f"{spec.id}.json", text)
        _write(out.scripts_dir / f"{spec.id}.js", spec.script())
        for name, make in ((spec.initial, spec.make_initial), (spec.golden, spec.make_golden)):
            if name and make and name not in built:
                _write(out.projects_dir / name, make().build())
                built.add(name)
        out.tasks[spec.id] = Expectation(
            id=spec.id,
            category=spec.category,
            initial=spec.initial,
            golden=spec.golden,
            golden_passes=True if spec.golden else None,
            initial_passes=spec.initial_passes,
            program_s=spec.program_s,
            limits_s=sum(c.limit_s for c in spec.cases),
            timeout=spec.timeout,
        )
    _write(out.scripts_dir / "evaluation_utils.js", HELPER.read_text(encoding="utf-8"))
    lists = {c: [f"{i}.json" for i in out.by_category[c]] for c in CATEGORIES}
    _write(out.tasks_dir / "all_tasks.json", json.dumps(lists, indent=2) + "\n")
    return out


def reference_projects(ids: Iterable[str] | None = None) -> dict[str, bytes]:
    """Solutions of the tasks without golden project (not part of the set), by task id."""
    wanted = None if ids is None else set(ids)
    return {
        s.id: s.reference().build()
        for s in all_specs()
        if s.reference is not None and (wanted is None or s.id in wanted)
    }


__all__ = ["COUNTS", "Expectation", "PublishedSet", "build_published_set", "reference_projects"]
