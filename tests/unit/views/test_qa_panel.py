"""The perception QA tab: list, answers with keys, blind labeling, kappa, review, scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.models.items import ReviewState
from studio.services.core import paths
from studio.services.diagnostics.qa.item import QaSet
from studio.views.diagnostics.qa_panel import QaPanel
from tests.helpers.labeling import show_panel

SHIPPED = QaSet(paths.PROJECT_ROOT / "diagnostics" / "qa")
CONN, EXIST, FIELD = "qa_conn_say_gap", "qa_exist_forever_absent", "qa_field_wait_secs"


@pytest.fixture
def qa_root(tmp_path: Path) -> Path:
    root = tmp_path / "qa"
    qa = QaSet(root)
    for task_id in (CONN, EXIST, FIELD):
        item = SHIPPED.load(task_id)
        qa.save(item, SHIPPED.screenshot_path(item.screenshot).read_bytes())
    return root


def make_panel(qtbot: Any, root: Path, who: list[str]) -> tuple[QaPanel, list[str]]:
    panel, messages = show_panel(qtbot, QaPanel, root, who)
    return panel, messages


def test_the_set_lists_its_items_names_a_broken_file_and_shows_the_suggestion(
    qtbot: Any, qa_root: Path
) -> None:
    (qa_root / "items" / "qa_broken.json").write_text('{"task_id": 3}', encoding="utf-8")
    panel, _ = make_panel(qtbot, qa_root, ["ann"])
    assert panel.model.rowCount() == 3
    assert "qa_broken.json" in panel.problems.text()
    assert panel.item is not None and panel.item.task_id == CONN
    assert not panel.canvas.pixmap.isNull()
    assert "Ground truth: <b>NO</b>" in panel.suggestion.text()
    assert "VM" in panel.suggestion.text()
    assert panel.no.isChecked() and not panel.yes.isChecked() and not panel.value.isVisible()
    panel.select(FIELD)
    assert panel.value.isVisible() and not panel.yes.isVisible()
    assert panel.value.text() == "0.1"


def test_a_correction_becomes_the_ground_truth_and_approval_is_recorded(
    qtbot: Any, qa_root: Path
) -> None:
    panel, messages = make_panel(qtbot, qa_root, [""])
    assert not panel.save_answer()
    assert any("name" in m for m in messages)
    panel.context.labeler = lambda: "ann"
    panel.activateWindow()
    qtbot.waitActive(panel)
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus)
    QTest.keyClick(panel.table, Qt.Key.Key_Y)  # the Y key answers yes
    assert panel.yes.isChecked()
    QTest.keyClick(panel.table, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert QaSet(qa_root).load(CONN).ground_truth == "NO"  # approved: asked first
    assert panel.truth_guard.isVisible()
    panel.truth_guard.change.click()  # the labeler confirms: the truth changes, reviewed again
    assert QaSet(qa_root).load(CONN).review.state is ReviewState.LABELED
    QTest.keyClick(panel.table, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    stored = QaSet(qa_root).load(CONN)
    assert stored.ground_truth == "YES"
    assert stored.review.state is ReviewState.APPROVED and stored.review.reviewer == "ann"
    assert [e.state.value for e in stored.review.history[-3:]] == ["draft", "labeled", "approved"]
    assert [(a.labeler, a.answer) for a in stored.answers] == [("ann", "YES")]
    assert stored.suggestion is not None and stored.suggestion.answer == "NO"
    assert "(corrected)" in panel.suggestion.text()

    assert panel.review(ReviewState.DRAFT)
    panel.select(FIELD)
    panel.value.setText(" 0.10 ")
    assert not panel.save_answer()  # an approved truth: asked first
    with qtbot.waitSignal(panel.truth_guard.change_confirmed):
        panel.truth_guard.change.click()
    field = QaSet(qa_root).load(FIELD)
    assert field.ground_truth == "0.10" and field.review.state is ReviewState.LABELED
    assert panel.review(ReviewState.REJECTED)
    assert QaSet(qa_root).load(FIELD).review.state is ReviewState.REJECTED


def test_one_key_does_not_overwrite_a_reviewed_truth(qtbot: Any, qa_root: Path) -> None:
    """Issue 31, point 3: an approved item whose truth is NO (the VM says NO too); Y, Ctrl+S."""
    before = QaSet(qa_root).load(CONN)
    assert before.review.state is ReviewState.APPROVED and before.ground_truth == "NO"
    assert before.suggestion is not None and before.suggestion.answer == "NO"
    panel, _ = make_panel(qtbot, qa_root, ["ann"])
    panel.yes.setChecked(True)
    assert not panel.save_answer()  # Ctrl+S: nothing is written yet, the panel asks
    assert QaSet(qa_root).load(CONN) == before
    guard = panel.truth_guard
    assert guard.isVisible() and "contradicts the VM's answer, NO" in guard.text.text()
    assert "sends it back to review" in guard.text.text()
    guard.keep.click()  # keep the truth: the answer is the labeler's own
    kept = QaSet(qa_root).load(CONN)
    assert kept.ground_truth == "NO" and kept.review == before.review
    assert [(a.labeler, a.answer) for a in kept.answers][-1] == ("ann", "YES")
    assert not guard.isVisible()
    panel.no.setChecked(True)
    assert panel.save_answer() and not guard.isVisible()  # the same truth: nothing to ask


def test_blind_answers_leave_the_truth_alone_and_kappa_compares_two_labelers(
    qtbot: Any, qa_root: Path
) -> None:
    who = ["ann"]
    panel, _ = make_panel(qtbot, qa_root, who)
    for task_id, answer in ((CONN, "NO"), (EXIST, "NO")):
        panel.select(task_id)
        panel._set_answer(answer)
        assert panel.save_answer()

    who[0] = "bob"
    panel.blind.setChecked(True)
    panel.select(CONN)
    assert "hidden" in panel.suggestion.text() and "NO" not in panel.suggestion.text()
    assert not panel.yes.isChecked() and not panel.no.isChecked()  # nothing to copy from
    assert "ann" not in panel.answers_text.text()
    assert panel.model.data(panel.model.index(0, 3)) == "·"
    assert not panel.approve()
    assert not panel.agree_button.isEnabled()
    panel._set_answer("YES")
    assert panel.save_answer()
    assert QaSet(qa_root).load(CONN).ground_truth == "NO"  # a blind answer is only an answer
    panel.select(EXIST)
    panel._set_answer("NO")
    assert panel.save_answer()

    panel.blind.setChecked(False)
    assert {panel.agree_a.currentText(), panel.agree_b.currentText()} == {"ann", "bob"}
    out = panel.show_agreement()
    assert out is not None and out["items"] == 2 and out["agreement"] == 50.0
    assert "Cohen's kappa" in panel.agree_text.text()
    assert "ann: <b>NO</b>" in panel.answers_text.text()


def test_model_answers_are_scored_per_type_and_marked_on_the_item(
    qtbot: Any, qa_root: Path, tmp_path: Path
) -> None:
    panel, messages = make_panel(qtbot, qa_root, ["ann"])
    answers = tmp_path / "answers.jsonl"
    lines = [
        {"model": "good", "task_id": CONN, "answer": "No."},
        {"model": "good", "task_id": EXIST, "answer": "no"},
        {"model": "good", "task_id": FIELD, "answer": "0.1"},
        {"model": "poor", "task_id": CONN, "answer": "yes"},
    ]
    answers.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    rows = panel.score_file(answers)
    assert rows is not None
    assert rows["good"]["overall"] == 100.0 and rows["poor"]["overall"] == 0.0
    assert rows["poor"]["missing"] == [EXIST, FIELD]
    assert panel.score_table.rowCount() == 2
    assert panel.score_table.item(0, 0).text() == "good"
    assert panel.score_table.item(0, 5).text() == "100.0%"
    assert "model good: No. ✓" in panel.answers_text.text()
    assert "model poor: yes ✗" in panel.answers_text.text()

    answers.write_text('{"task_id": "x"}\n', encoding="utf-8")
    assert panel.score_file(answers) is None
    assert any("answers.jsonl" in m and "line 1" in m for m in messages)


def test_the_block_asked_about_is_outlined_unless_that_gives_the_answer_away(
    qtbot: Any, qa_root: Path
) -> None:
    qa = QaSet(qa_root)
    for task_id in (CONN, EXIST):
        item = qa.load(task_id)
        item.capture["subject_box"] = {"x": 100.0, "y": 50.0, "w": 80.0, "h": 30.0}
        qa.save(item)
    item = qa.load(FIELD)
    item.capture.pop("subject_box", None)  # an item captured before boxes were kept
    qa.save(item)
    panel, _ = make_panel(qtbot, qa_root, ["ann"])
    (rect, _colour, label), *rest = panel.canvas.boxes
    assert not rest and label == "asked about"
    assert (rect.x(), rect.y(), rect.width(), rect.height()) == (100.0, 50.0, 80.0, 30.0)
    panel.blind.setChecked(True)
    assert len(panel.canvas.boxes) == 1  # where a block is does not answer a connection question
    panel.select(EXIST)
    assert panel.canvas.boxes == []  # ...but it answers an existence question
    panel.blind.setChecked(False)
    assert len(panel.canvas.boxes) == 1
    panel.select(FIELD)
    assert panel.canvas.boxes == []  # captured before boxes were kept


def test_the_new_item_bar_does_not_widen_the_window_past_the_screen(qtbot: Any) -> None:
    """Issue 31, point 10: a long prompt and long field names wrap or shorten in the bar."""
    from studio.views.diagnostics.qa_author import QaAuthorBar

    bar = QaAuthorBar()
    qtbot.addWidget(bar)
    bar.prompt.setText(
        "<b>looks_switchcostumeto_and_a_long_extension_opcode</b> at the block under the "
        "pointer in the code area of the sprite Robot: choose the question " * 3
    )
    bar.field.addItems(["COSTUME_NAME_OF_A_VERY_LONG_MENU_FIELD_IN_AN_EXTENSION_BLOCK"] * 2)
    bar.show()
    assert bar.minimumSizeHint().width() <= 1000
