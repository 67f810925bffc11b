"""Authoring a drag item from the editor's current state, by clicking.

The labeler sets the studio's editor up and presses "New item from editor": the editor is
borrowed at the benchmark's 1280x720 screen and its screenshot appears on the canvas. A click
picks the block to drag (on the canvas or in the palette), a second click the block to connect
it to; the bar above the canvas then asks for the connection (and the input's name), shows the
suggested id, and Create stores the item (project, screen state, screenshot, suggested
instruction) in the folder. The editor stays borrowed until Create or Cancel.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from studio.services.drag.author import Pick, author_item, pick_at, save_authored
from studio.services.drag.item import ConnectionType, DragItemError, ItemFolder
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.region_canvas import RegionCanvas, Tool

PICK_COLOUR = QColor(0, 90, 255)
REFERENCE_COLOUR = QColor(230, 120, 0)
INPUTS_JS = """(id) => { const b = window.workspace.getBlockById(id);
  return b ? b.inputList.filter(i => i.type === 1).map(i => i.name) : []; }"""


class AuthorBar(QFrame):
    """The prompts and choices above the canvas while an item is being authored."""

    create_clicked = Signal()
    cancel_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("AuthorBar { background: #fff6d5; }")
        self.prompt = QLabel(self)
        self.connection = QComboBox(self)
        for kind in ConnectionType:
            self.connection.addItem(kind.value, kind.value)
        self.input_name = QComboBox(self)
        self.item_id = QLineEdit(self)
        self.item_id.setPlaceholderText("item id")
        self.create_button = QPushButton("Create item", self)
        self.cancel_button = QPushButton("Cancel", self)
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
        self.create_button.clicked.connect(self.create_clicked)
        self.cancel_button.clicked.connect(self.cancel_clicked)
        self.connection.currentIndexChanged.connect(self._sync)
        self.choosing(False)
        self.hide()

    def choosing(self, on: bool) -> None:
        """Connection, input and id are asked once both blocks are picked."""
        for widget in (self.connection, self.item_id, self.create_button):
            widget.setEnabled(on)
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


class DragAuthoring:
    """One authoring session: borrow, pick twice, choose, create (or cancel)."""

    def __init__(
        self, context: LabelingContext, canvas: RegionCanvas, bar: AuthorBar, root: Path
    ) -> None:
        self.context, self.canvas, self.bar, self.root = context, canvas, bar, root
        self._click: asyncio.Future[tuple[float, float]] | None = None
        self._decision: asyncio.Future[bool] | None = None
        canvas.picked.connect(self._on_pick)
        bar.create_clicked.connect(lambda: self._decide(True))
        bar.cancel_clicked.connect(self.cancel)

    @property
    def active(self) -> bool:
        return self.bar.isVisible()

    def _on_pick(self, x: float, y: float) -> None:
        if self._click is not None and not self._click.done():
            self._click.set_result((x, y))

    def _decide(self, create: bool) -> None:
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(create)

    def cancel(self) -> None:
        for waiter in (self._click, self._decision):
            if waiter is not None and not waiter.done():
                waiter.cancel()

    async def run(self) -> ItemFolder | None:
        """The new item's folder, or None when the labeler cancelled."""
        self.bar.show()
        self.bar.choosing(False)
        self.bar.prompt.setText("Borrowing the studio's editor…")
        try:
            async with self.context.link.borrow() as page:
                png = await page.screenshot(type="png")
                self.canvas.show_item(png, set(), set(), 5, None)
                self.canvas.set_tool(Tool.PICK)
                target = await self._pick(page, "Click the block to drag (code area or palette)")
                while target.kind == "none":
                    target = await self._pick(page, "That is no block. Click the block to drag")
                self._mark(target, page, PICK_COLOUR, "drag")
                ref = await self._pick(page, "Click the block to connect it to (code area)")
                while ref.kind != "canvas" or ref.block_id == target.block_id:
                    ref = await self._pick(page, "Click another block in the code area")
                self._mark(ref, page, REFERENCE_COLOUR, "reference")
                await self._offer_choices(page, target, ref)
                while True:
                    self._decision = asyncio.get_running_loop().create_future()
                    if not await self._decision:
                        return None
                    made = await self._create(page, target, ref)
                    if made is not None:
                        return made
        except asyncio.CancelledError:
            return None
        finally:
            self.canvas.set_tool(Tool.NONE)
            self.bar.hide()

    async def _pick(self, page: Any, prompt: str) -> Pick:
        self.bar.prompt.setText(prompt)
        self._click = asyncio.get_running_loop().create_future()
        x, y = await self._click
        return await pick_at(page, x, y)

    def _mark(self, pick: Pick, page: Any, colour: QColor, label: str) -> None:
        assert self._click is not None
        x, y = self._click.result()
        self.canvas.marks.append((QPointF(x, y), colour, f"{label}: {pick.opcode}"))
        self.canvas.update()

    async def _offer_choices(self, page: Any, target: Pick, ref: Pick) -> None:
        inputs = await page.evaluate(INPUTS_JS, ref.block_id)
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
        self.bar.choosing(True)

    async def _create(self, page: Any, target: Pick, ref: Pick) -> ItemFolder | None:
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
        boxes = [
            (QRectF(b.x, b.y, b.w, b.h), colour, label)
            for b, colour, label in (
                (cfg.target_box, PICK_COLOUR, "drag"),
                (cfg.reference_box, REFERENCE_COLOUR, "reference"),
            )
            if b is not None
        ]
        self.canvas.show_item(png, set(), set(), cfg.grid, None, boxes)
        return entry
