"""Read-only tables of rows (results, mutants, review history) built one way."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QWidget

Fit = QHeaderView.ResizeMode


def read_only_table(
    parent: QWidget,
    columns: list[str] | tuple[str, ...],
    modes: dict[int, QHeaderView.ResizeMode],
    widths: dict[int, int] | None = None,
    single_selection: bool = False,
    alternating: bool = False,
) -> QTableWidget:
    """A table of whole-row selection, no editing, no row numbers, compact rows; `modes` sets
    how each column sizes (others stay interactive) and `widths` their starting width."""
    table = QTableWidget(0, len(columns), parent)
    table.setHorizontalHeaderLabels(list(columns))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    if single_selection:
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setAlternatingRowColors(alternating)
    table.setWordWrap(False)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(24)
    header = table.horizontalHeader()
    for column, mode in modes.items():
        header.setSectionResizeMode(column, mode)
    for column, width in (widths or {}).items():
        table.setColumnWidth(column, width)
    return table
