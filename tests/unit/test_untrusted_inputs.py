"""JSON from outside: depth and size limits with named errors; problem lines stay short."""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from pathlib import Path

import pytest

from studio.models.errors import StudioError
from studio.services.authoring.lint import finding_of
from studio.services.checking.checker import CheckOptions, check_tasks
from studio.services.core.errors import MAX_PROBLEM, ProjectFileError, TaskFileError
from studio.services.core.jsonl import json_lines
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task, scan_library
from studio.services.core.untrusted_json import MAX_DEPTH, JsonInputError, loads, read_json
from studio.services.formats.scratchworld.tasks import import_scratchworld
from studio.services.formats.scratchworld.tasks.reports import Problem
from studio.services.runs.trajectories.archive import MANIFEST, read_manifest
from studio.services.runtime.clock_agreement import AgreementCache
from tests.helpers.scratchworld_fixture import build_set
from tests.helpers.tasks import make_task
from tests.unit.test_check_logic import _ClockFake

# Deeper than Python's parser can follow (RecursionError), and deeper than the limit only.
ABYSS = "[" * 100_000 + "]" * 100_000
DEEP = '{"a": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "}"


def _deep_zip(member: str, text: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(member, text)
    return buf.getvalue()


@pytest.mark.parametrize("text", [ABYSS, DEEP], ids=["beyond-python", "beyond-limit"])
def test_deep_json_is_a_named_error(text: str, tmp_path: Path) -> None:
    with pytest.raises(JsonInputError, match=r"^in\.json: nested more than 100 levels"):
        loads(text, "in.json")
    (tmp_path / "f.json").write_text(text)
    with pytest.raises(JsonInputError, match=r"f\.json: nested more than"):
        read_json(tmp_path / "f.json")


def test_size_limit_is_checked_before_parsing(tmp_path: Path) -> None:
    (tmp_path / "big.json").write_text(json.dumps("x" * 2000))
    with pytest.raises(JsonInputError, match=r"big\.json: 2002 bytes, more than the 1000"):
        read_json(tmp_path / "big.json", max_bytes=1000)
    assert loads('{"a": [[1]]}', "ok.json") == {"a": [[1]]}


def test_deep_task_json_is_named_and_the_library_scan_goes_on(tmp_path: Path) -> None:
    make_task(tmp_path / "lib" / "good")
    make_task(tmp_path / "lib" / "deep")
    (tmp_path / "lib" / "deep" / "task.json").write_text(ABYSS)
    with pytest.raises(TaskFileError, match=r"task\.json: nested more than"):
        load_task(tmp_path / "lib" / "deep")
    scan = scan_library(tmp_path / "lib")
    assert [t.folder.name for t in scan.tasks] == ["good"]
    assert [e.path.parent.name for e in scan.errors] == ["deep"]


def test_deep_project_json_in_an_sb3_is_a_project_error() -> None:
    with pytest.raises(ProjectFileError, match=r"x\.sb3: project\.json is not valid JSON .*nested"):
        read_project_json(_deep_zip("project.json", ABYSS), "x.sb3")


def test_deep_trajectory_manifest_and_lines_are_named(tmp_path: Path) -> None:
    (tmp_path / "run.zip").write_bytes(_deep_zip(MANIFEST, ABYSS))
    with pytest.raises(StudioError, match=r"run\.zip: manifest\.json is not valid JSON .*nested"):
        read_manifest(tmp_path / "run.zip")
    (tmp_path / "lines.jsonl").write_text('{"a": 1}\n' + ABYSS + "\n")
    with pytest.raises(TaskFileError, match=r"line 2: not JSON .*nested"):
        list(json_lines(tmp_path / "lines.jsonl"))


def test_a_deep_task_file_in_a_checkout_is_skipped_and_the_others_imported(
    tmp_path: Path,
) -> None:
    sw = build_set(tmp_path / "sw")
    (sw.tasks / "create" / "deep.json").write_text(ABYSS)
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert sorted(report.imported) == sorted(sw.ids)
    assert [(p.file.name, "nested" in p.problem) for p in report.skipped] == [("deep.json", True)]


def test_check_of_a_library_reports_the_task_with_a_deep_project_and_checks_the_others(
    tmp_path: Path,
) -> None:
    good = load_task(make_task(tmp_path / "good", task_id="good", category="debug"))
    bad = load_task(make_task(tmp_path / "bad", task_id="bad", category="debug"))
    (tmp_path / "bad" / "golden.sb3").write_bytes(_deep_zip("project.json", ABYSS))
    report = asyncio.run(
        check_tasks(
            _ClockFake(),  # type: ignore[arg-type]
            [bad, good],
            options=CheckOptions(mutants=2, reruns=1),
            agreement=AgreementCache(tmp_path / "c.json"),
        )
    )
    by_id = {t.id: t for t in report.tasks}
    assert not by_id["bad"].ok and "golden.sb3: project.json" in by_id["bad"].errors[0]
    assert by_id["good"].golden_passed and by_id["good"].mutants_total == 2


def test_problem_lines_cut_long_values_with_a_marker() -> None:
    value = "v" * 3_000_000
    for text in (
        str(TaskFileError("task.json", f"names {value}", field=value)),
        str(ProjectFileError("x.sb3", value)),
        str(Problem(Path("a.json"), f"{value!r} is not a plain file name", value)),
    ):
        assert len(text) < MAX_PROBLEM + 200 and "more characters cut]" in text
    finding = finding_of(
        "unmentioned", f"The sprite '{value}' is not named.", kind="sprite", name=value
    )
    assert len(finding.message) + len(finding.fix) < 2 * MAX_PROBLEM
    assert "more characters cut]" in finding.fix


def test_other_readers_of_outside_json_name_a_deep_file(tmp_path: Path) -> None:
    from studio.services.authoring.library_ops import validate_new_id
    from studio.services.diagnostics.report import SUMMARY_FILE, load_diagnostics

    make_task(tmp_path / "lib" / "deep")
    (tmp_path / "lib" / "deep" / "task.json").write_text(ABYSS)
    validate_new_id(tmp_path / "lib", "fresh")  # a broken task.json holds no id
    (tmp_path / "runs" / "r1").mkdir(parents=True)
    (tmp_path / "runs" / "r1" / SUMMARY_FILE).write_text(ABYSS)
    rows, problems = load_diagnostics(tmp_path / "runs")
    assert rows == [] and "summary.json: cannot be read (nested more than" in problems[0]


def test_import_warnings_are_cut(tmp_path: Path) -> None:
    sw = build_set(tmp_path / "sw")
    (sw.tasks / "long_list.json").write_text(json.dumps(["x" * 100_000]))
    report = import_scratchworld(sw.root, tmp_path / "lib")
    warnings = [w for w in report.to_json()["warnings"] if "x" * 300 in w]
    assert warnings and all(len(w) < MAX_PROBLEM + 100 for w in warnings)
    assert all(w.endswith("more characters cut]") for w in warnings)
