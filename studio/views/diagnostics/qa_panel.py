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

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
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
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.services.drag.review import ReviewError, ReviewState
from studio.services.errors import StudioError
from studio.services.qa.item import QaItem, QaSet, QaType, confirm
from studio.services.qa.scoring import (
    blind_copy,
    correct,
    labeler_agreement,
    read_answers,
    record_answer,
    score,
)
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.qa_author import QaAuthorBar, QaAuthoring
from studio.views.diagnostics.qa_items_model import QaItemsModel, read_set
from studio.views.diagnostics.region_canvas import RegionCanvas

SCORE_COLUMNS = ("Model", "Connection", "Existence", "Field", "Field exact", "Overall", "Missing")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}%"


class QaPanel(QWidget):
    """Everything a labeler does with perception QA items."""

    def __init__(self, context: LabelingContext, root: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.root = root
        self.item: QaItem | None = None
        self.model_answers: dict[str, dict[str, str]] = {}
        self.model = QaItemsModel(self)
        self._build()
        self._connect()
        self.load_folder(root)

    # ---- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.folder_label = QLabel(self)
        self.open_button = QPushButton("Open set…", self)
        self.new_button = QPushButton("New item from editor…", self)
        self.new_button.setToolTip("Capture the studio's editor and pick the block to ask about")
        self.problems = QLabel(self)
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #b00;")
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
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
        self.answers_text = QLabel(self)
        self.answers_text.setWordWrap(True)
        self.approve_button = QPushButton("Approve", self)
        self.approve_button.setToolTip(
            "Your answer becomes the ground truth; approved (Ctrl+Enter)"
        )
        self.reject_button = QPushButton("Reject", self)
        self.reopen_button = QPushButton("Reopen", self)
        self.review_text = QLabel(self)
        self.review_text.setWordWrap(True)
        self.agree_a, self.agree_b = QComboBox(self), QComboBox(self)
        self.agree_button = QPushButton("Kappa", self)
        self.agree_text = QLabel(self)
        self.agree_text.setWordWrap(True)

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
        form.addRow(self.answers_text)
        review_box = QGroupBox("Review", self)
        review_col = QVBoxLayout(review_box)
        review_row = QHBoxLayout()
        for button in (self.approve_button, self.reject_button, self.reopen_button):
            review_row.addWidget(button)
        review_col.addLayout(review_row)
        review_col.addWidget(self.review_text)
        agree_box = QGroupBox("Agreement of two labelers (whole set)", self)
        agree_col = QVBoxLayout(agree_box)
        agree_row = QHBoxLayout()
        agree_row.addWidget(self.agree_a)
        agree_row.addWidget(self.agree_b)
        agree_row.addWidget(self.agree_button)
        agree_col.addLayout(agree_row)
        agree_col.addWidget(self.agree_text)
        side = QWidget(self)
        side_col = QVBoxLayout(side)
        side_col.setContentsMargins(0, 0, 0, 0)
        for group in (item_box, review_box, agree_box):
            side_col.addWidget(group)
        side_col.addStretch(1)

        left = QWidget(self)
        left_col = QVBoxLayout(left)
        left_col.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.new_button)
        left_col.addLayout(top)
        left_col.addWidget(self.folder_label)
        left_col.addWidget(self.problems)
        left_col.addWidget(self.table, 1)
        left_col.addWidget(self.score_button)
        left_col.addWidget(self.score_table)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        for pane in (left, centre, side):
            splitter.addWidget(pane)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([340, 850, 310])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)

    def _connect(self) -> None:
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _p: self._show(cur.row()))
        self.blind.toggled.connect(self._on_blind)
        self.save_button.clicked.connect(self.save_answer)
        self.approve_button.clicked.connect(self.approve)
        self.reject_button.clicked.connect(lambda: self.review(ReviewState.REJECTED))
        self.reopen_button.clicked.connect(lambda: self.review(ReviewState.DRAFT))
        self.agree_button.clicked.connect(self.show_agreement)
        self.score_button.clicked.connect(self._ask_answers)
        self.open_button.clicked.connect(self._ask_folder)
        self.new_button.clicked.connect(lambda: self.context.spawn(self.new_from_editor()))
        for keys, slot in (
            ("Ctrl+S", self.save_answer),
            ("Ctrl+Return", self.approve),
            ("Y", lambda: self.yes.setChecked(True)),
            ("N", lambda: self.no.setChecked(True)),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    # ---- set and selection ---------------------------------------------------------------------
    def load_folder(self, root: Path) -> None:
        self.root = root
        self.authoring.root = root
        items, problems = read_set(root)
        self.model.set_items(items)
        self.folder_label.setText(f"{len(items)} items in {root}")
        self.problems.setText("\n".join(problems))
        self.problems.setVisible(bool(problems))
        self._fill_labelers()
        if items:
            self.select(items[0].task_id)
        else:
            self._show(-1)

    def _ask_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "QA set folder", str(self.root))
        if chosen:
            self.load_folder(Path(chosen))

    def select(self, task_id: str) -> bool:
        row = self.model.row_of(task_id)
        if row < 0:
            return False
        self.table.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        return True

    def _on_blind(self, on: bool) -> None:
        self.model.set_hide_truth(on)
        self._fill_labelers()
        self._show(self.table.currentIndex().row())

    def _show(self, row: int) -> None:
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
        self.canvas.show_item(png, set(), set(), 5, None)
        area = item.capture.get("area", "window")
        self.caption.setText(
            f"{item.screenshot} ({'code area' if area == 'canvas' else area})"
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
        review = item.review
        history = [
            f"{e.state.value} by {e.by or '?'} {e.at[:16]}"
            + (f": {e.comment}" if e.comment else "")
            for e in review.history[-4:]
        ]
        self.review_text.setText(f"<b>{review.state.value}</b><br>" + "<br>".join(history))
        self.reopen_button.setEnabled(review.state is not ReviewState.DRAFT)
        self.reject_button.setEnabled(review.state is ReviewState.LABELED)
        self.approve_button.setEnabled(not self.blind.isChecked())

    def _fill_labelers(self) -> None:
        names = sorted({a.labeler for item in self.model.items for a in item.answers})
        hidden = self.blind.isChecked()
        for combo, pick in ((self.agree_a, 0), (self.agree_b, 1)):
            combo.clear()
            combo.addItems(names)
            combo.setCurrentIndex(min(pick, len(names) - 1))
            combo.setEnabled(not hidden)
        self.agree_button.setEnabled(len(names) >= 2 and not hidden)
        self.agree_text.setText(
            "hidden while labeling blind" if hidden else f"{len(names)} labelers answered"
        )

    # ---- answers and review ------------------------------------------------------------------
    def _labeler_or_say(self) -> str:
        name = self.context.labeler()
        if not name:
            self.context.message("Type your name in the Labeler field first")
        return name

    def _store(self, item: QaItem) -> None:
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
        becomes the ground truth (an approved item whose truth changes is reviewed again)."""
        name = self._labeler_or_say()
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
        try:
            item = record_answer(item, name, answer)
            if not self.blind.isChecked():
                if item.review.state is ReviewState.APPROVED and answer != item.ground_truth:
                    review = item.review.move(ReviewState.DRAFT, name, "ground truth changed")
                    item = item.model_copy(update={"review": review})  # to be reviewed again
                item = confirm(item, name, answer)
        except StudioError as exc:
            self.context.message(str(exc))
            return False
        self._store(item)
        self._show_suggestion(item, self.blind.isChecked())
        self.context.message(f"{item.task_id}: your answer {answer} is saved")
        return True

    def approve(self) -> bool:
        """Approve the item with the labeler's answer as its ground truth."""
        name = self._labeler_or_say()
        if self.item is None or not name:
            return False
        if self.blind.isChecked():
            self.context.message("Turn Blind off to review: approving shows the ground truth")
            return False
        before = self.item
        if before.review.state is ReviewState.APPROVED:  # approved again, with this answer
            review = before.review.move(ReviewState.DRAFT, name, "reopened to approve again")
            self.item = before.model_copy(update={"review": review})
        if not self.save_answer():
            self.item = before
            return False
        assert self.item is not None
        try:
            review = self.item.review.move(ReviewState.APPROVED, name)
        except ReviewError as exc:
            self.context.message(f"{self.item.task_id}: {exc}")
            return False
        self._store(self.item.model_copy(update={"review": review}))
        self.context.message(f"{self.item.task_id}: approved by {name}")
        return True

    def review(self, state: ReviewState) -> bool:
        name = self._labeler_or_say()
        if self.item is None or not name:
            return False
        try:
            review = self.item.review.move(state, name)
        except ReviewError as exc:
            self.context.message(f"{self.item.task_id}: {exc}")
            return False
        self._store(self.item.model_copy(update={"review": review}))
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
        self._show(self.table.currentIndex().row())
        self.context.message(f"Scored {len(rows)} model(s) from {path}")
        return rows

    # ---- capture -----------------------------------------------------------------------------
    async def new_from_editor(self) -> QaItem | None:
        """Capture an item from the editor's state; it is selected in the list when made."""
        if self.authoring.active:
            return None
        self.table.setEnabled(False)
        try:
            made = await self.authoring.run()
        except StudioError as exc:
            self.context.message(f"Cannot capture from the editor: {exc}")
            made = None
        finally:
            self.table.setEnabled(True)
        if made is None:
            self._show(self.table.currentIndex().row())
            return None
        self.load_folder(self.root)
        self.select(made.task_id)
        self.context.message(
            f"New QA item {made.task_id}: suggested {made.ground_truth!r}; confirm or correct it"
        )
        return made

    def stop_work(self) -> None:
        """Stop a capture session (the window is closing)."""
        self.authoring.cancel()
