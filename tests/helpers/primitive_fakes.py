"""Fakes for primitive-mode unit tests: a page that records input, an OCR backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playwright.async_api import Error as PlaywrightError

from studio.services.episodes.ocr.base import OcrBox
from tests.helpers.script_page import ScriptHost

PNG = b"\x89PNG\r\n\x1a\nfake"
KNOWN_KEYS = {"Enter", "Control", "Shift", "a", "Space", "ArrowUp", "F5", "Control+a"}


class FakeMouse:
    def __init__(self, log: list[tuple[Any, ...]]) -> None:
        self.log = log

    async def move(self, x: float, y: float, steps: int = 1) -> None:
        self.log.append(("move", round(x, 2), round(y, 2), steps))

    async def down(self) -> None:
        self.log.append(("down",))

    async def up(self) -> None:
        self.log.append(("up",))

    async def click(self, x: float, y: float, button: str = "left") -> None:
        self.log.append(("click", x, y, button))

    async def dblclick(self, x: float, y: float) -> None:
        self.log.append(("dblclick", x, y))

    async def wheel(self, dx: float, dy: float) -> None:
        self.log.append(("wheel", dx, dy))


class FakeKeyboard:
    def __init__(self, log: list[tuple[Any, ...]]) -> None:
        self.log = log

    def _check(self, key: str) -> None:
        if key not in KNOWN_KEYS:
            raise PlaywrightError(f'Unknown key: "{key}"')

    async def type(self, text: str) -> None:
        self.log.append(("type", text))

    async def press(self, key: str) -> None:
        self._check(key)
        self.log.append(("press", key))

    async def down(self, key: str) -> None:
        self._check(key)
        self.log.append(("keydown", key))

    async def up(self, key: str) -> None:
        self.log.append(("keyup", key))


class FakePage(ScriptHost):
    """Answers the calls PrimitiveMode makes into window.StudioElements; records input."""

    def __init__(self, elements: list[dict[str, Any]] | None = None) -> None:
        super().__init__()
        self.log: list[tuple[Any, ...]] = []
        self.mouse = FakeMouse(self.log)
        self.keyboard = FakeKeyboard(self.log)
        self.viewport_size = {"width": 1280, "height": 720}
        self.elements = elements if elements is not None else []
        self.screenshots = 0
        self.js_calls: list[tuple[str, list[Any]]] = []
        self.canvas_box: dict[str, float] | None = {"x": 313, "y": 93, "w": 470, "h": 627}

    @property
    def injected(self) -> int:
        """How many times elements.js was evaluated in the page."""
        return self.installs.count("StudioElements")

    async def answer(self, script: str, name: str, args: list[Any]) -> Any:
        assert script == "StudioElements", script
        self.js_calls.append((name, args))
        if name == "collect":
            return [dict(e) for e in self.elements]
        if name == "describeAt":
            return f"hit: {args[0]:g},{args[1]:g}" + (" drag" if len(args) > 2 else "")
        if name == "describePoints":
            return [f"hit: {x:g},{y:g}" + (" drag" if args[1] else "") for x, y in args[0]]
        if name == "describeFocus":
            return "inputs: focused"
        if name == "canvasBox":
            return self.canvas_box
        if name == "settle":
            return True
        raise AssertionError(f"unexpected call {name}")

    async def screenshot(self, **_: Any) -> bytes:
        self.screenshots += 1
        return PNG

    def input(self) -> list[tuple[Any, ...]]:
        return list(self.log)


class FakeOcr:
    """An OCR backend returning fixed boxes and counting calls."""

    name = "fake"

    def __init__(self, boxes: list[OcrBox]) -> None:
        self.boxes = boxes
        self.calls = 0
        self.skips: list[list[tuple[float, float, float, float]]] = []
        self.warmed = False

    async def warm_up(self) -> None:
        self.warmed = True

    async def recognize(
        self, png: bytes, skip: Sequence[tuple[float, float, float, float]] = ()
    ) -> list[OcrBox]:
        self.calls += 1
        self.skips.append(list(skip))
        return list(self.boxes)


def dom(
    type_: str, text: str, x: float, y: float, w: float, h: float, **meta: Any
) -> dict[str, Any]:
    return {"type": type_, "text": text, "x": x, "y": y, "w": w, "h": h, "meta": meta}
