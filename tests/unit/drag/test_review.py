"""The review rules of a drag item: a label and an approval need both regions, approving
with a labeler takes their regions, approving again, recomputed regions, refusals named."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.errors import ReviewError, StudioError
from studio.models.items import AGAIN, ReviewState
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.review import approve, move, record_label, regions_replaced
from tests.unit.drag.test_roundtrip import drag_item

S = ReviewState


def test_a_label_needs_a_name_and_both_regions() -> None:
    item = drag_item()
    with pytest.raises(ReviewError, match="drag item d1: a label needs the labeler's name"):
        record_label(item, "", [[1, 1]], [[2, 2]])
    with pytest.raises(ReviewError, match=r"drag item d1: a label needs a start region \("):
        record_label(item, "ann", [], [[2, 2]])
    with pytest.raises(ReviewError, match="needs a start and an end region"):
        record_label(item, "ann", [], [])
    labeled = record_label(item, "ann", [[1, 1]], [[2, 2]])
    assert labeled.review.state is S.LABELED and item.review.state is S.DRAFT
    again = record_label(labeled, "ann", [[3, 3]], [[4, 4]])  # replaces ann's own label
    assert [(lab.labeler, lab.end_points) for lab in again.labels] == [("ann", [[4, 4]])]


def test_approval_needs_regions_and_takes_the_labelers() -> None:
    bare = drag_item()
    bare.evaluation_config.feasible_points = []
    with pytest.raises(ReviewError, match="drag item d1: approving needs an end region"):
        approve(bare, "rev")
    with pytest.raises(StudioError, match="bob has not labeled it"):
        approve(bare, "rev", labeler="bob")
    labeled = record_label(bare, "bob", [[5, 5]], [[6, 6]])
    done = approve(labeled, "rev", labeler="bob", comment="ok")
    assert done.evaluation_config.feasible_points == [[6, 6]]
    assert done.evaluation_config.feasible_start_points == [[5, 5]]
    assert (done.review.state, done.review.reviewer, done.review.comment) == (
        S.APPROVED,
        "rev",
        "ok",
    )
    assert bare.evaluation_config.feasible_points == []  # the item given is left alone


def test_approving_an_approved_item_is_refused_unless_again() -> None:
    done = approve(drag_item(), "rev")
    assert [e.by for e in done.review.history] == ["rev", "rev"]  # labeled by the reviewer
    with pytest.raises(ReviewError, match="drag item d1: cannot go from approved to approved"):
        approve(done, "rev")
    again = approve(done, "ann", labeler=None, again=True)
    assert again.review.state is S.APPROVED
    assert again.review.history[-3].comment == AGAIN


def test_steps_of_the_review_box() -> None:
    item = drag_item()
    with pytest.raises(ReviewError, match="drag item d1: cannot go from draft to rejected"):
        move(item, S.REJECTED, "rev")
    labeled = move(item, S.LABELED, "ann")  # the item's stored regions
    rejected = move(labeled, S.REJECTED, "rev", "too small")
    assert (rejected.review.state, rejected.review.comment) == (S.REJECTED, "too small")
    assert move(rejected, S.DRAFT, "ann").review.state is S.DRAFT
    assert move(labeled, S.APPROVED, "rev").review.state is S.APPROVED
    bare = drag_item()
    bare.evaluation_config.feasible_start_points = []
    with pytest.raises(ReviewError, match="labeled needs a start region"):
        move(bare, S.LABELED, "ann")
    own = record_label(bare, "ann", [[1, 1]], [[2, 2]])
    assert move(move(own, S.DRAFT, "ann"), S.LABELED, "ann").review.state is S.LABELED


def test_recomputed_regions_send_the_item_back_to_draft() -> None:
    item = drag_item()
    assert regions_replaced(item, "studio", "regions recomputed") is item
    back = regions_replaced(approve(item, "rev"), "studio", "regions recomputed")
    assert back.review.state is S.DRAFT
    assert (back.review.history[-1].by, back.review.history[-1].comment) == (
        "studio",
        "regions recomputed",
    )


def test_recomputing_identical_regions_keeps_an_approved_item_approved(tmp_path: Path) -> None:
    """Issue 31, point 10: only regions that differ send an approved item back to draft."""
    from studio.app.regions import RegionResult, apply_result

    done = approve(drag_item(), "rev")
    cfg = done.evaluation_config
    same = RegionResult(
        start_points=[(int(p[0]), int(p[1])) for p in cfg.feasible_start_points],
        end_points=[(int(p[0]), int(p[1])) for p in reversed(cfg.feasible_points)],
        drag_start_point=(1.0, 1.0),
        destination=(2.0, 2.0),
        seconds=3.5,
        drags=12,
    )
    entry = ItemFolder(tmp_path / "d1", done)
    apply_result(entry, same, cfg.grid, 1)
    assert entry.item.review.state is S.APPROVED
    assert entry.item.region_stats is not None and entry.item.region_stats.drags == 12

    moved = RegionResult(**{**same.__dict__, "end_points": [(999, 999)]})
    apply_result(entry, moved, cfg.grid, 1)
    assert entry.item.review.state is S.DRAFT
