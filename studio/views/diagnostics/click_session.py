"""What authoring a drag item and capturing a QA item share: a session of clicks on a capture.

The labeler presses "New item from editor": the studio's editor is borrowed at the
benchmark's 1280x720 screen and its screenshot appears in the picture, in pick mode. A
subclass asks for its clicks (`pick`) and offers its choices in the bar above the picture;
Create (`create`) stores the item, or says in the bar why it cannot and waits for another
try; Cancel ends the session. The editor stays borrowed until then.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QSizePolicy, QWidget

from studio.services.runtime.page_seam import EditorPage
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.region_canvas import RegionCanvas, Tool

PROMPT_MIN_WIDTH = 160


class SessionBar(QFrame):
    """The prompt, Create and Cancel above the picture while a session runs."""

    create_clicked = Signal()
    cancel_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("session-bar")
        self.setStyleSheet("QFrame#session-bar { background: #fff6d5; }")
        self.prompt = QLabel(self)
        # a long prompt wraps instead of widening the window past the screen
        self.prompt.setWordWrap(True)
        self.prompt.setMinimumWidth(PROMPT_MIN_WIDTH)
        self.prompt.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.create_button = QPushButton("Create item", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.create_button.clicked.connect(self.create_clicked)
        self.cancel_button.clicked.connect(self.cancel_clicked)
        self.hide()

    def choices(self) -> list[QWidget]:
        """The widgets asked once the picks are made (Create among them)."""
        return [self.create_button]

    def choosing(self, on: bool) -> None:
        for widget in self.choices():
            widget.setEnabled(on)


class ClickSession:
    """One session: borrow, pick, choose, create (or cancel)."""

    def __init__(
        self, context: LabelingContext, canvas: RegionCanvas, bar: SessionBar, root: Path
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

    async def click(self, prompt: str) -> tuple[float, float]:
        """The next screen point the labeler clicks, after showing `prompt`."""
        self.bar.prompt.setText(prompt)
        self._click = asyncio.get_running_loop().create_future()
        return await self._click

    async def run(self) -> Any:
        """What `create` made, or None when the labeler cancelled."""
        self.bar.show()
        self.bar.choosing(False)
        self.bar.prompt.setText("Borrowing the studio's editor…")
        try:
            async with self.context.link.borrow() as page:
                png = await page.screenshot(type="png")
                self.canvas.show_item(png, set(), set(), 5, None)
                self.canvas.set_tool(Tool.PICK)
                await self.pick(page)
                self.bar.choosing(True)
                while True:
                    self._decision = asyncio.get_running_loop().create_future()
                    if not await self._decision:
                        return None
                    made = await self.create(page)
                    if made is not None:
                        return made
        except asyncio.CancelledError:
            return None
        finally:
            self.canvas.set_tool(Tool.NONE)
            self.bar.hide()

    async def pick(self, page: EditorPage) -> None:
        """Ask for the clicks and fill the bar's choices."""
        raise NotImplementedError

    async def create(self, page: EditorPage) -> Any:
        """Store the item; None (and a word in the bar) when it cannot be made as chosen."""
        raise NotImplementedError
