"""The last check of a task, kept beside it, and whether it still describes the files."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from studio.models.check import Verdict
from studio.services.authoring.check_record import (
    RECORD_FILE,
    discard_check,
    fingerprint,
    is_fresh,
    last_checks,
    load_check,
    save_check,
)
from studio.services.authoring.metadata import metadata_from_files
from studio.services.authoring.review import submit
from studio.services.core.store import TaskFolder, load_task, save_task
from tests.unit.authoring.support import passing_check, survivor

Bundled = Callable[[str], TaskFolder]
WHEN = datetime(2025, 3, 1, 12, 30, tzinfo=UTC)


def test_save_and_load_round_trip(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    check = passing_check(
        "debug_score_reset",
        verdict=Verdict.WEAK,
        survivors=[survivor("m3"), survivor("m7")],
        errors=["something odd"],
        mutants_killed=2,
    )
    saved = save_check(entry, check, now=WHEN)
    loaded = load_check(entry)
    assert loaded == saved
    assert loaded.verdict is Verdict.WEAK and loaded.ok and loaded.when == WHEN
    assert loaded.survivors == ["m3", "m7"] and loaded.errors == ["something odd"]
    assert (loaded.mutants_killed, loaded.mutants_total, loaded.seconds) == (2, 4, 12.5)
    raw = json.loads((entry.folder / RECORD_FILE).read_text())
    assert raw["when"].startswith("2025-03-01T12:30:00") and len(raw["fingerprint"]) == 64


def test_no_record_reads_as_none(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    assert load_check(entry) is None
    assert not is_fresh(entry, None)


@pytest.mark.parametrize("content", ["{ not json", '{"verdict": "great"}', "[]", ""])
def test_a_broken_record_reads_as_none(bundled: Bundled, content: str) -> None:
    entry = bundled("debug_score_reset")
    (entry.folder / RECORD_FILE).write_text(content)
    assert load_check(entry) is None


def test_last_checks_by_task_id(bundled: Bundled) -> None:
    checked, unchecked = bundled("debug_score_reset"), bundled("create_cat_walk")
    save_check(checked, passing_check("debug_score_reset"), now=WHEN)
    records = last_checks([checked, unchecked])
    assert list(records) == ["debug_score_reset"]
    assert records["debug_score_reset"] == load_check(checked)


def test_fresh_right_after_the_check(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    record = save_check(entry, passing_check("debug_score_reset"))
    assert is_fresh(entry, record)


@pytest.mark.parametrize("name", ["initial.sb3", "golden.sb3", "evaluate.js"])
def test_changing_a_checked_file_makes_it_stale(bundled: Bundled, name: str) -> None:
    entry = bundled("debug_score_reset")
    record = save_check(entry, passing_check("debug_score_reset"))
    path = entry.folder / name
    path.write_bytes(path.read_bytes() + b"\n")
    assert not is_fresh(entry, record)


def test_changing_task_json_content_makes_it_stale(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    record = save_check(entry, passing_check("debug_score_reset"))
    changed = entry.task.model_copy(update={"instruction": "Something else entirely."})
    save_task(TaskFolder(changed, entry.folder))
    assert not is_fresh(entry, record)


def test_review_metadata_and_formatting_do_not_make_it_stale(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    record = save_check(entry, passing_check("debug_score_reset"))
    reviewed = submit(entry.task, "ann")
    reviewed.metadata.tags.append("new tag")
    save_task(TaskFolder(reviewed, entry.folder))
    save_task(TaskFolder(metadata_from_files(load_task(entry.folder)), entry.folder))
    raw = json.loads((entry.folder / "task.json").read_text())
    (entry.folder / "task.json").write_text(json.dumps(raw, indent=4))
    assert is_fresh(entry, record)


def test_fingerprint_follows_the_files_task_json_names(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    before = fingerprint(entry.folder)
    (entry.folder / "check.js").write_bytes(entry.script_path.read_bytes())
    moved = entry.task.model_copy(deep=True)
    moved.evaluation.script = "check.js"
    save_task(TaskFolder(moved, entry.folder))
    assert fingerprint(entry.folder) != before


def test_fingerprint_of_a_broken_task_json_still_works(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    (entry.folder / "task.json").write_text("{ broken")
    first = fingerprint(entry.folder)
    (entry.folder / "task.json").write_text("{ broken too")
    assert fingerprint(entry.folder) != first


def test_discard_check(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    save_check(entry, passing_check("debug_score_reset"))
    discard_check(entry)
    discard_check(entry)
    assert load_check(entry) is None


def test_edits_during_the_check_leave_it_stale(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    at_start = fingerprint(entry.folder)
    entry.script_path.write_text(entry.script_path.read_text() + "\n// edited meanwhile\n")
    record = save_check(entry, passing_check("debug_score_reset"), started_fingerprint=at_start)
    assert not is_fresh(entry, record)
