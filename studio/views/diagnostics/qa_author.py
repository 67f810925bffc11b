"""Capturing a perception QA item from the editor's current state, by clicking.

The labeler sets the studio's editor up and presses "New item from editor": the editor is
borrowed at the benchmark's 1280x720 screen and its screenshot appears in the picture. A click
picks the block the question is about (a code-area block; for an existence question a palette
block too, to ask about an opcode that may be absent); the bar then offers the question type,
the field, the capture area, a suggested question and id. Create takes the screenshot, asks
the VM and workspace for the answer (`qa.capture.make_item`) and stores a draft item whose
ground truth is that suggestion, for the labeler to confirm or correct.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from studio.models.errors import StudioError
from studio.models.qa_item import QaItem, QaType, Subject
from studio.services.diagnostics.drag.author import Pick, pick_at
from studio.services.diagnostics.qa.capture import capture, make_item
from studio.services.diagnostics.qa.item import QaSet
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage
from studio.views.diagnostics.click_session import ClickSession, SessionBar
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.drag_author import PICK_COLOUR
from studio.views.diagnostics.region_canvas import RegionCanvas


def short(opcode: str) -> str:
    return re.sub(r"^[a-z]+_", "", opcode or "block")


def suggest_question(kind: QaType, text: str, field: str) -> str:
    name = text or "picked"
    if kind is QaType.CONNECTION:
        return f"Is the '{name}' block directly connected to the block above it?"
    if kind is QaType.EXISTENCE:
        return f"Is there a '{name}' block in the code area?"
    return f"What value does the {field or 'field'} of the '{name}' block show?"


def suggest_id(kind: QaType, opcode: str, qa: QaSet) -> str:
    """`qa_conn_movesteps`-like, made unique in the set."""
    base = f"qa_{kind.value[:5]}_{short(opcode)}"
    name, n = base, 2
    while qa.item_path(name).exists():
        name, n = f"{base}_{n}", n + 1
    return name


class QaAuthorBar(SessionBar):
    """Type, field, opcode, capture area, question and id, asked once the block is picked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = QComboBox(self)
        for kind in QaType:
            self.kind.addItem(kind.value, kind.value)
        self.field = QComboBox(self)
        self.field.setToolTip("The field, or the input whose value the question asks for")
        self.field.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.field.setMinimumContentsLength(12)  # long field names do not widen the bar
        self.opcode = QLineEdit(self)
        self.opcode.setToolTip("The opcode an existence question asks about")
        self.area = QComboBox(self)
        self.area.addItem("full window", "window")
        self.area.addItem("code area", "canvas")
        self.question = QLineEdit(self)
        self.question.setPlaceholderText("question")
        self.item_id = QLineEdit(self)
        self.item_id.setPlaceholderText("item id")
        col = QVBoxLayout(self)
        col.setContentsMargins(6, 4, 6, 4)
        top = QHBoxLayout()
        top.addWidget(self.prompt, 1)
        for label, widget in (
            ("type", self.kind),
            ("field", self.field),
            ("opcode", self.opcode),
            ("screenshot", self.area),
        ):
            top.addWidget(QLabel(label, self))
            top.addWidget(widget)
        bottom = QHBoxLayout()
        bottom.addWidget(QLabel("question", self))
        bottom.addWidget(self.question, 1)
        bottom.addWidget(QLabel("id", self))
        bottom.addWidget(self.item_id)
        bottom.addWidget(self.create_button)
        bottom.addWidget(self.cancel_button)
        col.addLayout(top)
        col.addLayout(bottom)
        self.kind.currentIndexChanged.connect(self._sync)
        self.choosing(False)

    def choices(self) -> list[QWidget]:
        return [self.kind, self.area, self.question, self.item_id, self.create_button]

    def choosing(self, on: bool) -> None:
        super().choosing(on)
        self._sync()

    def _sync(self) -> None:
        on = self.create_button.isEnabled()
        kind = self.chosen()
        self.field.setEnabled(on and kind is QaType.FIELD and self.field.count() > 0)
        self.opcode.setEnabled(on and kind is QaType.EXISTENCE)

    def chosen(self) -> QaType:
        return QaType(self.kind.currentData())


class QaAuthoring(ClickSession):
    """One capture session: the block the question is about, the choices."""

    bar: QaAuthorBar

    def __init__(
        self, context: LabelingContext, canvas: RegionCanvas, bar: QaAuthorBar, root: Path
    ) -> None:
        super().__init__(context, canvas, bar, root)
        self._pick = Pick("none")
        self._text = ""
        self._edited = False
        bar.kind.currentIndexChanged.connect(lambda _i: self._suggest())
        bar.field.currentIndexChanged.connect(lambda _i: self._suggest())
        bar.question.textEdited.connect(lambda _t: setattr(self, "_edited", True))

    async def pick(self, page: EditorPage) -> None:
        self._edited = False
        pick = await self._pick_block(page, "Click the block the question is about")
        while pick.kind == "none":
            pick = await self._pick_block(page, "That is no block. Click a block")
        await self._offer_choices(page, pick)

    async def _pick_block(self, page: EditorPage, prompt: str) -> Pick:
        x, y = await self.click(prompt)
        pick = await pick_at(page, x, y)
        if pick.kind != "none":
            self.canvas.marks = [(QPointF(x, y), PICK_COLOUR, str(pick.opcode))]
            self.canvas.update()
        return pick

    async def _offer_choices(self, page: EditorPage, pick: Pick) -> None:
        self._pick = pick
        info = None
        if pick.block_id:
            info = await page_scripts.call(page, page_scripts.EDITOR, "blockFields", pick.block_id)
        self._text = str(info["text"]) if info else short(pick.opcode or "")
        fields = [str(n) for n in info["fields"]] if info else []
        self.bar.field.blockSignals(True)
        self.bar.field.clear()
        self.bar.field.addItems(fields)
        self.bar.field.blockSignals(False)
        self.bar.opcode.setText(pick.opcode or "")
        canvas_block = pick.kind == "canvas"
        kinds = [k for k in QaType if canvas_block or k is QaType.EXISTENCE]
        combo = self.bar.kind
        for row in range(combo.count()):
            allowed = QaType(combo.itemData(row)) in kinds
            combo.model().item(row).setEnabled(allowed)  # type: ignore[attr-defined]
        combo.setCurrentIndex(combo.findData(kinds[0].value))
        self._suggest()
        where = "in the code area" if canvas_block else "in the palette"
        self.bar.prompt.setText(f"<b>{pick.opcode}</b> {where}: choose the question")

    def _suggest(self) -> None:
        if self._pick.kind == "none":
            return
        kind = self.bar.chosen()
        if not self._edited:
            self.bar.question.setText(
                suggest_question(kind, self._text, self.bar.field.currentText())
            )
        self.bar.item_id.setText(suggest_id(kind, self._pick.opcode or "", QaSet(self.root)))

    async def create(self, page: EditorPage) -> QaItem | None:
        pick = self._pick
        kind = self.bar.chosen()
        item_id = self.bar.item_id.text().strip()
        question = self.bar.question.text().strip()
        qa = QaSet(self.root)
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", item_id):
            self.bar.prompt.setText("The id may hold letters, digits, _ . - only")
            return None
        if qa.item_path(item_id).exists():
            self.bar.prompt.setText(f"{qa.item_path(item_id)} exists already: choose another id")
            return None
        if not question:
            self.bar.prompt.setText("Write the question first")
            return None
        if kind is QaType.EXISTENCE:
            subject = Subject(opcode=self.bar.opcode.text().strip() or pick.opcode)
        elif kind is QaType.FIELD:
            subject = Subject(block_id=pick.block_id, field=self.bar.field.currentText())
        else:
            subject = Subject(block_id=pick.block_id)
        try:
            png, info = await capture(page, str(self.bar.area.currentData()))
            item = await make_item(
                page, item_id, question, kind, subject, f"{item_id}.png", capture_info=info
            )
        except StudioError as exc:
            self.bar.prompt.setText(f"<span style='color:#b00'>{exc}</span>")
            return None
        qa.save(item, png)
        return item
