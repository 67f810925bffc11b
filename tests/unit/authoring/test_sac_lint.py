"""NL2Scratch's alignment check as a lint: unstated numbers, keys and messages of the golden's
new blocks, loop counts the golden never repeats, instructions cut off mid-sentence."""

from __future__ import annotations

from collections.abc import Callable

from studio.services.authoring.lint import Level, lint_task
from studio.services.authoring.sac_lint import instruction_numbers, stated_counts
from studio.services.core.store import TaskFolder, load_task, save_task

Bundled = Callable[[str], TaskFolder]


def _with(entry: TaskFolder, text: str) -> TaskFolder:
    save_task(TaskFolder(entry.task.model_copy(update={"instruction": text}), entry.folder))
    return load_task(entry.folder)


def _alignment(entry: TaskFolder) -> list[tuple[str, str]]:
    return [
        (f.code, f.message)
        for f in lint_task(entry, None)
        if f.code in ("instruction-cut", "instruction-unstated", "instruction-unused")
    ]


def test_an_unstated_number_is_flagged_and_a_key_not_twice(bundled: Bundled) -> None:
    entry = _with(
        bundled("extend_frog_jump"),
        "The Frog already walks with the arrow keys. Add a jump: it goes up 10 steps at a "
        "time, 10 times, and comes back down the same way.",
    )
    # The script reads the space key: the `unmentioned` rule names it, this lint does not.
    assert [f.code for f in lint_task(entry, None) if "space" in f.message] == ["unmentioned"]
    assert _alignment(entry) == []
    entry = _with(
        bundled("create_cat_walk"),
        "When the green flag is clicked, make the Cat go to x: -100, y: 0, then repeat 10 "
        "times: move some steps and wait 0.1 seconds.",
    )
    found = _alignment(entry)
    assert found == [
        (
            "instruction-unstated",
            "The golden's new blocks use the number '15', which the instruction never states.",
        )
    ]
    assert all(f.level is Level.WARNING for f in lint_task(entry, None) if "instruction" in f.code)


def test_a_loop_count_the_golden_never_repeats(bundled: Bundled) -> None:
    entry = _with(
        bundled("create_cat_walk"),
        "When the green flag is clicked, make the Cat go to x: -100, y: 0, then repeat twenty "
        "times: move 15 steps and wait 0.1 seconds. It walks 10 steps in all.",
    )
    assert (
        "instruction-unused",
        "The instruction says 20 times, but no repeat of the golden counts 20.",
    ) in _alignment(entry)


def test_an_instruction_cut_off_mid_sentence(bundled: Bundled) -> None:
    entry = _with(bundled("create_button_click"), "When the green flag is clicked, the Button")
    assert _alignment(entry) == [
        (
            "instruction-cut",
            "The instruction ends mid-sentence: '...en the green flag is clicked, the Button'.",
        )
    ]


def test_debug_tasks_are_left_out(bundled: Bundled) -> None:
    entry = _with(bundled("debug_game_over"), "Fix the Bug so that the game can end.")
    assert _alignment(entry) == []


def test_numbers_in_words_and_counts() -> None:
    assert instruction_numbers("take away one of 3 lives, then -10 steps twice") == {
        "1", "3", "10", "2",
    }  # fmt: skip
    assert stated_counts("repeat 10 times, then ten times, then 2.5 times") == {"10", "2.5"}
