"""Creating, copying, renaming and opening task folders."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.models.task import Category, ReviewState
from studio.services.authoring import library_ops
from studio.services.authoring.check_record import RECORD_FILE, save_check
from studio.services.authoring.errors import LibraryError
from studio.services.authoring.library_ops import (
    create_task,
    duplicate_task,
    open_task_folder,
    rename_task,
)
from studio.services.authoring.review import submit
from studio.services.authoring.starter import (
    DEFAULT_SPRITE,
    PLACEHOLDER_INSTRUCTION,
    PLACEHOLDER_MARKER,
    default_project,
    starter_script,
)
from studio.services.core import atomic, paths
from studio.services.core.errors import ProjectFileError, TaskFileError
from studio.services.core.sb3 import check_sb3
from studio.services.core.store import TaskFolder, load_task, save_task
from tests.unit.authoring.conftest import TASKS
from tests.unit.authoring.support import passing_check

Bundled = Callable[[str], TaskFolder]


def test_default_project_is_deterministic_and_carries_its_assets() -> None:
    data = default_project()
    assert data == default_project()
    project = check_sb3(data, "default.sb3")  # raises when an asset is missing
    stage, sprite = project["targets"]
    assert stage["isStage"] and stage["costumes"][0]["name"] == "backdrop1"
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        backdrop = zf.read(stage["costumes"][0]["md5ext"]).decode()
    assert 'fill="#ffffff"' in backdrop
    assert sprite["name"] == DEFAULT_SPRITE and sprite["costumes"][0]["dataFormat"] == "svg"


@pytest.mark.parametrize("category", [Category.CREATE, Category.COMPUTE])
def test_create_from_default_project(library: Path, category: Category) -> None:
    entry = create_task(library, "new_task", category, "Make Sprite1 say hello.", author="ann")
    assert entry.folder == library / "new_task"
    assert entry.task.category is category and entry.task.author == "ann"
    assert entry.task.review.state is ReviewState.DRAFT
    assert entry.initial_path.read_bytes() == default_project()
    assert entry.golden_path is not None and entry.golden_path.read_bytes() == default_project()
    script = entry.script_path.read_text()
    assert "module.exports = async (vm, config, cleanup) =>" in script
    assert "EU.runTests" in script and PLACEHOLDER_MARKER in script
    assert sorted(p.name for p in library.iterdir()) == ["new_task"]  # no staging left over


@pytest.mark.parametrize("category", ["debug", "extend"])
def test_debug_and_extend_copy_the_project_to_both(library: Path, category: str) -> None:
    source = TASKS / "debug_score_reset" / "golden.sb3"
    entry = create_task(library, "fix_it", category, "Fix the Coin.", from_project=source)
    assert entry.initial_path.read_bytes() == source.read_bytes()
    assert entry.golden_path is not None and entry.golden_path.read_bytes() == source.read_bytes()
    assert f"{category.capitalize()} task" in entry.script_path.read_text()


@pytest.mark.parametrize("category", ["debug", "extend"])
def test_debug_and_extend_need_a_project(library: Path, category: str) -> None:
    with pytest.raises(LibraryError, match="starts from an existing project"):
        create_task(library, "fix_it", category, "Fix it.")
    with pytest.raises(LibraryError, match=r"nope\.sb3.*does not exist"):
        create_task(library, "fix_it", category, "Fix it.", from_project=library / "nope.sb3")
    assert not any(library.iterdir())


def test_a_broken_project_is_named(library: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.sb3"
    broken.write_bytes(b"not a zip")
    with pytest.raises(ProjectFileError, match=r"broken\.sb3"):
        create_task(library, "fix_it", "debug", "Fix it.", from_project=broken)


def test_empty_instruction_becomes_the_placeholder(library: Path) -> None:
    entry = create_task(library, "t1", "create", "   ")
    assert entry.task.instruction == PLACEHOLDER_INSTRUCTION


@pytest.mark.parametrize("bad", ["has space", ".hidden", "..", ".trash", "a/b", "", "é"])
def test_invalid_ids_are_refused(library: Path, bad: str) -> None:
    with pytest.raises(LibraryError, match="not a valid task id"):
        create_task(library, bad, "create", "Do something useful.")


def test_taken_ids_are_refused(library: Path, bundled: Bundled) -> None:
    (library / "plain_folder").mkdir()
    with pytest.raises(LibraryError, match="already exists"):
        create_task(library, "plain_folder", "create", "Do something.")
    entry = bundled("debug_score_reset")
    entry.folder.rename(library / "renamed_folder")  # same id, other folder name
    with pytest.raises(LibraryError, match="id 'debug_score_reset' already exists"):
        create_task(library, "debug_score_reset", "create", "Do something.")


def test_a_failed_create_leaves_nothing(library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(path: Path, text: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(atomic, "write_text", fail)
    with pytest.raises(OSError, match="disk full"):
        create_task(library, "t1", "create", "Do something.")
    assert list(library.iterdir()) == []


@pytest.mark.parametrize("category", list(Category))
def test_starter_script_runs_and_fails_with_a_clear_message(
    tmp_path: Path, category: Category
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "evaluate.js"
    script.write_text(starter_script("t1", category))
    runner = (
        f"globalThis.EvaluationUtils = require({json.dumps(str(paths.HELPER_LIBRARY))});"
        f"const fn = require({json.dumps(str(script))});"
        "const vm = { stopAll() {} };"
        "fn(vm, {test_cases: []}, () => {}).then((r) => console.log(JSON.stringify(r)));"
    )
    out = subprocess.run([node, "-e", runner], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["success"] is False and result["total_tests"] == 1
    assert PLACEHOLDER_MARKER in result["details"][0]["error"]


def test_duplicate_is_a_fresh_draft(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    save_task(TaskFolder(submit(entry.task, "ann"), entry.folder))
    save_check(load_task(entry.folder), passing_check("debug_score_reset"))
    copy = duplicate_task(load_task(entry.folder), "debug_score_reset_2")
    assert copy.folder == entry.folder.parent / "debug_score_reset_2"
    assert copy.task.id == "debug_score_reset_2"
    assert copy.task.review.state is ReviewState.DRAFT and copy.task.review.history == []
    assert not (copy.folder / RECORD_FILE).exists()
    assert copy.initial_path.read_bytes() == entry.initial_path.read_bytes()
    original = load_task(entry.folder)
    assert original.task.id == "debug_score_reset"
    assert original.task.review.state is ReviewState.IN_REVIEW
    with pytest.raises(LibraryError, match="already exists"):
        duplicate_task(original, "debug_score_reset_2")


def test_rename_moves_folder_and_id(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    renamed = rename_task(entry, "coin_score")
    assert renamed.folder == entry.folder.parent / "coin_score" and not entry.folder.exists()
    assert renamed.task.id == "coin_score"
    assert json.loads((renamed.folder / "task.json").read_text())["id"] == "coin_score"


def test_rename_refuses_taken_or_invalid_ids(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    other = bundled("debug_game_over")
    with pytest.raises(LibraryError, match="already exists"):
        rename_task(entry, other.task.id)
    with pytest.raises(LibraryError, match="not a valid"):
        rename_task(entry, "no spaces")
    assert load_task(entry.folder).task.id == "debug_score_reset"


def test_rename_puts_the_folder_back_when_writing_fails(
    bundled: Bundled, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = bundled("debug_score_reset")

    def fail(entry: TaskFolder) -> None:
        raise OSError("read-only")

    monkeypatch.setattr(library_ops, "save_task", fail)
    with pytest.raises(OSError, match="read-only"):
        rename_task(entry, "coin_score")
    assert entry.folder.is_dir() and not (entry.folder.parent / "coin_score").exists()


def test_open_task_folder_loads_a_task_or_its_task_json(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    assert open_task_folder(entry.folder).task.id == "debug_score_reset"
    assert open_task_folder(entry.folder / "task.json").folder == entry.folder


def test_open_task_folder_explains(library: Path, bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    with pytest.raises(TaskFileError, match="is a task library, not one task: it holds 1"):
        open_task_folder(library)
    with pytest.raises(TaskFileError, match="is a file, not a task folder"):
        open_task_folder(entry.initial_path)
    empty = library / "empty"
    empty.mkdir()
    with pytest.raises(TaskFileError, match=r"it has no task\.json"):
        open_task_folder(empty)
    with pytest.raises(TaskFileError, match="is not a folder"):
        open_task_folder(library / "missing")
    (entry.folder / "task.json").write_text("{ broken")
    with pytest.raises(TaskFileError, match=r"task.json: invalid JSON at line 1"):
        open_task_folder(entry.folder)
