"""What one task of the set is, and how its evaluation script is written.

A `TaskSpec` holds everything the set writes for a task: the task file fields, the initial
project, the golden project (its own `<id>_golden.sb3`, a family golden shared by the debug
tasks of one starter project, or none), and the cases of the evaluation script.

A `Case` is one named check of the script: JavaScript statements run as
`async (meta) => { ... }` with the set's helpers as `EU` (window.EvaluationUtils), its own time
limit (`limit_s`), and the program time it samples (`program_s`, the sum of its waits and
sampling windows when the program behaves). `render_script` writes the script in the published
style: `module.exports = async (vm, config, cleanup) => {...}`, the cases one after another,
`cleanup()` at the end and the result `{success, passed_tests, total_tests,
partial_success_rate, details}`. Scripts never read `config`: the published service passes
`{}`, so compute scripts embed their own inputs and expected outputs.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio.services.core.projectbuild import ProjectBuilder

CATEGORIES = ("create", "debug", "extend", "compute")
Maker = Callable[[], ProjectBuilder]


@dataclass(frozen=True)
class Case:
    """One named case of an evaluation script."""

    name: str
    limit_s: float
    program_s: float
    body: str

    def __post_init__(self) -> None:
        if self.limit_s < self.program_s + 2:
            raise ValueError(f"case {self.name!r}: limit {self.limit_s} s leaves no margin")


@dataclass
class TaskSpec:
    """One task: fields of its task file, its projects and its evaluation script."""

    id: str
    category: str
    description: str
    instruction: str
    check: str  # evaluation.description
    timeout: int  # evaluation.timeout as written in the task file (not a whole-script limit)
    cases: list[Case]
    initial: str  # file name of the initial project
    make_initial: Maker
    golden: str | None  # file name of the golden project, None when the task has none
    make_golden: Maker | None
    reference: Maker | None = None  # a solution kept out of the set (tasks without golden)
    test_cases: list[dict[str, Any]] | None = None  # compute tasks
    prelude: str = ""  # JavaScript before the cases (constants, small functions)
    initial_passes: bool = False  # what the initial project is expected to get
    tags: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"{self.id}: unknown category {self.category}")
        if not 3 <= len(self.cases) <= 6:
            raise ValueError(f"{self.id}: {len(self.cases)} cases (3-6 expected)")
        if (self.golden is None) != (self.make_golden is None):
            raise ValueError(f"{self.id}: golden name and golden maker go together")
        if (self.test_cases is not None) != (self.category == "compute"):
            raise ValueError(f"{self.id}: test_cases are for compute tasks only")

    @property
    def program_s(self) -> float:
        return round(sum(c.program_s for c in self.cases), 1)

    def task_json(self) -> dict[str, Any]:
        """The task file object, fields in the published order."""
        raw: dict[str, Any] = {
            "name": self.id,
            "description": self.description,
            "type": self.category,
            "instruction": self.instruction,
            "initial_project": self.initial,
            "evaluation": {"function": self.id, "timeout": self.timeout, "description": self.check},
        }
        if self.test_cases is not None:
            raw["test_cases"] = self.test_cases
        return raw

    def script(self) -> str:
        return render_script(self)


def snippet(text: str) -> str:
    """JavaScript that several cases put before their own body, indented like case bodies."""
    return textwrap.indent(textwrap.dedent(text), " " * 8)


def js(value: Any) -> str:
    """A JavaScript literal for a Python value."""
    return json.dumps(value, ensure_ascii=False)


def _comment(text: str, prefix: str) -> list[str]:
    return textwrap.wrap(text, 96, initial_indent=prefix, subsequent_indent="//   ")


def render_script(spec: TaskSpec) -> str:
    """The task's evaluation script in the published style."""
    lines = [f"// Evaluation script for {spec.id} ({spec.category})."]
    lines += _comment(spec.instruction, "// Task: ")
    lines += _comment(spec.check, "// Checks: ")
    lines.append(
        f"// {len(spec.cases)} cases run one after another, each with its own time limit; they"
        f" sample the program in real time (about {spec.program_s:g} s in all)."
    )
    lines.append("// Cases:")
    lines += [f"//   {n}. {c.name}" for n, c in enumerate(spec.cases, 1)]
    lines.append("module.exports = async (vm, config, cleanup) => {")
    lines.append("  const EU = window.EvaluationUtils;")
    if spec.prelude.strip():
        lines += textwrap.indent(textwrap.dedent(spec.prelude).strip("\n"), "  ").splitlines()
    lines.append("  const details = [];")
    for number, case in enumerate(spec.cases, 1):
        lines.append("")
        lines.append(f"  // {number}. {case.name} (samples about {case.program_s:g} s)")
        head = f"  details.push(await EU.runCase(vm, {js(case.name)}, {int(case.limit_s * 1000)}"
        lines.append(head + ", async (meta) => {")
        body = textwrap.dedent(case.body).strip("\n")
        lines += textwrap.indent(body, "    ").splitlines()
        lines.append("  }));")
    lines += ["", "  cleanup();", "  return EU.summarize(details);", "};", ""]
    return "\n".join(lines)
