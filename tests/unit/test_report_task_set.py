"""`studio report --html` carries the bundle's "Task set" section (issue 42, point 3): the same
figures, table and SVG charts as the bundle (`bundle_stats`), each chart an image of its SVG;
tasks whose folder is gone named; no section when no task folder can be read."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from studio.cli import main
from studio.services.runs.bundle.set_figures import bundle_stats
from studio.services.runs.bundle.writer import collect_entries
from tests.helpers.tasks import make_task
from tests.unit.test_bundle_task_set import _library, _runs

IMG = re.compile(r'<img class="set-chart" data-chart="([a-z_]+)" alt="[^"]*" '
                 r'src="data:image/svg\+xml;charset=utf-8,([^"]+)">')  # fmt: skip


def test_the_html_report_shows_the_bundles_task_set_figures(tmp_path: Path) -> None:
    gone = make_task(tmp_path / "gone", task_id="extend_gone", category="extend")
    runs = _runs(tmp_path / "runs", {**_library(tmp_path / "lib"), "extend_gone": gone})
    for path in gone.iterdir():
        path.unlink()
    gone.rmdir()
    html = tmp_path / "report.html"
    assert main(["report", str(runs), "--html", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "<h2>Task set: 3 task(s) the runs played</h2>" in page
    firsts = re.findall(r"<tr><td>([a-z]+)</td>", page.split('<table class="task-set">')[1])
    assert firsts == ["create", "debug", "compute", "all"]
    expected = bundle_stats(collect_entries(runs))  # what the bundle carries
    assert expected is not None
    assert [(c, unquote(svg)) for c, svg in IMG.findall(page)] == [
        (c["id"], c["svg"]) for c in expected["charts"]
    ]
    assert "no readable task folder recorded): extend_gone" in page


def test_no_section_when_no_task_folder_is_readable(tmp_path: Path) -> None:
    runs = _runs(tmp_path / "runs", {"create_a": None})
    html = tmp_path / "report.html"
    assert main(["report", str(runs), "--html", str(html)]) == 0
    assert 'id="task-set"' not in html.read_text(encoding="utf-8")
