"""Authoring a drag item from the editor's current state, by clicking.

The labeler sets the studio's editor up and presses "New item from editor": the editor is
borrowed at the benchmark's 1280x720 screen and its screenshot appears on the canvas. A click
picks the block to drag (on the canvas or in the palette), a second click the block to connect
it to; the bar above the canvas then asks for the connection (and the input's name), shows the
suggested id, and Create stores the item (project, screen state, screenshot, suggested
instruction) in the folder. The editor stays borrowed until Create or Cancel.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from studio.models.drag_item import ConnectionType
from studio.services.diagnostics.drag.author import Pick, author_item, pick_at, save_authored
from studio.services.diagnostics.drag.item import DragItemError, ItemFolder
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage
from studio.views.diagnostics.click_session import ClickSession, SessionBar
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.region_canvas import RegionCanvas

PICK_COLOUR = QColor(0, 90, 255)
REFERENCE_COLOUR = QColor(230, 120, 0)


class AuthorBar(SessionBar):
    """The connection, the input and the id, asked once both blocks are picked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.connection = QComboBox(self)
        for kind in ConnectionType:
            self.connection.addItem(kind.value, kind.value)
        self.input_name = QComboBox(self)
        self.item_id = QLineEdit(self)
        self.item_id.setPlaceholderText("item id")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 6, 4)
        row.addWidget(self.prompt, 1)
        for label, widget in (
            ("connection", self.connection),
            ("input", self.input_name),
            ("id", self.item_id),
        ):
            row.addWidget(QLabel(label, self))
            row.addWidget(widget)
        row.addWidget(self.create_button)
        row.addWidget(self.cancel_button)
        self.connection.currentIndexChanged.connect(self._sync)
        self.choosing(False)

    def choices(self) -> list[QWidget]:
        return [self.connection, self.item_id, self.create_button]

    def choosing(self, on: bool) -> None:
        super().choosing(on)
        self._sync()

    def _sync(self) -> None:
        wants_input = self.connection.currentData() == ConnectionType.INPUT.value
        self.input_name.setEnabled(wants_input and self.create_button.isEnabled())

    def chosen(self) -> tuple[ConnectionType, str | None, str]:
        kind = ConnectionType(self.connection.currentData())
        name = self.input_name.currentText() if kind is ConnectionType.INPUT else None
        return kind, name or None, self.item_id.text().strip()


def suggest_id(target: Pick, ref_opcode: str, connection: ConnectionType, root: Path) -> str:
    """`t1_move_below_wait`-like, made unique in the folder."""
    words = {
        ConnectionType.NEXT: "below",
        ConnectionType.PARENT: "above",
        ConnectionType.INPUT: "into",
        ConnectionType.SUBSTACK_1: "into",
        ConnectionType.SUBSTACK_2: "into_else_of",
    }

    def short(opcode: str) -> str:
        return re.sub(r"^[a-z]+_", "", opcode or "block")

    kind = "t1" if connection in (ConnectionType.NEXT, ConnectionType.PARENT) else "t2"
    source = "palette_" if target.kind == "flyout" else ""
    base = f"{kind}_{source}{short(target.opcode or '')}_{words[connection]}_{short(ref_opcode)}"
    name, n = base, 2
    while (root / name).exists():
        name, n = f"{base}_{n}", n + 1
    return name


def item_boxes(cfg: Any) -> list[tuple[QRectF, QColor, str]]:
    """The dragged and the reference block's outlines, for the picture."""
    return [
        (QRectF(b.x, b.y, b.w, b.h), colour, label)
        for b, colour, label in (
            (cfg.target_box, PICK_COLOUR, "drag"),
            (cfg.reference_box, REFERENCE_COLOUR, "reference"),
        )
        if b is not None
    ]


class DragAuthoring(ClickSession):
    """One authoring session: the block to drag, the block to connect it to, the choices."""

    bar: AuthorBar

    def __init__(
        self, context: LabelingContext, canvas: RegionCanvas, bar: AuthorBar, root: Path
    ) -> None:
        super().__init__(context, canvas, bar, root)
        self.target = self.ref = Pick("none")

    async def pick(self, page: EditorPage) -> None:
        self.target = await self._pick(page, "Click the block to drag (code area or palette)")
        while self.target.kind == "none":
            self.target = await self._pick(page, "That is no block. Click the block to drag")
        self._mark(self.target, PICK_COLOUR, "drag")
        self.ref = await self._pick(page, "Click the block to connect it to (code area)")
        while self.ref.kind != "canvas" or self.ref.block_id == self.target.block_id:
            self.ref = await self._pick(page, "Click another block in the code area")
        self._mark(self.ref, REFERENCE_COLOUR, "reference")
        await self._offer_choices(page, self.target, self.ref)

    async def _pick(self, page: EditorPage, prompt: str) -> Pick:
        x, y = await self.click(prompt)
        return await pick_at(page, x, y)

    def _mark(self, pick: Pick, colour: QColor, label: str) -> None:
        assert self._click is not None
        x, y = self._click.result()
        self.canvas.marks.append((QPointF(x, y), colour, f"{label}: {pick.opcode}"))
        self.canvas.update()

    async def _offer_choices(self, page: EditorPage, target: Pick, ref: Pick) -> None:
        inputs = await page_scripts.call(page, page_scripts.EDITOR, "valueInputs", ref.block_id)
        self.bar.input_name.clear()
        self.bar.input_name.addItems([str(n) for n in inputs])
        opcode = ref.opcode or ""
        guess = ConnectionType.NEXT
        if inputs and opcode.startswith("operator_"):
            guess = ConnectionType.INPUT
        elif opcode in ("control_repeat", "control_forever", "control_if", "control_if_else"):
            guess = ConnectionType.SUBSTACK_1
        self.bar.connection.setCurrentIndex(self.bar.connection.findData(guess.value))
        self.bar.item_id.setText(suggest_id(target, opcode, guess, self.root))
        self.bar.prompt.setText(
            f"Drag <b>{target.opcode}</b> to <b>{opcode}</b>: choose the connection"
        )

    async def create(self, page: EditorPage) -> ItemFolder | None:
        target, ref = self.target, self.ref
        kind, input_name, item_id = self.bar.chosen()
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", item_id or ""):
            self.bar.prompt.setText("The id may hold letters, digits, _ . - only")
            return None
        if (self.root / item_id).exists():
            self.bar.prompt.setText(f"{self.root / item_id} exists already: choose another id")
            return None
        assert ref.block_id is not None
        try:
            item, sb3, png = await author_item(
                page, item_id, target, ref.block_id, kind, input_name
            )
        except DragItemError as exc:
            self.bar.prompt.setText(f"<span style='color:#b00'>{exc}</span>")
            return None
        entry = save_authored(self.root / item_id, item, sb3, png)
        cfg = item.evaluation_config
        self.canvas.show_item(png, set(), set(), cfg.grid, None, item_boxes(cfg))
        return entry
