"""`studio`, `studio gui`, `studio view` and `studio label`: one parser, one GuiOptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio import cli
from studio.cli.window import gui_options
from studio.services.core import paths
from studio.views.app import GuiOptions


def options(*argv: str) -> GuiOptions:
    return gui_options(cli.build_parser().parse_args(list(argv)))


def test_studio_alone_opens_the_bundled_library_and_nothing_else() -> None:
    assert options() == GuiOptions(library=paths.BUNDLED_TASKS)
    assert options("gui") == GuiOptions(library=paths.BUNDLED_TASKS)
    assert not options().shows_more_than_the_library()


def test_library_before_the_command_as_make_run_gives_it_and_after_it_wins() -> None:
    assert options("--library", "tasks").library == Path("tasks")
    assert options("--library", "tasks", "gui").library == Path("tasks")
    assert options("gui", "--library", "other").library == Path("other")
    assert options("--library", "tasks", "view", "run.zip", "--library", "x").library == Path("x")
    assert options("--library", "tasks", "label").library == Path("tasks")


def test_gui_options_are_the_window_s_first_view() -> None:
    got = options(
        "gui", "--open", "t1", "--project", "initial", "--tab", "Diff", "--size", "1280x800"
    )
    assert got == GuiOptions(open_task="t1", project="initial", tab="Diff", size=(1280, 800))
    assert got.shows_more_than_the_library()


def test_view_and_label_fill_in_the_run_and_the_labeling_window() -> None:
    assert options("view", "runs/a", "--step", "4") == GuiOptions(trajectory=Path("runs/a"), step=4)
    assert options("label", "--tab", "qa", "--qa", "q", "--item", "qa_07") == GuiOptions(
        labeling="qa", qa_root=Path("q"), item="qa_07"
    )
    assert options("label").labeling == "drag"


@pytest.mark.parametrize("size", ["big", "1280", "0x800", "1280x-1"])
def test_a_bad_size_is_named(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        options("gui", "--size", size)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "argument --size: a window size is" in err and repr(size) in err


def test_main_hands_the_parsed_options_to_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[GuiOptions] = []

    def run_gui(opts: GuiOptions) -> int:
        shown.append(opts)
        return 3

    monkeypatch.setattr("studio.views.app.run_gui", run_gui)
    assert cli.main(["--library", "lib", "view", "r.zip", "--step", "2"]) == 3
    assert cli.main([]) == 3
    assert shown == [
        GuiOptions(library=Path("lib"), trajectory=Path("r.zip"), step=2),
        GuiOptions(library=paths.BUNDLED_TASKS),
    ]
