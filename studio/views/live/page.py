"""The window's own editor page as episodes see it: Playwright's page API, built on Qt.

Live runs (a built-in agent, an API client or a person acting in the studio's editor) and the
labelers work on a page object with the part of Playwright's async `Page` that episodes, mode
handlers and captures call. `QtEditorPage` offers that part on the window's QWebEnginePage
with Qt alone, so no debugging endpoint is ever opened and nothing outside this process can
reach the page:

- `evaluate(source, arg)` follows Playwright's rules (a function is called with `arg`, a
  promise is awaited) and runs through the page's QWebChannel bridge
  (`EditorPage.evaluate_function`); a throw raises `PageError`, a Playwright `Error`. The
  studio's page scripts reach the page through it (`studio.services.runtime.page_scripts`).
- `mouse` and `keyboard` send real Qt mouse, wheel and key events to the view's render widget,
  so Chromium makes of them the DOM events a person's input makes (pointer events, drags with
  every intermediate move, click counts from the events' times).
  A press or a key gives the view keyboard focus, as a person's click on it does (a headless
  benchmark page is a focused page too).
- `screenshot` grabs the view, which `window_lender` shows at exactly the episode's screen
  size (1280x720: `EditorView.show_at`) until the page is given back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QEvent,
    QIODevice,
    QPoint,
    QPointF,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QImage,
    QInputEvent,
    QInputMethodEvent,
    QKeyEvent,
    QMouseEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QWidget

from studio.models.errors import StudioError
from studio.services.episodes.modes import VIEWPORT
from studio.services.runtime import page_scripts
from studio.views.editor.page import EditorError
from studio.views.live.keys import (
    BUTTONS,
    CHAR_CODES,
    MODIFIERS,
    NAMED_KEYS,
    SHIFTED,
    modifier_name,
    split_keys,
)

if TYPE_CHECKING:
    from studio.services.runtime.page_seam import ClipRect, Viewport
    from studio.views.editor.view import EditorView

SCREEN_TIMEOUT_S = 10.0  # for the page to take the size it is shown at
INPUT_TIMEOUT_S = 2.0  # for the page to report an input event sent to it
FRAME_TIMEOUT_S = 1.0  # for a fresh frame before a screenshot (a hidden page draws none)
# Qt WebEngine makes a wheel notch (angle 120) wheelScrollLines (3) x 20 px of DOM deltaY: the
# angle for `delta` pixels is delta * 120 / 60, so that the page sees Playwright's deltas.
WHEEL_PX_PER_NOTCH = 60
_UNSET: Any = object()
log = logging.getLogger(__name__)
_POINTER_EVENTS = {
    QEvent.Type.MouseMove: "pointermove",
    QEvent.Type.MouseButtonPress: "pointerdown",
    QEvent.Type.MouseButtonRelease: "pointerup",
}


class PageError(StudioError, PlaywrightError):
    """What Playwright raises for a script that threw, a gone page or an unknown key name."""


class QtMouse:
    """Playwright's `page.mouse`: Qt mouse and wheel events at page (CSS pixel) positions."""

    def __init__(self, page: QtEditorPage) -> None:
        self._page = page
        self.x = 0.0
        self.y = 0.0
        self.buttons = Qt.MouseButton.NoButton

    async def move(self, x: float, y: float, steps: int = 1) -> None:
        from_x, from_y = self.x, self.y
        steps = max(1, int(steps))
        for i in range(1, steps + 1):
            last = (self.x, self.y)
            self.x = from_x + (x - from_x) * i / steps
            self.y = from_y + (y - from_y) * i / steps
            moved = (self.x, self.y) != last
            await self._send(QEvent.Type.MouseMove, Qt.MouseButton.NoButton, moved)

    async def down(self, button: str = "left", click_count: int = 1) -> None:
        pressed = _button(button)
        first = self.buttons == Qt.MouseButton.NoButton  # a pointerdown (else a chord)
        self.buttons |= pressed
        self._page.focus()
        await self._send(QEvent.Type.MouseButtonPress, pressed, first)

    async def up(self, button: str = "left", click_count: int = 1) -> None:
        pressed = _button(button)
        self.buttons &= ~pressed
        last = self.buttons == Qt.MouseButton.NoButton  # a pointerup (else a chord)
        await self._send(QEvent.Type.MouseButtonRelease, pressed, last)

    async def click(
        self, x: float, y: float, button: str = "left", click_count: int = 1, delay: float = 0
    ) -> None:
        """Presses at one place count as a double (triple) click when they come in quick
        succession: Chromium counts them from the events' times, as for a person."""
        await self.move(x, y)
        for _ in range(max(1, click_count)):
            await self.down(button)
            if delay:
                await asyncio.sleep(delay / 1000)
            await self.up(button)

    async def dblclick(self, x: float, y: float, button: str = "left", delay: float = 0) -> None:
        await self.click(x, y, button=button, click_count=2, delay=delay)

    async def wheel(self, delta_x: float, delta_y: float) -> None:
        """Scroll `delta_x`, `delta_y` pixels at the mouse (positive: right, down)."""
        target = self._page.input_widget()
        local = QPointF(self.x, self.y)
        angle = QPoint(
            round(-delta_x * 120 / WHEEL_PX_PER_NOTCH), round(-delta_y * 120 / WHEEL_PX_PER_NOTCH)
        )
        if angle.isNull():
            return
        event = QWheelEvent(
            local,
            QPointF(target.mapToGlobal(local)),
            QPoint(0, 0),
            angle,
            self.buttons,
            self._page.keyboard.modifiers,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        await self._page.deliver(event, "wheel")

    async def _send(self, kind: QEvent.Type, button: Qt.MouseButton, seen: bool) -> None:
        """Send a mouse event; `seen` when the page gets a pointer event of it to wait for."""
        target = self._page.input_widget()
        local = QPointF(self.x, self.y)
        event = QMouseEvent(
            kind,
            local,
            local,
            QPointF(target.mapToGlobal(local)),
            button,
            self.buttons,
            self._page.keyboard.modifiers,
        )
        await self._page.deliver(event, _POINTER_EVENTS[kind] if seen else None)


class QtKeyboard:
    """Playwright's `page.keyboard`: Qt key events (text the keyboard has no key for is
    committed as input-method text, as Playwright inserts it)."""

    def __init__(self, page: QtEditorPage) -> None:
        self._page = page
        self._held: set[str] = set()

    @property
    def modifiers(self) -> Qt.KeyboardModifier:
        flags = Qt.KeyboardModifier.NoModifier
        for name in self._held:
            flags |= MODIFIERS.get(modifier_name(name), Qt.KeyboardModifier.NoModifier)
        return flags

    async def down(self, key: str) -> None:
        qt_key, text, code = self._describe(key)
        repeat = key in self._held
        self._held.add(key)
        self._page.focus()
        await self._send(QEvent.Type.KeyPress, qt_key, text, code, repeat)

    async def up(self, key: str) -> None:
        qt_key, text, code = self._describe(key)
        self._held.discard(key)
        await self._send(QEvent.Type.KeyRelease, qt_key, text, code, False)

    async def press(self, key: str, delay: float = 0) -> None:
        keys = split_keys(key)
        for name in keys:
            self._describe(name)  # an unknown name fails before any key goes down
        for name in keys[:-1]:
            await self.down(name)
        await self.down(keys[-1])
        if delay:
            await asyncio.sleep(delay / 1000)
        await self.up(keys[-1])
        for name in reversed(keys[:-1]):
            await self.up(name)

    async def type(self, text: str, delay: float = 0) -> None:
        for char in text:
            if char in CHAR_CODES or char in "\r\n\t":
                await self.press({"\r": "Enter", "\n": "Enter", "\t": "Tab"}.get(char, char))
            else:
                await self.insert_text(char)
            if delay:
                await asyncio.sleep(delay / 1000)

    async def insert_text(self, text: str) -> None:
        event = QInputMethodEvent()
        event.setCommitString(text)
        await self._page.deliver(event, None)  # no event to wait for outside an input

    def _describe(self, key: str) -> tuple[int, str, int]:
        """Qt key, text and key code of a Playwright key name (PageError if unknown)."""
        name = {" ": "Space"}.get(key, key)
        if name.startswith("Key") and len(name) == 4 and name[3].isalpha():
            name = name[3].lower()
        elif name.startswith("Digit") and len(name) == 6 and name[5].isdigit():
            name = name[5]
        if name in NAMED_KEYS:
            qt_key, text, code = NAMED_KEYS[name]
        elif len(name) == 1 and name in CHAR_CODES:
            shift = any(modifier_name(k) == "Shift" for k in self._held)
            text = SHIFTED.get(name, name) if shift else name
            qt_key, code = ord(text.upper()), CHAR_CODES[name]
        else:
            raise PageError(f'Unknown key: "{key}"')
        if any(modifier_name(k) in ("Control", "Alt", "Meta") for k in self._held):
            text = ""  # a shortcut types nothing
        return int(qt_key), text, code

    async def _send(self, kind: QEvent.Type, key: int, text: str, code: int, repeat: bool) -> None:
        event = QKeyEvent(kind, key, self.modifiers, code, 0, 0, text, repeat, 1)
        await self._page.deliver(event, "keydown" if kind == QEvent.Type.KeyPress else "keyup")


class QtEditorPage:
    """The window's editor page with the Playwright page API that episodes use."""

    def __init__(self, editor: EditorView, size: Viewport = VIEWPORT) -> None:
        self.editor = editor
        self.mouse = QtMouse(self)
        self.keyboard = QtKeyboard(self)
        self._size: Viewport = {"width": int(size["width"]), "height": int(size["height"])}

    # ---- what the page shows ----------------------------------------------------------------
    @property
    def url(self) -> str:
        return str(self.editor.page.url().toString())

    @property
    def viewport_size(self) -> Viewport:
        return {"width": self._size["width"], "height": self._size["height"]}

    async def set_viewport_size(self, viewport_size: Viewport) -> None:
        self._size = {"width": int(viewport_size["width"]), "height": int(viewport_size["height"])}
        await self.ensure_screen()

    async def ensure_screen(self) -> None:
        """Show the page at its screen size again if it is not (and wait until the page
        has that size)."""
        width, height = self._size["width"], self._size["height"]
        shown = self.editor.shown_size == (width, height)
        if not shown or self.editor.view.size() != QSize(width, height):
            self.editor.show_at(width, height)
        deadline = time.monotonic() + SCREEN_TIMEOUT_S
        while await self._viewport() != [width, height]:
            if time.monotonic() > deadline:
                shown = await self._viewport()
                raise PageError(f"the editor did not take the size {width}x{height} ({shown})")
            await asyncio.sleep(0.02)

    async def _viewport(self) -> Any:
        return await page_scripts.call(self, page_scripts.EDITOR, "viewport")

    async def bring_to_front(self) -> None:
        """Nothing to do: the window's page is the only one, and it is shown."""

    async def close(self, run_before_unload: bool = False) -> None:
        """Nothing to do: the page is the window's; it is given back, never closed."""

    def is_closed(self) -> bool:
        return False

    # ---- scripts ----------------------------------------------------------------------------
    async def evaluate(self, expression: str, arg: Any = _UNSET) -> Any:
        try:
            return await self.editor.page.evaluate_function(
                expression, None if arg is _UNSET else arg, arg is not _UNSET
            )
        except EditorError as exc:
            raise PageError(f"Error: {exc}") from None

    async def content(self) -> str:
        """The page's HTML with its doctype, as Playwright serializes it."""
        return str(await page_scripts.call(self, page_scripts.EDITOR, "html"))

    async def title(self) -> str:
        return str(await page_scripts.call(self, page_scripts.EDITOR, "title"))

    async def wait_for_function(
        self, expression: str, arg: Any = _UNSET, timeout: float | None = None, **_: Any
    ) -> Any:
        deadline = time.monotonic() + (30_000 if timeout is None else timeout) / 1000
        while True:
            value = await self.evaluate(expression, arg)
            if value:
                return value
            if timeout != 0 and time.monotonic() > deadline:
                raise PlaywrightTimeoutError(f"Timeout {timeout}ms exceeded.")
            await asyncio.sleep(0.05)

    # ---- input and pictures -----------------------------------------------------------------
    def input_widget(self) -> QWidget:
        """The widget Chromium reads input from (the view's render widget)."""
        view = self.editor.view
        return view.focusProxy() or view

    def focus(self) -> None:
        """Give the view keyboard focus (Chromium then treats the page as focused)."""
        widget = self.input_widget()
        if not widget.hasFocus():
            widget.setFocus(Qt.FocusReason.MouseFocusReason)

    async def deliver(self, event: QEvent, expect: str | None) -> None:
        """Send `event` to the page and wait until the page has handled it, as Playwright
        waits for the page's acknowledgement of each input event: Chromium hands input to
        the page on a path of its own, which a script sent next may overtake, so a click's
        effects could come after the script that waits for the editor to settle. The wait
        is for the page's count of `expect` DOM events (a capture listener) to go up, or,
        with nothing to expect, for a round trip to the page."""
        before = await self._seen(expect) if expect else 0
        if isinstance(event, QInputEvent):
            event.setTimestamp(_timestamp())
        QCoreApplication.sendEvent(self.input_widget(), event)
        if not expect:
            with contextlib.suppress(PageError, TimeoutError):
                await asyncio.wait_for(page_scripts.ping(self), INPUT_TIMEOUT_S)
            return
        deadline = time.monotonic() + INPUT_TIMEOUT_S
        while await self._seen(expect) <= before:
            if time.monotonic() > deadline:
                log.debug("the page did not report a %s event in time", expect)
                return
            await asyncio.sleep(0.002)

    async def _seen(self, kind: str) -> int:
        """How many `kind` events the page has dispatched (a listener of the page script counts
        them from its installation on)."""
        try:
            count = await page_scripts.call(self, page_scripts.EDITOR, "inputsSeen", kind)
        except (PageError, StudioError):
            return -1
        return int(count) if isinstance(count, int) else -1

    async def screenshot(
        self,
        type: str = "png",  # Playwright's name
        full_page: bool = False,
        clip: ClipRect | None = None,
        quality: int | None = None,
        path: str | Path | None = None,
        **_: Any,
    ) -> bytes:
        """The page as shown (the editor has no scrolling, so `full_page` shows the same)."""
        await self._fresh_frame()
        width, height = self._size["width"], self._size["height"]
        image = self.editor.view.grab().toImage()
        if (image.width(), image.height()) != (width, height):  # a high-DPI screen
            image = image.scaled(
                width,
                height,
                Qt.AspectRatioMode.IgnoreAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        if clip is not None:
            image = image.copy(
                QRect(
                    round(clip["x"]), round(clip["y"]), round(clip["width"]), round(clip["height"])
                )
            )
        data = _encode(image, "JPEG" if type == "jpeg" else "PNG", quality)
        if path is not None:
            Path(path).write_bytes(data)
        return data

    async def _fresh_frame(self) -> None:
        """Let the page draw what it has (two animation frames) and Qt show that frame."""
        with contextlib.suppress(PageError, TimeoutError):
            await asyncio.wait_for(
                page_scripts.call(self, page_scripts.EDITOR, "nextFrames"),
                FRAME_TIMEOUT_S,
            )
        await asyncio.sleep(0.03)


class LentEditor:
    """The window's editor lent to an episode (services.live.window_pages.LentPage)."""

    def __init__(self, editor: EditorView, page: QtEditorPage) -> None:
        self.editor = editor
        self.page = page

    async def ensure_screen(self) -> None:
        await self.page.ensure_screen()

    async def release(self) -> None:
        """The layout sizes the view again; wait (briefly) until the page has that size."""
        self.editor.fit_view()
        view = self.editor.view
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            with contextlib.suppress(PageError, StudioError):
                shown = await page_scripts.call(self.page, page_scripts.EDITOR, "viewport")
                if shown == [view.width(), view.height()]:
                    return
            await asyncio.sleep(0.05)


def window_lender(editor: EditorView) -> Callable[[], Awaitable[LentEditor]]:
    """The `open_page` of a WindowPageSource lending `editor`'s page."""

    async def lend() -> LentEditor:
        await editor.wait_ready()
        page = QtEditorPage(editor)
        try:
            await page.ensure_screen()
        except BaseException:
            editor.fit_view()
            raise
        return LentEditor(editor, page)

    return lend


def _button(name: str) -> Qt.MouseButton:
    try:
        return BUTTONS[name]
    except KeyError:
        raise PageError(f"mouse button {name!r}: use left, right or middle") from None


def _timestamp() -> int:
    """Event time in ms: Chromium tells a double click from two clicks by it."""
    return int(time.monotonic() * 1000)


def _encode(image: QImage, fmt: str, quality: int | None) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    save: Any = image.save  # PySide6 takes the format as str, its stubs say bytes
    if not save(buffer, fmt, -1 if quality is None else quality):
        raise PageError(f"the screenshot could not be encoded as {fmt}")
    buffer.close()
    return bytes(data.data())
