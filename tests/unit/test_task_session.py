"""The authoring session: documents held unsaved, copies between them, atomic saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.errors import StudioError
from studio.services.authoring.task_session import TaskSession
from studio.services.core.store import load_task
from tests.helpers.sample_task import project_json, sb3_bytes, write_sample_task


def _session(tmp_path: Path) -> TaskSession:
    return TaskSession.open(load_task(write_sample_task(tmp_path / "t")))


def test_stash_holds_unsaved_content_until_saved(tmp_path: Path) -> None:
    session = _session(tmp_path)
    before = session.docs["golden"].saved
    changed = sb3_bytes(project_json({}, "Dog"))
    session.stash("golden", changed)
    assert session.dirty_documents() == ["golden"]
    assert (tmp_path / "t" / "golden.sb3").read_bytes() == before  # nothing written yet
    session.stash("golden", before)  # back to what is on disk: not dirty
    assert session.dirty_documents() == []


def test_copy_then_save_writes_every_part(tmp_path: Path) -> None:
    session = _session(tmp_path)
    golden = session.docs["golden"].saved
    session.copy("golden", "initial")
    assert session.docs["initial"].content() == golden
    task = session.task.model_copy(update={"instruction": "A new instruction"})
    entry = session.save(task, "module.exports = async () => ({});\n")
    assert (tmp_path / "t" / "initial.sb3").read_bytes() == golden
    assert (tmp_path / "t" / "evaluate.js").read_text().startswith("module.exports")
    assert json.loads((tmp_path / "t" / "task.json").read_text())["instruction"] == (
        "A new instruction"
    )
    assert entry.task.instruction == "A new instruction"
    assert session.dirty_documents() == []


def test_live_editor_content_is_saved_and_a_missing_golden_is_created(tmp_path: Path) -> None:
    folder = write_sample_task(tmp_path / "t")
    (folder / "golden.sb3").unlink()
    raw = json.loads((folder / "task.json").read_text())
    raw["golden_project"] = None
    (folder / "task.json").write_text(json.dumps(raw))
    session = TaskSession.open(load_task(folder))
    assert session.docs["golden"].saved is None
    with pytest.raises(StudioError, match="golden project does not exist"):
        session.copy("golden", "initial")
    live = sb3_bytes(project_json({}, "Dog"))
    session.copy("initial", "golden", data=live)
    entry = session.save(session.task, session.script_saved)
    assert entry.task.golden_project == "golden.sb3"
    assert (folder / "golden.sb3").read_bytes() == live


def test_revert_drops_the_unsaved_content(tmp_path: Path) -> None:
    session = _session(tmp_path)
    saved = session.docs["initial"].saved
    session.stash("initial", b"PK-other")
    assert session.revert("initial") == saved
    assert not session.docs["initial"].dirty
