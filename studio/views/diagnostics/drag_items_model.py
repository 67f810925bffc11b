"""The drag items of a folder as a table: id, type, review state, connection, region sizes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.items import ReviewState
from studio.services.diagnostics.drag.item import ItemFolder, load_item
from studio.views.diagnostics.items_model import ItemsModel


def read_folder(root: Path) -> tuple[list[ItemFolder], list[str]]:
    """Every readable item under `root`, and one line per item folder that is not."""
    entries: list[ItemFolder] = []
    problems: list[str] = []
    if not root.is_dir():
        return [], [f"{root}: no such folder"]
    for file in sorted(root.rglob("item.json")):
        try:
            entries.append(load_item(file.parent))
        except StudioError as exc:
            problems.append(str(exc))
    entries.sort(key=lambda e: e.item.id)
    return entries, problems


class DragItemsModel(ItemsModel):
    """One row per item folder."""

    COLUMNS = ("Item", "Type", "State", "Connection", "Start", "End", "Labels")

    @property
    def entries(self) -> list[ItemFolder]:
        return self.rows

    def key(self, row: Any) -> str:
        return str(row.item.id)

    def review_state(self, row: Any) -> ReviewState:
        return ReviewState(row.item.review.state)

    def tooltip(self, row: Any) -> str:
        return str(row.item.instruction)

    def cells(self, row: Any) -> tuple[Any, ...]:
        item = row.item
        cfg = item.evaluation_config
        connection = cfg.connection_type.value
        if cfg.target_input_name:
            connection += f" ({cfg.target_input_name})"
        return (
            item.id,
            item.category,
            item.review.state.value,
            connection,
            len(cfg.feasible_start_points),
            len(cfg.feasible_points),
            ", ".join(lab.labeler for lab in item.labels),
        )
