"""Metadata derived from the initial and golden projects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from studio.services.authoring.metadata import apply_metadata, derive_metadata, metadata_from_files
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder
from tests.unit.authoring.conftest import TASKS

Bundled = Callable[[str], TaskFolder]


def projects(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return load_sb3(TASKS / name / "initial.sb3")[1], load_sb3(TASKS / name / "golden.sb3")[1]


def test_derive_for_a_one_block_fix() -> None:
    changed, used = derive_metadata(*projects("debug_score_reset"))
    assert changed == 1
    assert used == [
        "data_changevariableby",
        "data_setvariableto",
        "event_whenflagclicked",
        "event_whenthisspriteclicked",
        "looks_show",
        "motion_gotoxy",
    ]


def test_same_project_changes_nothing() -> None:
    _, golden = projects("debug_score_reset")
    assert derive_metadata(golden, golden)[0] == 0


@pytest.mark.parametrize("name", ["create_arrow_keys", "extend_rain_clones", "compute_sum_to_n"])
def test_matches_the_bundled_metadata(bundled: Bundled, name: str) -> None:
    entry = bundled(name)
    derived = metadata_from_files(entry).metadata
    assert derived.blocks_changed == entry.task.metadata.blocks_changed
    assert derived.block_types_used == entry.task.metadata.block_types_used


def test_apply_keeps_author_fields_and_does_not_mutate(bundled: Bundled) -> None:
    entry = bundled("debug_score_reset")
    task = entry.task.model_copy(deep=True)
    task.metadata.blocks_changed = 99
    task.metadata.block_types_used = []
    updated = apply_metadata(task, *projects("debug_score_reset"))
    assert updated.metadata.blocks_changed == 1 and len(updated.metadata.block_types_used) == 6
    assert updated.metadata.difficulty == "easy" and "variables" in updated.metadata.tags
    assert task.metadata.blocks_changed == 99


def test_without_golden_only_block_types_of_initial(bundled: Bundled) -> None:
    initial, _ = projects("debug_score_reset")
    updated = apply_metadata(bundled("debug_score_reset").task, initial, None)
    assert updated.metadata.blocks_changed is None
    assert "data_setvariableto" not in updated.metadata.block_types_used  # the bug: no reset
    assert "data_changevariableby" in updated.metadata.block_types_used
