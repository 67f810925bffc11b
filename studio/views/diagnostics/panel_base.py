"""What the drag tab and the QA tab share: the item list, the review box, the layout, the
review steps and making an item from the editor.

The review rules are the services' (`diagnostics.drag.review`, `diagnostics.qa.review`):
a tab asks for a step and shows the refusal's message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.models.errors import StudioError
from studio.models.items import Review, ReviewState
from studio.views.diagnostics.click_session import ClickSession
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.items_model import ItemsModel


class ReviewBox(QGroupBox):
    """Approve, Reject, Reopen and the last steps of an item's review."""

    def __init__(self, approve_tip: str, parent: QWidget | None = None) -> None:
        super().__init__("Review", parent)
        self.approve_button = QPushButton("Approve", self)
        self.approve_button.setToolTip(approve_tip)
        self.reject_button = QPushButton("Reject", self)
        self.reopen_button = QPushButton("Reopen", self)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        col = QVBoxLayout(self)
        row = QHBoxLayout()
        for button in (self.approve_button, self.reject_button, self.reopen_button):
            row.addWidget(button)
        col.addLayout(row)
        col.addWidget(self.text)

    def show_review(self, review: Review) -> None:
        history = [
            f"{e.state.value} by {e.by or '?'} {e.at[:16]}"
            + (f": {e.comment}" if e.comment else "")
            for e in review.history[-4:]
        ]
        self.text.setText(f"<b>{review.state.value}</b><br>" + "<br>".join(history))
        self.reopen_button.setEnabled(review.allows(ReviewState.DRAFT))
        self.reject_button.setEnabled(review.allows(ReviewState.REJECTED))


class AgreementBox(QGroupBox):
    """Two labelers to compare and what comparing them gave."""

    def __init__(self, title: str, measure: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.first, self.second = QComboBox(self), QComboBox(self)
        self.button = QPushButton(measure, self)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        col = QVBoxLayout(self)
        row = QHBoxLayout()
        for widget in (self.first, self.second, self.button):
            row.addWidget(widget)
        col.addLayout(row)
        col.addWidget(self.text)

    def fill(self, names: list[str], hidden: bool, count: str) -> None:
        """Offer `names` (none while labeling blind); `count` says how many there are."""
        for combo, pick in ((self.first, 0), (self.second, 1)):
            combo.clear()
            combo.addItems(names)
            combo.setCurrentIndex(min(pick, len(names) - 1))
            combo.setEnabled(not hidden)
        self.button.setEnabled(len(names) >= 2 and not hidden)
        self.text.setText("hidden while labeling blind" if hidden else count)


class LabelingPanel(QWidget):
    """A tab of the labeling window: a list of items on the left, a picture, a side column.

    A subclass builds its picture and side column, sets `authoring`, and says which item is
    shown (`current`), how an item is stored (`store`) and how a made item is named."""

    authoring: ClickSession

    def __init__(
        self,
        context: LabelingContext,
        root: Path,
        model: ItemsModel,
        approve_tip: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.root = root
        self.model = model
        self.folder_label = QLabel(self)
        self.open_button = QPushButton("Open folder…", self)
        self.new_button = QPushButton("New item from editor…", self)
        self.problems = QLabel(self)
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #b00;")
        self.table = QTableView(self)
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.review_box = ReviewBox(approve_tip, self)
        self.approve_button = self.review_box.approve_button
        self.reject_button = self.review_box.reject_button
        self.reopen_button = self.review_box.reopen_button
        self.review_text = self.review_box.text

    # ---- layout ------------------------------------------------------------------------------
    def list_column(self) -> QVBoxLayout:
        """The left column: open, new, folder, problems, the list (more may be added)."""
        left_col = QVBoxLayout()
        left_col.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.new_button)
        left_col.addLayout(top)
        left_col.addWidget(self.folder_label)
        left_col.addWidget(self.problems)
        left_col.addWidget(self.table, 1)
        return left_col

    def assemble(self, left_col: QVBoxLayout, centre: QWidget, side: QWidget) -> None:
        left = QWidget(self)
        left.setLayout(left_col)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        for pane in (left, centre, side):
            splitter.addWidget(pane)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([340, 860, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)

    def connect_common(self, keys: list[tuple[str, Callable[[], Any]]]) -> None:
        """The list, the review buttons, open, new, and the tab's keyboard shortcuts."""
        self.table.selectionModel().currentRowChanged.connect(
            lambda cur, _p: self.show_row(cur.row())
        )
        self.approve_button.clicked.connect(self.approve)
        self.reject_button.clicked.connect(lambda: self.review(ReviewState.REJECTED))
        self.reopen_button.clicked.connect(lambda: self.review(ReviewState.DRAFT))
        self.new_button.clicked.connect(lambda: self.context.spawn(self.new_from_editor()))
        self.open_button.clicked.connect(self.ask_folder)
        for sequence, slot in keys:
            shortcut = QShortcut(QKeySequence(sequence), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    # ---- what a subclass says ------------------------------------------------------------------
    def show_row(self, row: int) -> None:
        raise NotImplementedError

    def current(self) -> Any:
        """The item shown (a model with `review`), or None."""
        raise NotImplementedError

    def store(self, item: Any) -> None:
        """Save `item` (the one shown, changed) and show it."""
        raise NotImplementedError

    def approve(self) -> bool:
        raise NotImplementedError

    def step(self, item: Any, state: ReviewState, by: str) -> Any:
        """`item` moved to `state` by `by`, as its package's review rules allow."""
        raise NotImplementedError

    def made_key(self, made: Any) -> str:
        """The id of what the authoring session made."""
        raise NotImplementedError

    def read(self, root: Path) -> tuple[list[Any], list[str]]:
        """The rows of the folder at `root`, and a line per file that cannot be read."""
        raise NotImplementedError

    def loaded(self) -> None:
        """Called after a folder is read (before the first item is shown)."""

    # ---- shared behaviour ----------------------------------------------------------------------
    def load_folder(self, root: Path) -> None:
        self.root = root
        self.authoring.root = root
        rows, problems = self.read(root)
        self.model.set_rows(rows)
        self.folder_label.setText(f"{len(rows)} items in {root}")
        self.problems.setText("\n".join(problems))
        self.problems.setVisible(bool(problems))
        self.loaded()
        if rows:
            self.select(self.model.key(rows[0]))
        else:
            self.show_row(-1)

    def ask_folder(self) -> None:
        title = self.open_button.text().rstrip("…")
        chosen = QFileDialog.getExistingDirectory(self, title, str(self.root))
        if chosen:
            self.load_folder(Path(chosen))

    def select(self, key: str) -> bool:
        row = self.model.row_of(key)
        if row < 0:
            return False
        self.table.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        return True

    def labeler_or_say(self) -> str:
        name = self.context.labeler()
        if not name:
            self.context.message("Type your name in the Labeler field first")
        return name

    def review(self, state: ReviewState) -> bool:
        name = self.labeler_or_say()
        item = self.current()
        if item is None or not name:
            return False
        try:
            moved = self.step(item, state, name)
        except StudioError as exc:
            self.context.message(str(exc))
            return False
        self.store(moved)
        return True

    async def new_from_editor(self) -> Any:
        """Make an item from the editor's state; it is selected in the list when made."""
        if self.authoring.active:
            return None
        self.table.setEnabled(False)
        try:
            made = await self.authoring.run()
        except StudioError as exc:
            self.context.message(f"Cannot use the editor: {exc}")
            made = None
        finally:
            self.table.setEnabled(True)
        if made is None:
            self.show_row(self.table.currentIndex().row())
            return None
        self.load_folder(self.root)
        self.select(self.made_key(made))
        return made

    def stop_work(self) -> None:
        """Stop what runs (the window is closing)."""
        self.authoring.cancel()
