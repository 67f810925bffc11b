"""Waiting for a dialog from async code without a nested event loop."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog, QMessageBox, QWidget


async def finished(dialog: QDialog) -> int:
    """Open `dialog` window-modal and wait for its result (`exec()` would stall asyncio)."""
    done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def on_finished(code: int) -> None:
        if not done.done():
            done.set_result(code)

    dialog.finished.connect(on_finished)
    dialog.open()
    try:
        return await done
    finally:
        dialog.deleteLater()


async def ask_buttons(
    parent: QWidget | None,
    title: str,
    text: str,
    buttons: list[QMessageBox.StandardButton],
    default: QMessageBox.StandardButton,
) -> QMessageBox.StandardButton | None:
    """Ask a question with standard buttons; the one clicked (None when closed)."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=parent)
    for button in buttons:
        box.addButton(button)
    box.setDefaultButton(default)
    await finished(box)
    clicked = box.clickedButton()
    for button in buttons:
        if clicked is not None and clicked is box.button(button):
            return button
    return None
