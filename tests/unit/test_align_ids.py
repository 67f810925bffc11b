"""Block ids aligned between two versions of a program, so that the small patch is found."""

from __future__ import annotations

from pathlib import Path

from studio.services.core import paths
from studio.services.core.align_ids import align_ids
from studio.services.core.gold_fix import gold_fix
from studio.services.core.patch import patch_between
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import load_task


def _projects(name: str) -> tuple[dict, dict]:  # type: ignore[type-arg]
    entry = load_task(paths.BUNDLED_TASKS / name)
    assert entry.golden_path is not None
    return load_sb3(entry.initial_path)[1], load_sb3(entry.golden_path)[1]


def test_an_inserted_block_that_shifts_the_ids_is_one_add() -> None:
    initial, golden = _projects("debug_score_reset")  # "set score to 0" inserted as Coin-2
    assert patch_between(initial, golden) is None  # every id after it moved
    aligned = align_ids(initial, golden)
    (edit,) = patch_between(initial, aligned) or []
    assert edit.op == "add" and edit.block["opcode"] == "data_setvariableto"  # type: ignore[union-attr]
    coin = next(t for t in aligned["targets"] if t.get("name") == "Coin")["blocks"]
    assert coin["Coin-2"]["opcode"] == "motion_gotoxy"  # the initial's id of the same block
    assert edit.block_id not in {b for t in initial["targets"] for b in t.get("blocks", {})}


def test_the_aligned_project_has_the_same_code_under_other_ids() -> None:
    initial, golden = _projects("debug_game_over")
    aligned = align_ids(initial, golden)
    for before, after in zip(golden["targets"], aligned["targets"], strict=True):
        b0, b1 = before.get("blocks", {}), after.get("blocks", {})
        assert len(b0) == len(b1)
        assert sorted(b["opcode"] for b in b0.values() if isinstance(b, dict)) == sorted(
            b["opcode"] for b in b1.values() if isinstance(b, dict)
        )
    fix = patch_between(initial, aligned)
    assert fix is not None and len(fix) == 1


def test_gold_fix_falls_back_to_aligned_ids_for_every_bundled_debug_task() -> None:
    for name in ("debug_score_reset", "debug_game_over", "debug_rocket_comparator"):
        fix = gold_fix(Path(paths.BUNDLED_TASKS / name))
        assert fix is not None and len(fix) == 1, name
