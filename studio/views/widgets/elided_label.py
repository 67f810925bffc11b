"""A one-line label that never claims its full text width.

`ElidedLabel` shows its text on one line, cut with "…" (at the end, or in the middle) when the
room it is given is narrower than the text; the full text is its tooltip. Its minimum width is
a few characters and its size policy lets layouts shrink it, so a long text (a held action
with its arguments, a path) cannot widen the window that holds it.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

MIN_CHARS = 8  # the minimum width, in average character widths


class ElidedLabel(QLabel):
    """A plain-text label elided to the width it gets (`mode`), its full text as tooltip."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight,
    ) -> None:
        super().__init__(parent)
        self.mode = mode
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        width = metrics.averageCharWidth() * MIN_CHARS + margins.left() + margins.right()
        return QSize(width, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        full = super().sizeHint()
        return QSize(max(self.minimumSizeHint().width(), full.width()), full.height())

    def elided(self) -> str:
        """The text as painted at the current width."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), self.mode, max(0, width))

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.contentsRect()
        align = self.alignment() | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(rect, int(align), self.elided())
        painter.end()
