"""The long commands' progress bar: drawn on a terminal, silent otherwise, never on stdout."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest

from studio.cli.common import ProgressBar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@dataclass
class Outcome:
    label: str
    success: bool
    error: str | None = None


def test_on_a_terminal_the_bar_counts_items_names_the_last_and_gives_the_rate() -> None:
    screen = Terminal()
    with ProgressBar(3, "episode", rate="SR", file=screen) as bar:
        assert bar.shown
        bar.on_outcome(1, 3, Outcome("create_cat_walks", True))
        bar.on_outcome(2, 3, Outcome("debug_score", False))
        bar.on_outcome(3, 3, Outcome("extend_jump", False, error="page crashed"))
    last = screen.getvalue().split("\r")[-1]
    assert "3/3" in last and "100%" in last
    assert "SR 33%" in last and "extend_jump ERR" in last


def test_a_mark_of_the_command_s_own_and_no_rate_when_none_is_named() -> None:
    screen = Terminal()
    with ProgressBar(2, "task", file=screen) as bar:
        bar.advance(1, "first", "valid", succeeded=True)
        bar.advance(2, "a_task_with_a_rather_long_name_indeed", "weak")
    last = screen.getvalue().split("\r")[-1]
    assert "2/2" in last and "a_task_with_a_rather_long_name weak" in last  # cut to 30
    assert "SR" not in last and "%" not in last.split("task/s")[-1]


def test_nothing_is_written_when_stderr_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with ProgressBar(2, "item", rate="acc") as bar:  # stderr, captured: not a terminal
        assert not bar.shown
        bar.on_outcome(1, 2, Outcome("q1", True))
        bar.on_outcome(2, 2, Outcome("q2", False))
    assert capsys.readouterr() == ("", "")


def test_without_a_total_the_bar_counts_alone() -> None:
    screen = Terminal()
    with ProgressBar(None, "point", file=screen) as bar:
        bar.advance(12, "t2_item", "start: 4 next")
        bar.advance(40, "t2_item", "regions: 0 next")
    last = screen.getvalue().split("\r")[-1]
    assert last.startswith("40point [") and "t2_item regions: 0 next" in last  # no "40/..."


def test_a_bar_that_does_not_stay_is_cleared_when_it_closes() -> None:
    screen = Terminal()
    with ProgressBar(None, "point", file=screen, leave=False) as bar:
        bar.advance(3, "t1_item", "start seed: 1 next")
    drawn = screen.getvalue().split("\r")
    assert drawn[1].startswith("0point [")
    assert drawn[-1] == "" and drawn[-2].strip() == ""  # the line blanked, the cursor back
