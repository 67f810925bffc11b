"""The labeling commands' review steps (`studio drag review`, `studio qa confirm`): the
services' rules, a refusal printed with the item's name and exit code 2, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.cli import main
from studio.models.items import ReviewState
from studio.services.core import paths
from studio.services.diagnostics.drag.item import load_item
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.review import TRUTH_CHANGED

SHIPPED = paths.PROJECT_ROOT / "diagnostics"
DRAG = "t1_goto_below_flag"  # shipped approved, with regions
QA = "qa_conn_say_gap"  # shipped approved, ground truth NO


@pytest.fixture
def drag_item(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SHIPPED / "drag" / DRAG, tmp_path / DRAG))


@pytest.fixture
def qa_set(tmp_path: Path) -> Path:
    shipped, qa = QaSet(SHIPPED / "qa"), QaSet(tmp_path / "qa")
    qa.save(shipped.load(QA))
    return qa.root


def drag_review(item: Path, *args: str) -> int:
    return main(["drag", "review", str(item), *args])


def test_drag_review_follows_the_items_rules(
    drag_item: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (drag_item / "item.json").read_bytes()
    assert drag_review(drag_item, "--approve", "--by", "rev") == 2
    assert (
        f"error: drag item {DRAG}: cannot go from approved to approved" in capsys.readouterr().err
    )
    assert drag_review(drag_item, "--reject", "--by", "rev") == 2
    assert (drag_item / "item.json").read_bytes() == before  # a refusal writes nothing

    assert drag_review(drag_item, "--reopen", "--by", "ann", "--comment", "look again") == 0
    assert capsys.readouterr().out.strip() == f"{DRAG}: draft"
    assert drag_review(drag_item, "--approve", "--by", "rev", "--labeler", "bob") == 2
    assert "bob has not labeled it" in capsys.readouterr().err
    assert drag_review(drag_item, "--approve", "--by", "rev") == 0
    review = load_item(drag_item).item.review
    assert review.state is ReviewState.APPROVED and review.reviewer == "rev"
    assert [e.comment for e in review.history[-3:]] == ["look again", "", ""]


def test_drag_review_refuses_to_approve_an_item_without_regions(
    drag_item: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = load_item(drag_item)
    entry.item.evaluation_config.feasible_start_points = []
    entry.save()
    assert drag_review(drag_item, "--reopen", "--by", "ann") == 0
    assert drag_review(drag_item, "--approve", "--by", "rev") == 2
    err = capsys.readouterr().err
    assert f"drag item {DRAG}: approving needs a start region" in err
    assert load_item(drag_item).item.review.state is ReviewState.DRAFT


def test_qa_confirm_checks_the_answer_and_a_changed_truth_is_reviewed_again(
    qa_set: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    confirm = ["qa", "confirm", str(qa_set), QA, "--by", "ann"]
    assert main([*confirm, "--answer", "maybe"]) == 2
    assert f"QA item {QA}: a connection answer is YES or NO" in capsys.readouterr().err
    assert main([*confirm, "--answer", "no"]) == 0  # the same truth: still approved
    assert QaSet(qa_set).load(QA).review.state is ReviewState.APPROVED
    assert main([*confirm, "--answer", "yes"]) == 0
    item = QaSet(qa_set).load(QA)
    assert item.ground_truth == "YES" and item.review.state is ReviewState.LABELED
    assert item.review.history[-2].comment == TRUTH_CHANGED
    assert main([*confirm, "--approve"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{QA}: YES (approved)"
    assert main([*confirm, "--approve"]) == 2  # approving an approved item is refused
