"""Library -> *Set statistics…*: the open library's figures as `studio stats` gives them
(`services.authoring.set_stats`), with the table and bar charts the report bundle shows
(`services.authoring.set_charts`: tasks per category and difficulty, modified blocks per
category, block types per palette category, review states).

`SetStatsDialog` opens at once saying what it is computing; the figures are computed off the
GUI thread (`asyncio.to_thread`) from the library scan the window holds, and shown when they
come (a dialog closed before then is left closed). Escape closes it, as the Close button does.
A library with no task, or one that cannot be read, is said in the dialog, not shown as zeros.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtSvgWidgets import QSvgWidget
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.services.authoring.set_charts import chart_svg, stats_charts, stats_table
from studio.services.authoring.set_stats import set_stats
from studio.services.core.store import LibraryScan
from studio.views.shell.studio_shell import LibraryLookup

__all__ = ["SetStatsDialog", "open_set_stats"]


class SetStatsDialog(QDialog):
    """The figures of one library (see the module doc); `show_stats` fills it."""

    def __init__(self, root: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("set-stats-dialog")
        self.setWindowTitle(f"Set statistics — {root}")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.closed = False  # a Python flag: read safely after Qt has deleted the dialog
        self.finished.connect(self._on_finished)
        self.resize(1180, 760)
        self.summary = QLabel(f"Computing the figures of {root}…")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.charts: dict[str, QSvgWidget] = {}
        self._chart_box = QWidget()
        self._grid = QGridLayout(self._chart_box)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._chart_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)

    def _on_finished(self, _result: int) -> None:
        self.closed = True

    def show_problem(self, text: str) -> None:
        """Say why there are no figures."""
        self.summary.setText(text)

    def show_stats(self, stats: dict[str, Any]) -> None:
        """Fill the table and the charts from `set_stats` output."""
        overall = stats["overall"]
        cats = ", ".join(f"{k} {v}" for k, v in overall["block_categories"].items())
        lines = [
            f"{stats['tasks']} tasks; {overall['block_types']} block types across "
            f"{overall['block_category_count']} palette categories ({cats}).",
            "Modified: block edits from initial to golden; added: blocks only the golden has; "
            "tests and kill rate over the tasks (in brackets) that have them.",
            *(f"Problem: {p}" for p in stats["problems"]),
        ]
        self.summary.setText("\n".join(lines))
        table = stats_table(stats)
        self.table.setColumnCount(len(table["head"]))
        self.table.setHorizontalHeaderLabels(table["head"])
        self.table.setRowCount(len(table["rows"]))
        for r, row in enumerate(table["rows"]):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        rows_height = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setMaximumHeight(rows_height + self.table.horizontalHeader().height() + 6)
        for i, chart in enumerate(stats_charts(stats)):
            svg = QSvgWidget()
            svg.setObjectName(f"chart-{chart['id']}")
            svg.setToolTip(chart["title"])
            svg.load(QByteArray(chart_svg(chart).encode("utf-8")))
            svg.setFixedSize(svg.renderer().defaultSize())
            self.charts[chart["id"]] = svg
            self._grid.addWidget(svg, i // 2, i % 2, Qt.AlignmentFlag.AlignTop)


async def open_set_stats(parent: QWidget | None, library: LibraryLookup) -> SetStatsDialog:
    """Open the dialog over the window's library and fill it when the figures are computed."""
    root = library.root()
    dialog = SetStatsDialog(root, parent)
    dialog.show()
    scan: LibraryScan | None = await library.scan()
    if dialog.closed:
        return dialog
    if scan is None:
        dialog.show_problem(f"{root}: the library could not be read (see the library pane).")
        return dialog
    if not scan.tasks:
        dialog.show_problem(f"{root}: holds no task folder (with task.json).")
        return dialog
    stats = await asyncio.to_thread(set_stats, scan.tasks)
    if not dialog.closed:
        dialog.show_stats(stats)
    return dialog
