"""Side-by-side project diff: aligned pseudocode rows per target and block-level totals."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from studio.services.core.project_diff import DiffRow, RowKind, align_lines, compare_projects
from studio.services.core.sb3 import load_sb3
from tests.helpers.project_checks import B, make_project, target

TASKS = Path(__file__).resolve().parents[1].parent / "tasks"


def _task(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    folder = TASKS / name
    return load_sb3(folder / "initial.sb3")[1], load_sb3(folder / "golden.sb3")[1]


def _cat(*extra: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A Cat whose flag script moves 10 steps, then whatever `extra` appends."""
    blocks: dict[str, Any] = {
        "hat": B("event_whenflagclicked", nxt="move"),
        "move": B("motion_movesteps", "hat", inputs={"STEPS": [1, [4, "10"]]}),
    }
    for bid, blk in extra:
        blocks[bid] = blk
    return target("Cat", blocks)


def test_align_lines_pairs_replacements_and_keeps_line_numbers() -> None:
    rows = align_lines(["a", "b", "c", "d"], ["a", "B", "c", "d", "e"])
    assert rows == [
        DiffRow(RowKind.SAME, "a", "a", 1, 1),
        DiffRow(RowKind.CHANGED, "b", "B", 2, 2),
        DiffRow(RowKind.SAME, "c", "c", 3, 3),
        DiffRow(RowKind.SAME, "d", "d", 4, 4),
        DiffRow(RowKind.ADDED, None, "e", None, 5),
    ]
    rows = align_lines(["x", "y", "z"], ["q"])
    assert [r.kind for r in rows] == [RowKind.CHANGED, RowKind.REMOVED, RowKind.REMOVED]
    assert [(r.left, r.right, r.left_no) for r in rows[1:]] == [("y", None, 2), ("z", None, 3)]


def test_the_golden_of_score_reset_adds_one_block() -> None:
    initial, golden = _task("debug_score_reset")
    comparison = compare_projects(initial, golden)
    assert [t.name for t in comparison.targets] == ["Coin"]  # the unchanged Stage is left out
    coin = comparison.targets[0]
    added = [r for r in coin.rows if r.kind is not RowKind.SAME]
    assert added == [DiffRow(RowKind.ADDED, None, "set score to [0]", None, 2)]
    assert coin.rows[0] == DiffRow(RowKind.SAME, "when flag clicked", "when flag clicked", 1, 1)
    assert coin.headline() == "Coin: 1 block added"
    summary = comparison.summary
    assert (summary.distance, summary.added, summary.removed, summary.changed) == (1, 1, 0, 0)
    assert "data_setvariableto" in summary.block_types
    assert summary.text("golden") == (
        "1 block edit (1 added · 0 removed · 0 changed) · 6 block types in golden"
    )
    assert not comparison.identical


def test_a_changed_operator_shows_as_a_changed_line() -> None:
    initial, golden = _task("debug_rocket_comparator")
    comparison = compare_projects(initial, golden, include_unchanged=True)
    assert [t.name for t in comparison.targets] == ["Stage", "Rocket"]
    assert comparison.targets[0].headline() == "Stage: no change"
    assert [t.name for t in comparison.differing()] == ["Rocket"]
    changed = [r for r in comparison.targets[1].rows if r.kind is RowKind.CHANGED]
    assert [(r.left, r.right) for r in changed] == [
        ("repeat until <(y position) < [100]> {", "repeat until <(y position) > [100]> {")
    ]
    assert comparison.targets[1].headline() == "Rocket: 1 block changed"


def test_removed_blocks_and_lone_targets() -> None:
    say = ("say", B("looks_say", "move", inputs={"MESSAGE": [1, [10, "hi"]]}))
    left = make_project(target("Stage", {}), _cat(say))
    left["targets"][1]["blocks"]["move"]["next"] = "say"
    right = make_project(target("Stage", {}), _cat(), target("Dog", {"h": B("looks_show")}))
    comparison = compare_projects(left, right)
    cat, dog = comparison.targets
    assert [(r.kind, r.left) for r in cat.rows if r.kind is not RowKind.SAME] == [
        (RowKind.REMOVED, "say [hi]")
    ]
    assert cat.headline() == "Cat: 1 block removed"
    assert dog.headline() == "Dog (new target): 1 block added"
    assert [(r.kind, r.right) for r in dog.rows] == [(RowKind.ADDED, "show")]
    back = compare_projects(right, left)
    assert back.targets[-1].headline() == "Dog (target removed): 1 block removed"


def test_identical_projects() -> None:
    project = make_project(target("Stage", {}), _cat())
    comparison = compare_projects(project, copy.deepcopy(project))
    assert comparison.identical
    assert comparison.targets == []
    assert comparison.summary.distance == 0
    everything = compare_projects(project, copy.deepcopy(project), include_unchanged=True)
    assert [t.name for t in everything.targets] == ["Stage", "Cat"]
    assert everything.identical
