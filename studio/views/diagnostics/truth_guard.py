"""Asks before an approved QA item's ground truth changes (qa.review.truth_change).

The first Save of an answer that would change the reviewed truth does not save: the bar says
what it means (old and new truth, back to review, and whether the new truth contradicts the
VM's answer) and offers *Change the truth* (saves it) or *Keep the truth* (records the answer
as the labeler's own, the truth and the review untouched). Another item or another answer
withdraws the question.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from studio.models.qa_item import QaItem
from studio.services.diagnostics.qa.review import truth_change

STYLE = "TruthGuard { background: #fff4e5; border: 1px solid #e8a33d; border-radius: 3px; }"


class TruthGuard(QFrame):
    """The confirmation bar of the QA tab."""

    change_confirmed = Signal()
    truth_kept = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStyleSheet(STYLE)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.change = QPushButton("Change the truth", self)
        self.keep = QPushButton("Keep the truth", self)
        self.keep.setToolTip("Save your answer as yours only; the ground truth stays approved")
        layout = QHBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.change)
        layout.addWidget(self.keep)
        self._asked: tuple[str, str] | None = None
        self._confirmed: tuple[str, str] | None = None
        self.change.clicked.connect(self._on_change_clicked)
        self.keep.clicked.connect(self._on_keep_clicked)
        self.hide()

    def allows(self, item: QaItem, answer: str) -> bool:
        """True when `answer` may become `item`'s truth now; else the question is shown."""
        warning = truth_change(item, answer)
        key = (item.task_id, answer)
        if warning is None or self._confirmed == key:
            self.withdraw()
            return True
        self._asked = key
        self.text.setText(f"<b>Change a reviewed truth?</b> {warning}")
        self.show()
        return False

    def withdraw(self) -> None:
        self._asked = self._confirmed = None
        self.hide()

    def _on_change_clicked(self) -> None:
        self._confirmed = self._asked
        self.change_confirmed.emit()

    def _on_keep_clicked(self) -> None:
        self.withdraw()
        self.truth_kept.emit()
