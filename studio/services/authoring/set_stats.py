"""What a task set covers, figured as the ScratchWorld paper describes its set (its Table 1 and
"Statistics and Complexity": 83 tasks; 9.14 blocks modified on average from initial to golden,
at most 32 added; compute tasks build 16.96 blocks on average; 82 block types across 8
categories), so that a library's figures sit beside the paper's.

Per task, from its projects (`studio.services.core.diff`):
- `modified_blocks`: the atomic block edits that turn the initial project into the golden one
  (blocks added, removed or changed; the *Diff* tab's count and task.json's `blocks_changed`);
- `added_blocks`: the blocks the golden project has and the initial has not (the paper's "at
  most 32 added" is the largest, compute's "16.96 built" the compute tasks' mean);
- `block_types`: the opcodes of the golden project's blocks (not shadows: the number and menu
  slots inside blocks), each in its palette category by its prefix (`motion_` Motion, `data_`
  Variables, `procedures_`/`argument_` My Blocks, extensions by their own name);
- `instruction_words`: words of the instruction; `tests`: tests its script runs on the golden
  project (from a check's results when given, else the task's `test_cases`; unknown otherwise);
- `kill_rate`: killed / (mutants less equivalent ones) of its check (the check results given,
  else the window's last_check.json); `review`: its review state; `difficulty` ("unset" when
  the author set none).

`set_stats(tasks, checks)` sums them per category and overall as `{mean, max}` (`min` too for
lengths, tests and kill rates; `known` says over how many tasks a figure that is not always
known was taken). A task whose projects cannot be read is named in `problems` and left out of
the block figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from studio.models.diff import EditKind
from studio.models.errors import StudioError
from studio.models.task import Category
from studio.services.authoring.check_record import load_check
from studio.services.core.diff import block_types_used, diff_projects
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder

__all__ = [
    "BLOCK_CATEGORIES", "TaskFigures", "block_category", "format_stats", "set_stats",
    "task_figures",
]  # fmt: skip

BLOCK_CATEGORIES = {
    "motion": "Motion",
    "looks": "Looks",
    "sound": "Sound",
    "event": "Events",
    "control": "Control",
    "sensing": "Sensing",
    "operator": "Operators",
    "data": "Variables",
    "procedures": "My Blocks",
    "argument": "My Blocks",
}


def block_category(opcode: str) -> str:
    """The palette category of an opcode ('Motion', 'Variables', an extension's own name)."""
    prefix = opcode.split("_", 1)[0]
    return BLOCK_CATEGORIES.get(prefix, prefix.capitalize())


@dataclass
class TaskFigures:
    """One task's figures (None where its projects or its check could not tell)."""

    id: str
    category: str
    difficulty: str
    review: str
    instruction_words: int
    modified_blocks: int | None = None
    added_blocks: int | None = None
    block_types: list[str] = field(default_factory=list)
    tests: int | None = None
    kill_rate: float | None = None
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def task_figures(entry: TaskFolder, check: dict[str, Any] | None = None) -> TaskFigures:
    """The figures of one task; `check` is its entry of `studio check --json` output."""
    task = entry.task
    figures = TaskFigures(
        id=task.id,
        category=task.category.value,
        difficulty=task.metadata.difficulty or "unset",
        review=task.review.state.value,
        instruction_words=len(task.instruction.split()),
    )
    try:
        initial = load_sb3(entry.initial_path)[1]
        golden = load_sb3(entry.golden_path)[1] if entry.golden_path is not None else None
    except StudioError as exc:
        figures.problem = str(exc)
        golden = initial = None
    if initial is not None:
        if golden is None:
            figures.problem = "no golden project: no modified blocks"
            figures.block_types = block_types_used(initial)
        else:
            edits = diff_projects(initial, golden).edits
            figures.modified_blocks = len(edits)
            figures.added_blocks = sum(e.kind is EditKind.ADD for e in edits)
            figures.block_types = block_types_used(golden)
    figures.tests, figures.kill_rate = _check_figures(entry, check)
    return figures


def _check_figures(
    entry: TaskFolder, check: dict[str, Any] | None
) -> tuple[int | None, float | None]:
    tests: int | None = None
    kill: float | None = None
    if check is not None:
        golden = check.get("golden")
        if isinstance(golden, dict) and isinstance(golden.get("total_tests"), int):
            tests = golden["total_tests"]
        rate = check.get("kill_rate")
        kill = float(rate) if isinstance(rate, int | float) else None
    if kill is None:
        record = load_check(entry)
        if record is not None:
            live = record.mutants_total - record.mutants_equivalent
            kill = record.mutants_killed / live if live > 0 else None
    if tests is None and entry.task.evaluation.test_cases:
        tests = len(entry.task.evaluation.test_cases)
    return tests, kill


def _spread(values: list[int] | list[float], low: bool = False) -> dict[str, Any]:
    if not values:
        return {"mean": None, "max": None, **({"min": None} if low else {})}
    out: dict[str, Any] = {"mean": round(float(mean(values)), 2), "max": max(values)}
    if low:
        out["min"] = min(values)
    return out


def _known(values: list[Any], low: bool = True) -> dict[str, Any]:
    known = [v for v in values if v is not None]
    return {**_spread(known, low), "known": len(known)}


def _group(figures: list[TaskFigures]) -> dict[str, Any]:
    """The figures summed over some tasks."""
    modified = [f.modified_blocks for f in figures if f.modified_blocks is not None]
    added = [f.added_blocks for f in figures if f.added_blocks is not None]
    types = sorted({t for f in figures for t in f.block_types})
    by_category = Counter(block_category(t) for t in types)
    return {
        "tasks": len(figures),
        "difficulty": dict(sorted(Counter(f.difficulty for f in figures).items())),
        "modified_blocks": _spread(modified),
        "added_blocks": _spread(added),
        "block_types": len(types),
        "block_categories": dict(sorted(by_category.items())),
        "instruction_words": _spread([f.instruction_words for f in figures], low=True),
        "tests_per_task": _known([f.tests for f in figures]),
        "kill_rate": _known([f.kill_rate for f in figures]),
        "review_states": dict(sorted(Counter(f.review for f in figures).items())),
    }


def set_stats(
    tasks: list[TaskFolder], checks: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The set's figures per category and overall (see the module doc), with each task's."""
    checks = checks or {}
    figures = [task_figures(t, checks.get(t.task.id)) for t in tasks]
    order = [c.value for c in Category]
    present = sorted({f.category for f in figures}, key=order.index)
    overall = _group(figures)
    types = sorted({t for f in figures for t in f.block_types})
    overall["block_type_names"] = types
    overall["block_category_count"] = len(overall["block_categories"])
    return {
        "tasks": len(figures),
        "overall": overall,
        "categories": {c: _group([f for f in figures if f.category == c]) for c in present},
        "per_task": [f.to_json() for f in figures],
        "problems": [f"{f.id}: {f.problem}" for f in figures if f.problem],
    }


def _num(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def format_stats(stats: dict[str, Any]) -> str:
    """The figures as text: one table row per category and one for the whole set."""
    head = ["Category", "Tasks", "Modified mean", "Modified max", "Added mean", "Added max",
            "Block types", "Block cats", "Instr. words", "Tests/task", "Kill rate"]  # fmt: skip
    rows = [head]
    groups = [*stats["categories"].items(), ("all", stats["overall"])]
    for name, g in groups:
        kill = g["kill_rate"]
        rows.append([
            name, str(g["tasks"]),
            _num(g["modified_blocks"]["mean"]), _num(g["modified_blocks"]["max"]),
            _num(g["added_blocks"]["mean"]), _num(g["added_blocks"]["max"]),
            str(g["block_types"]), str(len(g["block_categories"])),
            _num(g["instruction_words"]["mean"]),
            f"{_num(g['tests_per_task']['mean'])} ({g['tests_per_task']['known']})",
            f"{_pct(kill['mean'])} ({kill['known']})",
        ])  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [
        "  ".join(
            [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        )
        for r in rows
    ]
    overall = stats["overall"]
    cats = ", ".join(f"{k} {v}" for k, v in overall["block_categories"].items())
    lines.append("")
    lines.append(
        f"{overall['block_types']} block types across {overall['block_category_count']} "
        f"categories: {cats}"
    )
    lines.append("difficulty: " + ", ".join(f"{k} {v}" for k, v in overall["difficulty"].items()))
    lines.append("review: " + ", ".join(f"{k} {v}" for k, v in overall["review_states"].items()))
    lines.append(
        "(modified: block edits initial -> golden; added: blocks only the golden has; "
        "tests and kill rate over the tasks in brackets that have them)"
    )
    lines.extend(f"problem: {p}" for p in stats["problems"])
    return "\n".join(lines) + "\n"
