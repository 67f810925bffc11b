"""The perception QA tab: list, screenshot, question, answer, review, agreement, scoring.

For the selected item the labeler sees the screenshot and the question, and (unless Blind is
on) the answer the studio suggested from the VM at capture time and why. Save records the
labeler's answer; outside blind mode it also becomes the item's ground truth (the labeler
confirms or corrects the suggestion). Blind hides the suggestion, the ground truth and the
other labelers' answers, so a second labeler answers independently; Agreement then gives
Cohen's kappa of two labelers over the set. Score reads a JSONL of model answers and reports
accuracy per question type, and marks each model's answer on the item shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.models.errors import StudioError
from studio.models.items import ReviewState
from studio.models.qa_item import QaItem, QaType
from studio.services.diagnostics.qa import review as qa_review
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.scoring import (
    blind_copy,
    correct,
    labeler_agreement,
    read_answers,
    record_answer,
    score,
)
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.drag_author import PICK_COLOUR
from studio.views.diagnostics.panel_base import AgreementBox, LabelingPanel
from studio.views.diagnostics.qa_author import QaAuthorBar, QaAuthoring
from studio.views.diagnostics.qa_items_model import QaItemsModel, read_set
from studio.views.diagnostics.qa_outline import outline_note, subject_rect
from studio.views.diagnostics.region_canvas import RegionCanvas
from studio.views.diagnostics.truth_guard import TruthGuard

SCORE_COLUMNS = ("Model", "Connection", "Existence", "Field", "Field exact", "Overall", "Missing")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}%"


class QaPanel(LabelingPanel):
    """Everything a labeler does with perception QA items."""

    authoring: QaAuthoring

    def __init__(self, context: LabelingContext, root: Path, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            root,
            QaItemsModel(),
            "Your answer becomes the ground truth; approved (Ctrl+Enter)",
            parent,
        )
        self.model: QaItemsModel
        self.item: QaItem | None = None
        self.model_answers: dict[str, dict[str, str]] = {}
        self._build()
        self._connect()
        self.load_folder(root)

    # ---- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.open_button.setText("Open set…")
        self.new_button.setToolTip("Capture the studio's editor and pick the block to ask about")
        self.score_button = QPushButton("Score model answers…", self)
        self.score_button.setToolTip("A JSONL file of {task_id, answer[, model]} lines")
        self.score_table = QTableWidget(0, len(SCORE_COLUMNS), self)
        self.score_table.setHorizontalHeaderLabels(SCORE_COLUMNS)
        self.score_table.verticalHeader().hide()
        self.score_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.score_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.score_table.setMaximumHeight(130)
        self.score_table.hide()

        self.author_bar = QaAuthorBar(self)
        self.canvas = RegionCanvas(self)
        self.canvas.setToolTip("The wheel zooms (0: whole screen), the middle button pans")
        self.authoring = QaAuthoring(self.context, self.canvas, self.author_bar, self.root)
        self.caption = QLabel(self)
        self.caption.setWordWrap(True)
        centre = QWidget(self)
        centre_col = QVBoxLayout(centre)
        centre_col.setContentsMargins(0, 0, 0, 0)
        centre_col.addWidget(self.author_bar)
        centre_col.addWidget(self.canvas, 1)
        centre_col.addWidget(self.caption)

        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.question = QPlainTextEdit(self)
        self.question.setMaximumHeight(70)
        self.tag = QLineEdit(self)
        self.hint = QLineEdit(self)
        self.hint.setPlaceholderText("optional: where to look")
        self.suggestion = QLabel(self)
        self.suggestion.setWordWrap(True)
        self.suggestion.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.yes = QRadioButton("Yes (Y)", self)
        self.no = QRadioButton("No (N)", self)
        self.yes_no = QButtonGroup(self)
        self.yes_no.addButton(self.yes)
        self.yes_no.addButton(self.no)
        self.value = QLineEdit(self)
        self.value.setPlaceholderText("the value the field shows")
        self.blind = QCheckBox("Blind (hide the suggestion, truth and others' answers)", self)
        self.save_button = QPushButton("Save my answer", self)
        self.save_button.setToolTip(
            "Record your answer (Ctrl+S); outside blind mode it becomes the ground truth"
        )
        self.truth_guard = TruthGuard(self)
        self.answers_text = QLabel(self)
        self.answers_text.setWordWrap(True)
        self.agreement = AgreementBox("Agreement of two labelers (whole set)", "Kappa", self)
        self.agree_a, self.agree_b = self.agreement.first, self.agreement.second
        self.agree_button, self.agree_text = self.agreement.button, self.agreement.text

        item_box = QGroupBox("Item", self)
        form = QFormLayout(item_box)
        form.addRow(self.title)
        form.addRow("Question", self.question)
        form.addRow("Tag", self.tag)
        form.addRow("Focus hint", self.hint)
        form.addRow(self.suggestion)
        answer_row = QHBoxLayout()
        answer_row.addWidget(self.yes)
        answer_row.addWidget(self.no)
        answer_row.addWidget(self.value, 1)
        form.addRow("Answer", answer_row)
        form.addRow(self.blind)
        form.addRow(self.save_button)
        form.addRow(self.truth_guard)
        form.addRow(self.answers_text)
        side = QWidget(self)
        side_col = QVBoxLayout(side)
        side_col.setContentsMargins(0, 0, 0, 0)
        for group in (item_box, self.review_box, self.agreement):
            side_col.addWidget(group)
        side_col.addStretch(1)

        left_col = self.list_column()
        left_col.addWidget(self.score_button)
        left_col.addWidget(self.score_table)
        self.assemble(left_col, centre, side)

    def _connect(self) -> None:
        self.blind.toggled.connect(self._on_blind)
        self.save_button.clicked.connect(self.save_answer)
        self.truth_guard.change_confirmed.connect(self.save_answer)
        self.truth_guard.truth_kept.connect(self.save_own_answer)
        self.agree_button.clicked.connect(self.show_agreement)
        self.score_button.clicked.connect(self._ask_answers)
        self.connect_common(
            [
                ("Ctrl+S", self.save_answer),
                ("Ctrl+Return", self.approve),
                ("Y", lambda: self.yes.setChecked(True)),
                ("N", lambda: self.no.setChecked(True)),
                ("0", self.canvas.reset_view),
            ]
        )

    # ---- set and selection ---------------------------------------------------------------------
    def read(self, root: Path) -> tuple[list[Any], list[str]]:
        rows, problems = read_set(root)
        return list(rows), problems

    def loaded(self) -> None:
        self._fill_labelers()

    def _on_blind(self, on: bool) -> None:
        self.model.set_hide_truth(on)
        self._fill_labelers()
        self.show_row(self.table.currentIndex().row())

    def current(self) -> QaItem | None:
        return self.item

    def step(self, item: QaItem, state: ReviewState, by: str) -> QaItem:
        return qa_review.move(item, state, by)

    def made_key(self, made: QaItem) -> str:
        return made.task_id

    def show_row(self, row: int) -> None:
        self.truth_guard.withdraw()
        items = self.model.items
        self.item = items[row] if 0 <= row < len(items) else None
        for widget in (self.save_button, self.approve_button):
            widget.setEnabled(self.item is not None)
        if self.item is None:
            self.canvas.show_item(None, set(), set(), 5, None)
            for label in (self.title, self.suggestion, self.caption, self.answers_text):
                label.setText("")
            self.title.setText("No item")
            self.question.setPlainText("")
            return
        item = self.item
        name = self.context.labeler()
        blind = self.blind.isChecked()
        shown = blind_copy(item, name) if blind else item
        shot = QaSet(self.root).screenshot_path(item.screenshot)
        png = shot.read_bytes() if shot.is_file() else None
        self.canvas.show_item(png, set(), set(), 5, None, self._subject_boxes(item, blind))
        area = item.capture.get("area", "window")
        self.caption.setText(
            f"{item.screenshot} ({'code area' if area == 'canvas' else area}){outline_note(item)}"
            if png
            else f"<span style='color:#b00'>{shot}: the screenshot is missing</span>"
        )
        self.title.setText(f"<b>{item.task_id}</b> · {item.task_type.value}")
        self.question.setPlainText(item.instruction)
        self.tag.setText(item.tag)
        self.hint.setText(item.focus_hint)
        self._show_suggestion(item, blind)
        own = next((a.answer for a in shown.answers if a.labeler == name), None)
        self._set_answer(own if own is not None else (None if blind else item.ground_truth))
        self._show_answers(shown, blind)
        self._show_review(item)

    def _subject_boxes(self, item: QaItem, blind: bool) -> list[tuple[QRectF, QColor, str]]:
        """The outline of the block the question is about (not for a blind existence
        question: where the block is would give the answer away)."""
        rect = subject_rect(item)
        if rect is None or (blind and item.task_type is QaType.EXISTENCE):
            return []
        return [(rect, PICK_COLOUR, "asked about")]

    def _show_suggestion(self, item: QaItem, blind: bool) -> None:
        if blind:
            self.suggestion.setText("<i>suggestion and ground truth hidden (blind)</i>")
            return
        lines = [f"Ground truth: <b>{item.ground_truth}</b>"]
        if item.suggestion is not None:
            agrees = "" if item.suggestion.answer == item.ground_truth else " (corrected)"
            lines.append(
                f"Suggested from the VM: <b>{item.suggestion.answer}</b>{agrees} · "
                f"{item.suggestion.tag}<br><small>{item.suggestion.why}</small>"
            )
        self.suggestion.setText("<br>".join(lines))

    def _set_answer(self, answer: str | None) -> None:
        yes_no = self.item is not None and self.item.task_type is not QaType.FIELD
        for button in (self.yes, self.no):
            button.setVisible(yes_no)
        self.value.setVisible(not yes_no)
        self.yes_no.setExclusive(False)
        self.yes.setChecked(yes_no and (answer or "").upper() == "YES")
        self.no.setChecked(yes_no and (answer or "").upper() == "NO")
        self.yes_no.setExclusive(True)
        self.value.setText("" if yes_no else (answer or ""))

    def _answer(self) -> str | None:
        if self.item is None:
            return None
        if self.item.task_type is QaType.FIELD:
            return self.value.text().strip() or None
        if self.yes.isChecked():
            return "YES"
        return "NO" if self.no.isChecked() else None

    def _show_answers(self, shown: QaItem, blind: bool) -> None:
        lines = [
            f"{a.labeler}: <b>{a.answer}</b> <small>{a.at[:16]}</small>" for a in shown.answers
        ]
        if blind and self.item is not None and len(shown.answers) < len(self.item.answers):
            lines.append("<i>others' answers hidden</i>")
        for model, answers in sorted(self.model_answers.items()):
            if shown.task_id in answers and not blind:
                answer = answers[shown.task_id]
                mark = "✓" if correct(shown, answer) else "✗"
                lines.append(f"model {model}: {answer} {mark}")
        self.answers_text.setText("<br>".join(lines) or "no answers yet")

    def _show_review(self, item: QaItem) -> None:
        self.review_box.show_review(item.review)
        self.approve_button.setEnabled(not self.blind.isChecked())

    def _fill_labelers(self) -> None:
        names = sorted({a.labeler for item in self.model.items for a in item.answers})
        self.agreement.fill(names, self.blind.isChecked(), f"{len(names)} labelers answered")

    # ---- answers and review ------------------------------------------------------------------
    def store(self, item: QaItem) -> None:
        QaSet(self.root).save(item)
        self.item = item
        self.model.refresh(item)
        self._show_review(item)
        self._show_answers(
            blind_copy(item, self.context.labeler()) if self.blind.isChecked() else item,
            self.blind.isChecked(),
        )
        self._fill_labelers()

    def save_answer(self) -> bool:
        """Record the labeler's answer (and the edited question); outside blind mode it
        becomes the ground truth (an approved item whose truth would change asks first, and
        is reviewed again)."""
        return self._save(as_truth=not self.blind.isChecked())

    def save_own_answer(self) -> bool:
        """Record the labeler's answer as theirs only: the ground truth stays as reviewed."""
        return self._save(as_truth=False)

    def _save(self, as_truth: bool) -> bool:
        name = self.labeler_or_say()
        if self.item is None or not name:
            return False
        answer = self._answer()
        if answer is None:
            self.context.message(f"{self.item.task_id}: give an answer first")
            return False
        item = self.item.model_copy(
            update={
                "instruction": self.question.toPlainText().strip() or self.item.instruction,
                "tag": self.tag.text().strip() or self.item.tag,
                "focus_hint": self.hint.text().strip(),
            }
        )
        if as_truth and not self.truth_guard.allows(self.item, answer):
            return False  # the guard asks first
        try:  # outside blind mode the answer is the truth (a changed one is reviewed again)
            item = record_answer(item, name, answer)
            if as_truth:
                item = qa_review.confirm(item, name, answer)
        except StudioError as exc:
            self.context.message(str(exc))
            return False
        self.store(item)
        self._show_suggestion(item, self.blind.isChecked())
        self.context.message(f"{item.task_id}: your answer {answer} is saved")
        return True

    def approve(self) -> bool:
        """Approve the item with the labeler's answer as its ground truth."""
        name = self.labeler_or_say()
        if self.item is None or not name:
            return False
        if self.blind.isChecked():
            self.context.message("Turn Blind off to review: approving shows the ground truth")
            return False
        if not self.save_answer():
            return False
        assert self.item is not None
        try:  # approved again if it was, with this answer
            item = qa_review.approve(self.item, name, again=True)
        except StudioError as exc:
            self.context.message(str(exc))
            return False
        self.store(item)
        self.context.message(f"{item.task_id}: approved by {name}")
        return True

    def show_agreement(self) -> dict[str, Any] | None:
        a, b = self.agree_a.currentText(), self.agree_b.currentText()
        if not a or not b or a == b:
            self.agree_text.setText("choose two different labelers")
            return None
        out = labeler_agreement(self.model.items, a, b)
        if not out["items"]:
            self.agree_text.setText(f"{a} and {b} have no item in common")
            return out
        by_type = ", ".join(
            f"{t} {k:.2f}" if k is not None else f"{t} –" for t, k in out["kappa_by_type"].items()
        )
        kappa = "–" if out["kappa"] is None else f"{out['kappa']:.3f}"
        self.agree_text.setText(
            f"{a} vs {b}: {out['items']} items, agreement {_pct(out['agreement'])}, "
            f"Cohen's kappa {kappa}<br><small>by type: {by_type}</small>"
        )
        return out

    # ---- scoring -------------------------------------------------------------------------------
    def _ask_answers(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(
            self, "Model answers", str(self.root), "JSON lines (*.jsonl);;All files (*)"
        )
        if chosen:
            self.score_file(Path(chosen))

    def score_file(self, path: Path) -> dict[str, dict[str, Any]] | None:
        """Score every model's answers in `path` against the set; the table shows the result."""
        try:
            self.model_answers = read_answers(path)
        except StudioError as exc:
            self.context.message(str(exc))
            return None
        rows = {model: score(self.model.items, ans) for model, ans in self.model_answers.items()}
        self.score_table.setRowCount(len(rows))
        for r, (model, out) in enumerate(sorted(rows.items())):
            cells = [
                model,
                _pct(out["connection"]),
                _pct(out["existence"]),
                _pct(out["field"]),
                _pct(out["field_exact"]),
                _pct(out["overall"]),
                str(len(out["missing"])),
            ]
            for c, text in enumerate(cells):
                self.score_table.setItem(r, c, QTableWidgetItem(text))
        self.score_table.show()
        self.show_row(self.table.currentIndex().row())
        self.context.message(f"Scored {len(rows)} model(s) from {path}")
        return rows

    # ---- capture -----------------------------------------------------------------------------
    async def new_from_editor(self) -> QaItem | None:
        """Capture an item from the editor's state; it is selected in the list when made."""
        made: QaItem | None = await super().new_from_editor()
        if made is not None:
            self.context.message(
                f"New QA item {made.task_id}: suggested {made.ground_truth!r}; "
                "confirm or correct it"
            )
        return made
