"""Messages that say the one thing the user needs: which edition `studio eval` ran, and the
epoch folders of a campaign's task folder that `trajectory show` was given."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli.evaluate import _print_result
from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.runs.trajectories.view import load_view


def test_eval_says_which_edition_ran(capsys: pytest.CaptureFixture[str]) -> None:
    result = EvalResult(task_id="t", project="golden.sb3", success=True, passed_tests=1,
                        total_tests=1, partial_success_rate=1.0)  # fmt: skip
    _print_result(result, 0.5, "classic")
    assert capsys.readouterr().out.splitlines()[0] == "task t  project golden.sb3  edition classic"


def test_trajectory_show_on_a_task_folder_with_epochs_points_to_them(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    for epoch in (1, 2):
        folder = tmp_path / "create_a" / f"epoch-{epoch}"
        folder.mkdir(parents=True)
        run = RunInfo(episode_id="e", task_id="create_a", mode=Mode.COMPOSITE,
                      started_at=datetime.now(UTC))  # fmt: skip
        (folder / RUN_FILE).write_text(run.model_dump_json())
    with pytest.raises(StudioError, match=r"one trajectory per epoch \(epoch-1, epoch-2\)"):
        load_view(tmp_path / "create_a")


def test_importing_into_a_library_that_has_the_tasks_says_why_and_names_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from studio.cli import main
    from tests.helpers.scratchworld_fixture import build_set

    sw = build_set(tmp_path / "sw")
    dest = tmp_path / "lib"
    assert main(["import", "scratchworld", str(sw.root), str(dest)]) == 0
    capsys.readouterr()
    assert main(["import", "scratchworld", str(sw.root), str(dest)]) == 1
    out, err = capsys.readouterr()
    first = out.splitlines()[0]
    assert first.startswith(f"imported no task from {sw.root}: ")
    assert "--overwrite replaces them" in first
    assert "already exists; not overwritten (--overwrite replaces it)" in err
    assert "used by no task" not in err
