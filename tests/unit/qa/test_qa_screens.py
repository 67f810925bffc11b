"""QA capture on the edition of its set (no browser): which edition a QA set runs on, the
refusals made before a browser starts, and what an item's capture record says of its screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.cli.diagnostics_qa import published_arg
from studio.models.errors import StudioError
from studio.models.qa_item import QaItem, QaType
from studio.services.core import paths
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.screens import Screen, published_state
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition

SHIPPED = QaSet(paths.PROJECT_ROOT / "diagnostics" / "qa")


class NoBrowser:
    def __init__(self, *args: object, **kw: object) -> None:
        raise AssertionError("a browser was started")


def test_a_qa_set_runs_on_its_own_edition_else_its_librarys(tmp_path: Path) -> None:
    qa = tmp_path / "lib" / "diagnostics" / "qa"
    qa.mkdir(parents=True)
    assert editions.edition_for_set(qa) is Edition.CURRENT
    editions.write_edition(tmp_path / "lib", Edition.CLASSIC)  # a ScratchWorld import's
    assert editions.edition_for_set(qa) is Edition.CLASSIC
    editions.write_edition(qa, Edition.CURRENT)
    assert editions.edition_for_set(qa) is Edition.CURRENT


def test_capture_and_recapture_refuse_an_edition_not_installed_before_a_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(editions.info(Edition.CLASSIC).env, str(tmp_path / "none"))
    monkeypatch.setattr("studio.services.runtime.browser.BrowserPool", NoBrowser)
    lib = tmp_path / "lib"
    qa = QaSet(lib / "diagnostics" / "qa")
    qa.save(SHIPPED.load("qa_conn_say_gap"))
    editions.write_edition(lib, Edition.CLASSIC)
    project = paths.PROJECT_ROOT / "tasks" / "compute_sum_to_n" / "golden.sb3"
    capture = ["qa", "capture", str(project), "--out", str(qa.root), "--id", "q"]
    assert main([*capture, "--type", "existence", "--question", "?", "--opcode", "x"]) == 2
    assert "The QA set is recorded for the classic edition." in capsys.readouterr().err
    assert main(["qa", "recapture", str(qa.root)]) == 2
    err = capsys.readouterr().err
    assert "classic" in err and "make bundle-classic" in err


def test_recapture_names_what_it_cannot_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qa = QaSet(tmp_path / "qa")
    for task_id in ("qa_conn_say_gap", "qa_conn_repeat_gap"):  # two screenshots
        qa.save(SHIPPED.load(task_id))
    project = str(paths.PROJECT_ROOT / "tasks" / "create_cat_walk" / "golden.sb3")
    assert main(["qa", "recapture", str(qa.root), "nope"]) == 2
    assert "no QA item nope" in capsys.readouterr().err
    assert main(["qa", "recapture", str(qa.root), "--project", project]) == 2
    assert "show 2 screenshots, not one" in capsys.readouterr().err
    assert main(["qa", "recapture", str(qa.root), "qa_conn_say_gap", "--detach", "B"]) == 2
    assert "--detach goes with --project" in capsys.readouterr().err


def test_a_published_state_is_three_numbers_and_the_capture_record_keeps_the_screen() -> None:
    assert published_state({"scale": 1, "scrollX": -3, "scrollY": 2.5, "tx": 9}) == {
        "scale": 1.0,
        "scrollX": -3.0,
        "scrollY": 2.5,
    }
    for bad, word in (({"scale": 1, "scrollX": "a", "scrollY": 0}, "scrollX"), ([], "object")):
        with pytest.raises(StudioError, match=word):
            published_state(bad)
    with pytest.raises(StudioError, match="not JSON"):
        published_arg("{scale")
    screen = Screen(small_stage=True, published={"scale": 0.9, "scrollX": -30, "scrollY": -20})
    view = {"target": "Cat", "scroll_x": 1.0, "scroll_y": 2.0, "scale": 0.9}
    item = QaItem(
        task_id="q",
        instruction="?",
        screenshot="s.png",
        task_type=QaType.EXISTENCE,
        tag="t",
        ground_truth="YES",
        capture={"area": "window", "workspace_state": view, **screen.record()},
    )
    again = Screen.of_item(item)
    assert again.small_stage and again.published == screen.published and again.view == view
    assert not Screen.of_item(SHIPPED.load("qa_conn_say_gap")).small_stage
