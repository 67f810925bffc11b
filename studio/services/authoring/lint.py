"""Lint rules for a task: problems an author can fix before asking for review.

Each finding says what is wrong and how to fix it, in one line each. Errors make the task
wrong or unjudgeable (a name the agent cannot know, a project without its assets, no fresh
passing check); warnings lower its quality (a name the agent could find in the initial
project but is not told, surviving mutants, a very short instruction).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from studio.models.check import Verdict
from studio.services.authoring.check_record import CheckRecord, is_fresh
from studio.services.authoring.names import has_name, mentions
from studio.services.authoring.sac_lint import is_cut_off, unstated
from studio.services.authoring.script_refs import Ref, RefKind, script_refs
from studio.services.authoring.starter import PLACEHOLDER_INSTRUCTION, PLACEHOLDER_MARKER
from studio.services.core.errors import ProjectFileError, cut
from studio.services.core.sb3 import missing_assets, read_project_json
from studio.services.core.store import TaskFolder

__all__ = [
    "MAX_NAME_IN_LINE", "RULES", "E", "Finding", "Level", "LintFinding", "W", "finding_of",
    "has_errors", "level_of", "lint_task", "to_json",
]  # fmt: skip


class Level(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One problem: its level, a stable code, what is wrong and how to fix it."""

    level: Level
    code: str
    message: str
    fix: str


class LintFinding(Protocol):
    """What shows or weighs a finding needs of it (a Finding; a level may be a plain str)."""

    @property
    def level(self) -> object: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def fix(self) -> str: ...


def level_of(finding: LintFinding) -> str:
    """The level as a plain lower-case string (a StrEnum or a str)."""
    return str(getattr(finding.level, "value", finding.level)).lower()


E, W = Level.ERROR, Level.WARNING
_PLACEHOLDER = re.compile(r"^\s*(todo|tbd|fixme|xxx|lorem ipsum|instruction\b|describe\b)", re.I)
_SHORT_INSTRUCTION = 20
MAX_NAME_IN_LINE = 80  # characters of a name (sprite, variable, file) echoed in a fix


@dataclass
class _Task:
    """What the rules look at, read once."""

    entry: TaskFolder
    script: str | None = None
    projects: dict[str, dict[str, Any]] = field(default_factory=dict)  # "initial"/"golden"

    @property
    def reference(self) -> dict[str, Any] | None:
        """The project the script is written against: golden, else initial."""
        return self.projects.get("golden") or self.projects.get("initial")


def lint_task(entry: TaskFolder, check: CheckRecord | None) -> list[Finding]:
    """Every finding for the task in `entry`; `check` is its last check record (or None)."""
    task = _Task(entry)
    findings = _instruction(entry.task.instruction)
    findings += _script(task)
    findings += _projects(task)
    refs = _unique(script_refs(task.script)) if task.script is not None else []
    if task.script is not None:
        findings += _mentions(task, refs)
        findings += _names_exist(task, refs)
    findings += _alignment(task, {(ref.kind.value, ref.name.lower()) for ref in refs})
    findings += _check(entry, check)
    return sorted(findings, key=lambda f: f.level is not E)


def _unique(refs: list[Ref]) -> list[Ref]:
    seen: dict[tuple[RefKind, str], Ref] = {}
    for ref in refs:
        seen.setdefault((ref.kind, ref.name), ref)
    return list(seen.values())


# code -> (level, how to fix); fixes may use the keyword arguments of `finding_of`.
RULES: dict[str, tuple[Level, str]] = {
    "instruction-empty": (E, "Write what the agent must make the project do."),
    "instruction-placeholder": (E, "Replace it with what the agent must do."),
    "instruction-short": (W, "Say exactly what behaviour the tests check."),
    "script-unreadable": (E, "Restore the evaluation script or point task.json at it."),
    "script-placeholder": (E, "Replace the placeholder test with real tests of the instruction."),
    "script-no-export": (E, "End it with module.exports = async (vm, config, cleanup) => ..."),
    "project-unreadable": (E, "Restore {file} or save the {role} project again."),
    "project-invalid": (E, "Save the {role} project again from the editor."),
    "project-assets": (E, "Save the {role} project again from the editor so it has its assets."),
    "golden-unchanged": (E, "Make the golden project solve the task."),
    "unmentioned": (E, "Name the {kind} '{name}' in the instruction."),
    "unmentioned-visible": (W, "Name the {kind} '{name}' in the instruction."),
    "unknown-name": (E, "Fix the name in the script or add the {kind} to the {role} project."),
    "unknown-message": (W, "Fix the message in the script or use it in the {role} project."),
    "never-checked": (E, "Run the adversarial check."),
    "check-stale": (E, "Run the adversarial check again."),
    "golden-fails": (E, "Fix the golden project or the script until every test passes."),
    "check-invalid": (E, "Fix the problem and run the check again."),
    "check-flaky": (E, "Wait for the program's state instead of fixed times; check again."),
    "mutants-survive": (W, "Strengthen the tests or mark the survivors equivalent (why)."),
    "instruction-cut": (W, "Finish the sentence: say everything the program must do."),
    "instruction-unstated": (
        W,
        "State the {kind} {value} in the instruction, or change the golden.",
    ),
    "instruction-unused": (W, "Drop the count {value} or make the golden repeat that often."),
}


def finding_of(code: str, message: str, **fmt: str) -> Finding:
    """One finding; names and values from the task are cut (`errors.cut`) to keep it a line."""
    level, fix = RULES[code]
    short = {key: cut(value, MAX_NAME_IN_LINE) for key, value in fmt.items()}
    return Finding(level, code, cut(message), fix.format(**short))


def _instruction(text: str) -> list[Finding]:
    text = text.strip()
    if not text:
        return [finding_of("instruction-empty", "The instruction is empty.")]
    if text == PLACEHOLDER_INSTRUCTION or _PLACEHOLDER.match(text):
        return [
            finding_of(
                "instruction-placeholder", f"The instruction is a placeholder: '{text[:60]}'."
            )
        ]
    if len(text) < _SHORT_INSTRUCTION:
        return [finding_of("instruction-short", f"The instruction is very short: '{text}'.")]
    return []


def _script(task: _Task) -> list[Finding]:
    name = task.entry.task.evaluation.script
    try:
        task.script = task.entry.script_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [finding_of("script-unreadable", f"{name} cannot be read ({exc}).")]
    out = []
    if PLACEHOLDER_MARKER in task.script:
        out.append(finding_of("script-placeholder", f"{name} still has the placeholder test."))
    if "module.exports" not in task.script:
        out.append(finding_of("script-no-export", f"{name} does not assign module.exports."))
    return out


def _projects(task: _Task) -> list[Finding]:
    out = []
    paths = {"initial": task.entry.initial_path, "golden": task.entry.golden_path}
    for role, path in paths.items():
        if path is None:
            continue
        try:
            data = path.read_bytes()
            project = read_project_json(data, path.name)
        except OSError as exc:
            problem = f"The {role} project {path.name} cannot be read ({exc.strerror or exc})."
            out.append(finding_of("project-unreadable", problem, file=path.name, role=role))
            continue
        except ProjectFileError as exc:
            out.append(finding_of("project-invalid", f"The {role} project {exc}.", role=role))
            continue
        task.projects[role] = project
        absent = missing_assets(data, project)
        if absent:
            shown = ", ".join(absent[:3]) + (" ..." if len(absent) > 3 else "")
            problem = f"The {role} project {path.name} lacks {len(absent)} asset(s): {shown}."
            out.append(finding_of("project-assets", problem, role=role))
    golden, initial = task.projects.get("golden"), task.projects.get("initial")
    if golden is not None and golden == initial:
        problem = "The golden project is the same as the initial project."
        out.append(finding_of("golden-unchanged", problem))
    return out


def _alignment(task: _Task, covered: set[tuple[str, str]]) -> list[Finding]:
    """NL2Scratch's alignment check as a lint (studio.services.authoring.sac_lint); names the
    script reads (`covered`, kind and lower-case name) are the `unmentioned` rules' already."""
    text = task.entry.task.instruction
    if is_cut_off(text):
        tail = text.strip()[-40:]
        return [finding_of("instruction-cut", f"The instruction ends mid-sentence: '...{tail}'.")]
    golden = task.projects.get("golden")
    if golden is None:
        return []
    missing, extra = unstated(task.entry.task.category, text, golden, task.projects.get("initial"))
    out = [
        finding_of(
            "instruction-unstated",
            f"The golden's new blocks use the {kind} {value!r}, which the instruction "
            "never states.",
            kind=kind,
            value=repr(value),
        )
        for kind, value in missing
        if (kind, value.lower()) not in covered
    ]
    out += [
        finding_of(
            "instruction-unused",
            f"The instruction says {value} times, but no repeat of the golden counts {value}.",
            value=value,
        )
        for value in extra
    ]
    return out


def _mentions(task: _Task, refs: list[Ref]) -> list[Finding]:
    out = []
    script = task.entry.task.evaluation.script
    for ref in refs:
        if mentions(task.entry.task.instruction, ref):
            continue
        kind = ref.kind.value
        problem = (
            f"{script} line {ref.line} uses the {kind} '{ref.name}', "
            "which the instruction does not mention"
        )
        if has_name(task.projects.get("initial"), ref):
            out.append(finding_of("unmentioned-visible", problem + ".", kind=kind, name=ref.name))
        else:
            problem += " and the initial project lacks, so the agent cannot know it."
            out.append(finding_of("unmentioned", problem, kind=kind, name=ref.name))
    return out


def _names_exist(task: _Task, refs: list[Ref]) -> list[Finding]:
    reference = task.reference
    if reference is None:
        return []
    role = "golden" if task.projects.get("golden") else "initial"
    script = task.entry.task.evaluation.script
    out = []
    for ref in refs:
        if ref.kind is RefKind.KEY or has_name(reference, ref):
            continue
        kind = ref.kind.value
        problem = (
            f"{script} line {ref.line} uses the {kind} '{ref.name}', "
            f"which the {role} project does not have."
        )
        code = "unknown-message" if ref.kind is RefKind.MESSAGE else "unknown-name"
        out.append(finding_of(code, problem, kind=kind, role=role))
    return out


def _check(entry: TaskFolder, record: CheckRecord | None) -> list[Finding]:
    if record is None:
        return [finding_of("never-checked", "The task has never been checked.")]
    when = record.when.strftime("%Y-%m-%d %H:%M UTC")
    if not is_fresh(entry, record):
        return [finding_of("check-stale", f"Files changed since the last check ({when}).")]
    if record.golden_passed is False:
        return [finding_of("golden-fails", f"The golden project failed the last check ({when}).")]
    if record.verdict is Verdict.INVALID:
        why = record.errors[0] if record.errors else "see the check results"
        return [finding_of("check-invalid", f"The last check found the task invalid: {why}.")]
    if record.verdict is Verdict.FLAKY:
        return [finding_of("check-flaky", "Some tests gave different verdicts across reruns.")]
    if record.survivors:
        shown = ", ".join(record.survivors[:3]) + (" ..." if len(record.survivors) > 3 else "")
        problem = f"{len(record.survivors)} mutant(s) survived the last check: {shown}."
        return [finding_of("mutants-survive", problem)]
    return []


def has_errors(findings: list[Finding]) -> bool:
    """True when any finding is an error (a task with errors should not go to review)."""
    return any(f.level is E for f in findings)


def to_json(findings: list[Finding]) -> str:
    """The findings as a JSON array (for the CLI and reports)."""
    return json.dumps([f.__dict__ | {"level": f.level.value} for f in findings], indent=2)
