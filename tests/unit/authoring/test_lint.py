"""Lint rules: each finding says what is wrong and how to fix it."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.models.check import Verdict
from studio.services.authoring.check_record import load_check, save_check
from studio.services.authoring.library_ops import create_task
from studio.services.authoring.lint import RULES, Finding, Level, has_errors, lint_task, to_json
from studio.services.core.sb3 import build_sb3
from studio.services.core.store import TaskFolder, load_task, save_task
from tests.unit.authoring.conftest import TASKS
from tests.unit.authoring.support import passing_check, survivor

Bundled = Callable[[str], TaskFolder]


def checked(entry: TaskFolder, **fields: object) -> list[Finding]:
    """Lint right after a check with `fields` (a passing check by default)."""
    record = save_check(entry, passing_check(entry.task.id, **fields))
    return lint_task(entry, record)


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


def with_instruction(entry: TaskFolder, text: str) -> TaskFolder:
    task = entry.task.model_copy(update={"instruction": text})
    save_task(TaskFolder(task, entry.folder))
    return load_task(entry.folder)


@pytest.mark.parametrize("name", sorted(p.name for p in TASKS.iterdir() if p.is_dir()))
def test_bundled_tasks_are_clean_after_a_passing_check(bundled: Bundled, name: str) -> None:
    assert checked(bundled(name)) == []


def test_every_finding_has_a_message_and_a_fix() -> None:
    for level, fix in RULES.values():
        assert isinstance(level, Level) and fix.endswith(".")


def test_a_new_task_lists_what_to_do(library: Path) -> None:
    entry = create_task(library, "t1", "create", "")
    findings = lint_task(entry, load_check(entry))
    assert codes(findings) == [
        "instruction-placeholder",
        "script-placeholder",
        "golden-unchanged",
        "never-checked",
    ]
    assert has_errors(findings)
    assert all(f.message and f.fix for f in findings)


def test_short_instruction_is_a_warning(bundled: Bundled) -> None:
    entry = with_instruction(bundled("create_cat_walk"), "Cat walks.")
    findings = lint_task(entry, None)
    short = next(f for f in findings if f.code == "instruction-short")
    assert short.level is Level.WARNING


def test_unmentioned_name_the_agent_cannot_see_is_an_error(bundled: Bundled) -> None:
    entry = bundled("extend_balloon_pops")
    text = entry.task.instruction.replace("named pops", "").replace("pops", "it")
    findings = checked(with_instruction(entry, text))
    assert codes(findings) == ["unmentioned"]
    assert findings[0].level is Level.ERROR
    assert "variable 'pops'" in findings[0].message and "line 10" in findings[0].message
    assert findings[0].fix == "Name the variable 'pops' in the instruction."


def test_unmentioned_name_in_the_initial_project_is_a_warning(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    text = entry.task.instruction.replace("the score", "the counter")
    findings = checked(with_instruction(entry, text))
    assert codes(findings) == ["unmentioned-visible"]
    assert findings[0].level is Level.WARNING and not has_errors(findings)


def test_unmentioned_key(bundled: Bundled) -> None:
    entry = bundled("extend_frog_jump")
    text = entry.task.instruction.replace("when the space key is pressed", "when asked")
    findings = checked(with_instruction(entry, text))
    assert codes(findings) == ["unmentioned"]
    assert "key 'space'" in findings[0].message


def test_names_missing_from_golden(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    script = entry.script_path.read_text().replace("'Coin'", "'Gem'")
    script += "\nEU.broadcast(vm, 'score reset');\n"
    entry.script_path.write_text(script)
    text = entry.task.instruction + " The Gem too. Broadcast score reset."
    findings = checked(with_instruction(entry, text))
    assert codes(findings) == ["unknown-name", "unknown-message"]
    assert "sprite 'Gem', which the golden project does not have" in findings[0].message
    assert findings[1].level is Level.WARNING


def test_without_golden_names_are_checked_in_initial(bundled: Bundled) -> None:
    entry = bundled("extend_balloon_pops")
    task = entry.task.model_copy(update={"golden_project": None})
    save_task(TaskFolder(task, entry.folder))
    findings = checked(load_task(entry.folder))
    assert "unknown-name" in codes(findings)
    assert "the initial project does not have" in findings[0].message


def test_missing_assets(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    golden = entry.golden_path
    assert golden is not None
    with zipfile.ZipFile(io.BytesIO(golden.read_bytes())) as zf:
        project = json.loads(zf.read("project.json"))
        assets = {n: zf.read(n) for n in zf.namelist() if n != "project.json"}
    dropped = sorted(assets)[0]
    del assets[dropped]
    golden.write_bytes(build_sb3(project, assets))
    findings = checked(entry)
    assert codes(findings) == ["project-assets"]
    assert dropped in findings[0].message and "golden project" in findings[0].message


def test_broken_or_missing_projects(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    entry.initial_path.write_bytes(b"not a zip")
    assert entry.golden_path is not None
    entry.golden_path.unlink()
    findings = lint_task(entry, None)
    assert codes(findings)[:2] == ["project-invalid", "project-unreadable"]
    assert "initial.sb3" in findings[0].message and "golden.sb3" in findings[1].fix


def test_unreadable_script(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    entry.script_path.unlink()
    assert codes(lint_task(entry, None)) == ["script-unreadable", "never-checked"]


def test_script_without_export(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    entry.script_path.write_text("EU.requireSprite(vm, 'Coin');\n")
    assert codes(checked(entry)) == ["script-no-export"]


def test_never_checked_and_stale(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    assert codes(lint_task(entry, None)) == ["never-checked"]
    record = save_check(entry, passing_check(entry.task.id))
    entry.script_path.write_text(entry.script_path.read_text() + "\n// edited\n")
    findings = lint_task(entry, record)
    assert codes(findings) == ["check-stale"]
    assert record.when.strftime("%Y-%m-%d") in findings[0].message


@pytest.mark.parametrize(
    ("fields", "code", "level"),
    [
        (
            {"golden_passed": False, "verdict": Verdict.INVALID, "ok": False},
            "golden-fails",
            "error",
        ),
        ({"verdict": Verdict.INVALID, "errors": ["initial passes"]}, "check-invalid", "error"),
        ({"verdict": Verdict.FLAKY, "ok": False}, "check-flaky", "error"),
        ({"verdict": Verdict.WEAK, "survivors": [survivor("m1")]}, "mutants-survive", "warning"),
    ],
)
def test_check_outcomes(bundled: Bundled, fields: dict[str, object], code: str, level: str) -> None:
    findings = checked(bundled("debug_score_reset"), **fields)
    assert codes(findings) == [code]
    assert findings[0].level.value == level


def test_errors_come_before_warnings_and_serialize(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    entry = with_instruction(entry, entry.task.instruction.replace("the score", "the counter"))
    findings = lint_task(entry, None)
    assert [f.level.value for f in findings] == ["error", "warning"]
    assert [d["code"] for d in json.loads(to_json(findings))] == [
        "never-checked",
        "unmentioned-visible",
    ]
