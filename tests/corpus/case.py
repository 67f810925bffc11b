"""A conformance case: one evaluation script, the programs it judges and the verdicts expected.

A case is a small task: its script lives in `tests/corpus/scripts/<case id>.js`, each of its
variants is a program built with `studio.services.core.projectbuild` ("right" does what the task
asks, "wrong" is a plausible buggy program), and each variant names the verdicts the script
must give it: a list of (test name, passed) in the script's order. The verdicts are those of
the published benchmark's runtime (a real browser, real time); the studio's evaluation page
must give the same on the real clock and on the accelerated virtual clock.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.services.core.projectbuild import ProjectBuilder
from studio.services.core.store import TaskFolder, load_task

SCRIPTS = Path(__file__).resolve().parent / "scripts"
REAL_BUDGET_S = 70.0  # what all runs of all cases together may take on the real clock
Verdicts = tuple[tuple[str, bool], ...]


def verdicts(*pairs: tuple[str, bool]) -> Verdicts:
    return tuple(pairs)


def all_pass(*names: str) -> Verdicts:
    return tuple((n, True) for n in names)


@dataclass(frozen=True)
class Variant:
    """One program a case judges, and the verdicts it must get."""

    name: str
    build: Callable[[], ProjectBuilder]
    expected: Verdicts


@dataclass(frozen=True)
class Case:
    """A script and its variants. `real_s` is about how long one run of the script takes on
    the real clock (the corpus keeps the sum over all runs near a minute)."""

    id: str
    summary: str
    variants: tuple[Variant, ...]
    real_s: float
    timeout_s: float = 40.0
    script: str = ""  # the script's file name without .js when cases share one (default: id)

    @property
    def script_path(self) -> Path:
        return SCRIPTS / f"{self.script or self.id}.js"

    def params(self) -> list[tuple[Case, Variant]]:
        return [(self, v) for v in self.variants]

    def write_task(self, folder: Path, script: str | None = None) -> TaskFolder:
        """A task folder for this case: its script (or `script`, the source of another), the
        first variant as golden, the last as initial project."""
        folder.mkdir(parents=True, exist_ok=True)
        source = script if script is not None else self.script_path.read_text("utf-8")
        (folder / "evaluate.js").write_text(source, "utf-8")
        (folder / "golden.sb3").write_bytes(self.variants[0].build().build())
        (folder / "initial.sb3").write_bytes(self.variants[-1].build().build())
        task: dict[str, Any] = {
            "id": self.id,
            "category": "create",
            "instruction": self.summary,
            "evaluation": {"script": "evaluate.js", "timeout_s": self.timeout_s},
        }
        (folder / "task.json").write_text(json.dumps(task, indent=2), "utf-8")
        return load_task(folder)


def param_id(param: tuple[Case, Variant]) -> str:
    case, variant = param
    return f"{case.id}-{variant.name}"


def right_and_wrong(
    case_id: str,
    summary: str,
    build: Callable[[bool], ProjectBuilder],
    names: tuple[str, ...],
    wrong: tuple[bool, ...],
    real_s: float,
    script: str = "",
) -> Case:
    """A case of two programs: build(True) passes every test `names`; build(False), the wrong
    program, gets the verdicts `wrong` (in the same order)."""
    return Case(
        id=case_id,
        summary=summary,
        variants=(
            Variant("right", lambda: build(True), all_pass(*names)),
            Variant("wrong", lambda: build(False), verdicts(*zip(names, wrong, strict=True))),
        ),
        real_s=real_s,
        script=script,
    )
