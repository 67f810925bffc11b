"""A toy benchmark format added the way a new format is: its importer and its result-folder
reader registered by decorator in its own module, touching nothing else. It is then a format of
`studio import` (the generic SRC DEST parser, help from the registry), imports a tiny folder
through `studio.app.formats.import_set` into task folders the library reads, and `studio
report` reads its runners' result folders beside the studio's own runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from studio.app.extensions import RESULT_READERS
from studio.app.formats import IMPORT_FORMATS, PLAIN, import_set
from studio.cli import build_parser
from studio.cli.common import run_command
from studio.models.errors import StudioError
from studio.models.report import RunEntry
from studio.services.core.store import scan_library
from studio.services.runs.reports import report_for
from tests.helpers.tasks import make_task

TOY_FILE = "toy.json"


@dataclass
class ToyReport:
    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.skipped

    def to_json(self) -> dict[str, Any]:
        return {"imported": self.imported, "skipped": self.skipped}


def import_toy(src: Path, dest: Path, *, overwrite: bool = False) -> ToyReport:
    """A toy set is `toy.json`: {"tasks": [{"id", "category"}]}; one task folder each."""
    path = src / TOY_FILE
    if not path.is_file():
        raise StudioError(f"{src}: no {TOY_FILE} in it")
    report = ToyReport()
    for row in json.loads(path.read_text())["tasks"]:
        folder = dest / row["id"]
        if folder.exists() and not overwrite:
            report.skipped.append(f"{row['id']}: exists (--overwrite replaces it)")
            continue
        make_task(folder, task_id=row["id"], category=row.get("category", "create"))
        report.imported.append(row["id"])
    return report


@dataclass
class ToyRead:
    entries: list[Any] = field(default_factory=list)
    diagnostics: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_toy_results(root: Path) -> ToyRead:
    """A toy runner writes `toy-results.json`: {"agent", "results": {task id: passed}}."""
    out = ToyRead()
    for path in sorted(Path(root).rglob("toy-results.json")):
        data = json.loads(path.read_text())
        for task_id, passed in data["results"].items():
            out.entries.append(
                RunEntry(agent=data["agent"], mode="composite", task_id=task_id,
                         category="create", success=passed, psr=float(passed))
            )  # fmt: skip
    return out


@pytest.fixture
def toy() -> Iterator[None]:
    IMPORT_FORMATS.register("toy", "a toy set (toy.json)", traits=[PLAIN])(import_toy)
    RESULT_READERS.register("toy", "a toy runner's toy-results.json")(read_toy_results)
    yield
    IMPORT_FORMATS.remove("toy")
    RESULT_READERS.remove("toy")


@pytest.fixture
def toy_set(tmp_path: Path) -> Path:
    src = tmp_path / "toy-set"
    src.mkdir()
    rows = [{"id": "toy_a"}, {"id": "toy_b", "category": "debug"}]
    (src / TOY_FILE).write_text(json.dumps({"tasks": rows}))
    return src


def test_the_toy_format_imports_a_tiny_folder(toy: None, toy_set: Path, tmp_path: Path) -> None:
    dest = tmp_path / "lib"
    report = import_set("toy", toy_set, dest)
    assert report.ok and report.to_json()["imported"] == ["toy_a", "toy_b"]
    scan = scan_library(dest)
    assert sorted(t.task.id for t in scan.tasks) == ["toy_a", "toy_b"] and not scan.errors
    again = import_set("toy", toy_set, dest)
    assert not again.ok and "exists" in again.to_json()["skipped"][0]


def test_the_toy_format_is_a_command(
    toy: None, toy_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["import", "--help"])
    assert "a toy set (toy.json)" in capsys.readouterr().out
    dest = tmp_path / "lib"
    args = build_parser().parse_args(["import", "toy", str(toy_set), str(dest), "--json"])
    assert run_command(args) == 0
    assert json.loads(capsys.readouterr().out)["imported"] == ["toy_a", "toy_b"]
    assert run_command(build_parser().parse_args(["import", "toy", str(toy_set), str(dest)])) == 1
    args = build_parser().parse_args(["import", "toy", str(tmp_path / "nowhere"), str(dest)])
    assert run_command(args) == 2
    assert f"{tmp_path / 'nowhere'}: no toy.json in it" in capsys.readouterr().err


def test_the_report_reads_the_toy_runners_results(toy: None, tmp_path: Path) -> None:
    runs = tmp_path / "runs" / "toy-run"
    runs.mkdir(parents=True)
    results = {"agent": "toy-runner", "results": {"toy_a": True, "toy_b": False}}
    (runs / "toy-results.json").write_text(json.dumps(results))
    (row,) = report_for(tmp_path / "runs").rows
    assert (row.agent, row.overall.tasks, row.overall.sr) == ("toy-runner", 2, 0.5)


def test_unregistered_the_toy_is_refused_with_the_choices(toy_set: Path, tmp_path: Path) -> None:
    with pytest.raises(StudioError, match=r"unknown import format 'toy' \(one of scratchworld"):
        import_set("toy", toy_set, tmp_path / "lib")
    with pytest.raises(StudioError, match="takes options of its own"):
        import_set("nl2scratch", toy_set, tmp_path / "lib")
