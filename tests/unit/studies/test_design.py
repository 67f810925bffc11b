"""The study's design: balanced, counterbalanced, reproducible; the plan in study.json."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.studies.design import draw_design, williams_rows
from studio.services.studies.plan import load_study, new_study, public_view

TASKS = [(f"t{i}", ("create", "debug", "extend")[i % 3]) for i in range(6)]


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_williams_rows_are_latin_and_balance_what_follows_what(k: int) -> None:
    rows = williams_rows(k)
    for row in rows:
        assert sorted(row) == list(range(k))
    for col in range(k):  # each treatment at each position equally often
        counts = [sum(r[col] == t for r in rows) for t in range(k)]
        assert len(set(counts)) == 1
    follows: dict[tuple[int, int], int] = {}
    for row in rows:
        for a, b in pairwise(row):
            follows[(a, b)] = follows.get((a, b), 0) + 1
    assert len(set(follows.values())) <= 1 and len(follows) == k * (k - 1)


def test_every_task_given_equally_often_and_queues_mix_categories() -> None:
    design = draw_design(TASKS, 12, 3, seed=5)
    assert set(design.per_task.values()) == {6}  # 12 x 3 / 6
    categories = dict(TASKS)
    for queue in design.queues:
        assert len(set(queue)) == 3
        assert {categories[t] for t in queue} == {"create", "debug", "extend"}
    for counts in design.per_position.values():  # each task at each position twice
        assert counts == [2, 2, 2]


def test_the_same_seed_gives_the_same_design_and_another_seed_another() -> None:
    a, b = draw_design(TASKS, 4, 3, seed=1), draw_design(TASKS, 4, 3, seed=1)
    assert a == b
    assert draw_design(TASKS, 4, 3, seed=2).queues != a.queues


def test_numbers_that_make_no_design_are_refused() -> None:
    with pytest.raises(StudioError, match="--tasks 7"):
        draw_design(TASKS, 4, 7, seed=0)
    with pytest.raises(StudioError, match="participant"):
        draw_design(TASKS, 0, 2, seed=0)


def test_new_study_writes_a_plan_with_codes_tokens_and_a_practice(tmp_path: Path) -> None:
    ids = ["create_cat_walk", "debug_score_reset", "compute_sum_to_n", "extend_frog_jump"]
    plan = new_study(paths.BUNDLED_TASKS, tmp_path / "s", 3, per=2, seed=4, task_ids=ids)
    again = load_study(tmp_path / "s")
    assert again == plan
    assert plan.practice is not None and plan.practice not in ids
    codes = [p.code for p in plan.participants]
    assert len(set(codes)) == 3 and all(c.startswith("P-") for c in codes)
    assert len({p.token for p in plan.participants}) == 3
    assert [p.queue for p in plan.participants] == plan.design.queues
    shown = json.dumps(public_view(plan))
    assert all(p.token not in shown for p in plan.participants)
    with pytest.raises(StudioError, match="already planned"):
        new_study(paths.BUNDLED_TASKS, tmp_path / "s", 3)


def test_a_broken_study_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "study.json").write_text('{"name": 3}')
    with pytest.raises(StudioError, match=r"study.json: field"):
        load_study(tmp_path)
    with pytest.raises(StudioError, match="no study here"):
        load_study(tmp_path / "nothing")
