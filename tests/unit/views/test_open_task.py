"""One open task: a failed open leaves the previous task fully open, Save writes only the
task shown (issue 31, point 2)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from studio.services.core.store import TaskFolder
from studio.views.authoring.controller import AuthoringController
from tests.helpers.fake_editor import FakeEditor
from tests.helpers.tasks import copy_bundled as _copy


def _corrupt(entry: TaskFolder) -> TaskFolder:
    for path in (entry.initial_path, entry.golden_path):
        assert path is not None
        path.write_bytes(b"not a zip at all")
    return entry


def test_a_failed_open_leaves_the_previous_task_fully_open(
    authoring: AuthoringController, tmp_path: Path
) -> None:
    good = _copy("create_cat_walk", tmp_path)
    broken = _corrupt(_copy("debug_score_reset", tmp_path))
    failures: list[tuple[Any, Any]] = []
    authoring.open_failed.connect(lambda f, kept: failures.append((f, kept)))
    editor: FakeEditor = authoring.editor  # type: ignore[assignment]
    assert asyncio.run(authoring.open_task(good))
    shown = editor.project

    assert not asyncio.run(authoring.open_task(broken))
    assert authoring.current.entry is not None and authoring.current.entry.folder == good.folder
    assert authoring.bar.title.text().startswith("create_cat_walk")  # the header follows
    assert editor.project == shown and "initial.sb3" in editor.banner.text()
    assert [(f.task.id, k.task.id) for f, k in failures] == [("debug_score_reset", good.task.id)]

    before = {p: p.read_bytes() for p in broken.folder.iterdir() if p.is_file()}
    authoring.form.instruction.setPlainText("A changed instruction")
    assert asyncio.run(authoring.save()) is not None  # Save writes the task shown ...
    assert "A changed instruction" in (good.folder / "task.json").read_text()
    assert {p: p.read_bytes() for p in broken.folder.iterdir() if p.is_file()} == before


def test_a_failed_open_with_no_task_open_leaves_nothing_open(
    authoring: AuthoringController, tmp_path: Path
) -> None:
    broken = _corrupt(_copy("debug_score_reset", tmp_path))
    assert not asyncio.run(authoring.open_task(broken))
    assert authoring.current.entry is None and asyncio.run(authoring.save()) is None
    assert authoring.bar.title.text() == "No task open"
    assert not authoring.bar.save.isEnabled()


def test_the_panels_follow_the_open_task(
    authoring: AuthoringController, tmp_path: Path, qtbot: Any
) -> None:
    from studio.models.check import TaskCheck, Verdict
    from studio.views.authoring.diff_view import DiffView
    from studio.views.checks.panel import ChecksPanel
    from studio.views.checks.quality_controller import QualityController
    from studio.views.checks.review_panel import ReviewPanel

    first = _copy("create_cat_walk", tmp_path)
    second = _copy("debug_score_reset", tmp_path)
    parent = authoring.window
    checks, diff = ChecksPanel(parent), DiffView(parent)

    async def no_evaluator() -> Any:
        raise AssertionError("nothing is evaluated here")

    quality = QualityController(
        parent, authoring, checks, ReviewPanel(parent), diff, no_evaluator, lambda c: c.close()
    )
    assert asyncio.run(authoring.open_task(first))
    check = TaskCheck(id=first.task.id, folder=str(first.folder), verdict=Verdict.VALID)
    quality.check = check
    checks.show_check(check)
    diff.show_diff({"targets": []}, {"targets": []}, "golden", "m1")  # a mutant of `first`
    assert asyncio.run(authoring.open_task(second))
    assert quality.check is None and checks.check is None  # not the first task's check
    assert diff.comparison is None  # nor its mutant


def test_an_evaluation_error_marks_the_open_task_script_line(
    authoring: AuthoringController, tmp_path: Path
) -> None:
    from studio.models.evaluation import EvalError, EvalResult
    from studio.views.authoring.diff_view import DiffView
    from studio.views.checks.panel import ChecksPanel
    from studio.views.checks.quality_controller import QualityController
    from studio.views.checks.review_panel import ReviewPanel

    entry = _copy("create_cat_walk", tmp_path)
    parent = authoring.window

    async def no_evaluator() -> Any:
        raise AssertionError("nothing is evaluated here")

    quality = QualityController(
        parent,
        authoring,
        ChecksPanel(parent),
        ReviewPanel(parent),
        DiffView(parent),
        no_evaluator,
        lambda c: c.close(),
    )
    assert asyncio.run(authoring.open_task(entry))
    script = authoring.script
    error = EvalError(kind="script", message="boom", file=str(entry.script_path), line=3)
    quality.show_script_error(EvalResult(task_id=entry.task.id, project="x", error=error))
    assert script.edit.error_line == 3 and script.error_message == "line 3: boom"
    # an error in another file than the task's script clears the mark
    other = EvalError(kind="script", message="elsewhere", file="helper.js", line=5)
    quality.show_script_error(EvalResult(task_id=entry.task.id, project="x", error=other))
    assert script.edit.error_line is None and script.error_message == ""
