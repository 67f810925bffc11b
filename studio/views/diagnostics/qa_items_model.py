"""The perception QA items of a set as a table: id, type, state, ground truth, tag, answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.items import ReviewState
from studio.models.qa_item import QaItem
from studio.services.diagnostics.qa.item import ITEMS_DIR, read_item
from studio.views.diagnostics.items_model import ItemsModel

TRUTH_COLUMN = 3


def read_set(root: Path) -> tuple[list[QaItem], list[str]]:
    """Every readable item of the set at `root`, and one line per item file that is not."""
    folder = root / ITEMS_DIR
    if not folder.is_dir():
        return [], [f"{folder}: no such folder (a QA set keeps its items in items/)"]
    items: list[QaItem] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.json")):
        try:
            items.append(read_item(path))
        except StudioError as exc:
            problems.append(str(exc))
    return items, problems


class QaItemsModel(ItemsModel):
    """One row per QA item; `hide_truth` blanks the ground truth (blind labeling)."""

    COLUMNS = ("Item", "Type", "State", "Truth", "Tag", "Answers")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.hide_truth = False

    @property
    def items(self) -> list[QaItem]:
        return self.rows

    def set_hide_truth(self, hide: bool) -> None:
        self.hide_truth = hide
        if self.rows:
            last = len(self.rows) - 1
            self.dataChanged.emit(self.index(0, TRUTH_COLUMN), self.index(last, TRUTH_COLUMN))

    def key(self, row: Any) -> str:
        return str(row.task_id)

    def review_state(self, row: Any) -> ReviewState:
        return ReviewState(row.review.state)

    def tooltip(self, row: Any) -> str:
        return str(row.instruction)

    def cells(self, row: Any) -> tuple[Any, ...]:
        return (
            row.task_id,
            row.task_type.value,
            row.review.state.value,
            "·" if self.hide_truth else row.ground_truth,
            row.tag,
            len(row.answers),
        )
