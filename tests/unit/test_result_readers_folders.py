"""The runs feature reads benchmark runners' result folders only through the readers
`runs.result_readers` registers: ScratchWorld's reader is the first, it answers for its own
folders and nothing else, and a toy format's reader registered beside it (one that also shows
its folders) reaches the report, the bundle's run folders and the viewer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from studio.models.report import DiagnosticRow, RunEntry
from studio.services.formats.scratchworld.results.reader import FIELD_READER
from studio.services.runs.bundle.writer import collect_entries, run_folder
from studio.services.runs.reports import report_for
from studio.services.runs.result_readers import RESULT_READERS, ShowsFolders, folder_readers
from studio.services.runs.trajectories.view import TrajectoryView, load_view

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sw_results"
PRIM = FIXTURE / "result_gpt-4o_primitive_scratch_agent"
TOY_FILE = "toy_result.json"


def test_scratchworld_is_the_reader_named_and_answers_for_its_own_folders(tmp_path: Path) -> None:
    assert RESULT_READERS.get("scratchworld") is FIELD_READER
    assert isinstance(FIELD_READER, ShowsFolders) and folder_readers()[0] is FIELD_READER
    task = PRIM / "create" / "create_balloon_score"
    assert FIELD_READER.run_folder(task) == PRIM
    assert FIELD_READER.run_folder(tmp_path / "a" / "b" / "c") is None
    view = FIELD_READER.view(task)
    assert view is not None and view.steps and all(isinstance(s.flags, set) for s in view.steps)
    assert FIELD_READER.view(tmp_path) is None  # not a runner's folder: the viewer goes on
    read = FIELD_READER(FIXTURE)
    assert {e.task_id for e in read.entries} >= {"create_balloon_score", "debug_pong_paddle"}
    assert sorted(row.kind for row in read.diagnostics) == ["drag", "qa"]


# ---- a toy format, named beside ScratchWorld -------------------------------------------------
@dataclass
class ToyRead:
    entries: list[RunEntry] = field(default_factory=list)
    diagnostics: list[DiagnosticRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class ToyReader:
    """A runner that writes `<run>/<task>/toy_result.json` = {"task", "success"}."""

    def __call__(self, root: Path) -> ToyRead:
        out = ToyRead()
        for path in sorted(root.rglob(TOY_FILE)):
            data = json.loads(path.read_text())
            out.entries.append(
                RunEntry(
                    agent="toy agent",
                    mode="composite",
                    task_id=data["task"],
                    category="create",
                    success=data["success"],
                    status="done",
                    folder=str(path.parent),
                )
            )
        return out

    def run_folder(self, folder: Path) -> Path | None:
        return folder.parent if (folder / TOY_FILE).is_file() else None

    def view(self, folder: Path) -> TrajectoryView | None:
        if not (folder / TOY_FILE).is_file():
            return None
        return TrajectoryView(folder, None, [], None, None, [], ["a toy run"])


TOY = ToyReader()


@pytest.fixture
def toy_named() -> Iterator[None]:
    RESULT_READERS.add("toy", f"{__name__}:TOY", "a toy runner's toy_result.json files")
    yield
    RESULT_READERS.remove("toy")


def _toy_run(root: Path) -> Path:
    for task, success in (("create_a", True), ("create_b", False)):
        folder = root / "toy-run" / task
        folder.mkdir(parents=True)
        (folder / TOY_FILE).write_text(json.dumps({"task": task, "success": success}))
    return root / "toy-run"


def test_a_format_registered_beside_reaches_report_bundle_and_viewer(
    toy_named: None, tmp_path: Path
) -> None:
    assert folder_readers() == [FIELD_READER, TOY]
    run = _toy_run(tmp_path)
    report = report_for(tmp_path)
    (row,) = report.rows
    assert (row.agent, row.overall.tasks, row.overall.sr) == ("toy agent", 2, 0.5)
    entries = collect_entries(tmp_path)
    assert sorted(e.task_id for e in entries) == ["create_a", "create_b"]
    assert {run_folder(e) for e in entries} == {run}
    view = load_view(run / "create_a")
    assert view.problems == ["a toy run"]
