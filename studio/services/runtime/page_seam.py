"""The editor page seam: what the studio calls on a page that shows the Scratch editor.

Episodes, mode handlers, the ScratchWorld sessions, the drag and QA labelers and the page
scripts work on an editor page without knowing which kind it is. Two kinds exist:

- a Playwright `Page` of the headless browser (`runtime.browser`, `episodes.editor_pages`,
  `diagnostics.drag.page`), and
- the window's own editor page (`studio.views.live.page.QtEditorPage`), which offers the same
  calls on a QWebEnginePage with Qt alone.

`EditorPage` is that common part, and only that part: each member below is one the studio
calls on an editor page (a member nobody calls does not belong here; a call not listed here
is a call on one kind of page only, typed as that kind). The shapes follow Playwright's:

- `evaluate(expression, arg)`: a function source is called with `arg` (a promise is awaited),
  arguments and result are JSON (`ScriptPage`, all that `runtime.page_scripts` needs);
  `wait_for_function(expression, arg=, timeout=)` polls such a call until it is true.
- `mouse`: `click`, `dblclick`, `move` (in `steps` moves), `down`, `up`, `wheel`, at CSS
  pixels of the viewport (`PageMouse`); `keyboard`: `type`, `press`, `down`, `up` with
  Playwright's key names (`PageKeyboard`). Both are real input events, never DOM shortcuts.
- `screenshot(type=, full_page=, clip=)`: the page as shown, PNG or JPEG bytes; `clip` is a
  `ClipRect` in CSS pixels.
- `content()`: the document's HTML (with its doctype).
- `viewport_size` (a `Viewport`, or None when the page has no fixed size) and
  `set_viewport_size`; `url`; `bring_to_front`; `close` (`run_before_unload=False`: without
  the page's unload handlers); `is_closed`.

Errors raised by these calls are the page's own (Playwright's `Error` and `TimeoutError`;
the window's page raises subclasses of them). mypy checks both kinds against this protocol:
the window's page where it is handed to an episode, Playwright's in
`_playwright_pages_are_editor_pages` below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict

__all__ = ["ClipRect", "EditorPage", "PageKeyboard", "PageMouse", "ScriptPage", "Viewport"]

Button = Literal["left", "middle", "right"]


class Viewport(TypedDict):
    """A page's size in CSS pixels (Playwright's `ViewportSize`)."""

    width: int
    height: int


class ClipRect(TypedDict):
    """A rectangle of the page in CSS pixels (Playwright's `FloatRect`)."""

    x: float
    y: float
    width: float
    height: float


class PageMouse(Protocol):
    """The page's mouse: real pointer events at viewport coordinates."""

    async def click(self, x: float, y: float, *, button: Button = ...) -> None: ...
    async def dblclick(self, x: float, y: float, *, button: Button = ...) -> None: ...
    async def move(self, x: float, y: float, *, steps: int = ...) -> None: ...
    async def down(self) -> None: ...
    async def up(self) -> None: ...
    async def wheel(self, delta_x: float, delta_y: float) -> None: ...


class PageKeyboard(Protocol):
    """The page's keyboard: real key events, keys by Playwright's names ("Enter", "Control")."""

    async def type(self, text: str) -> None: ...
    async def press(self, key: str) -> None: ...
    async def down(self, key: str) -> None: ...
    async def up(self, key: str) -> None: ...


class ScriptPage(Protocol):
    """What a page must offer to run a script: Playwright's `evaluate` (a function source
    called with `arg`, a promise awaited)."""

    async def evaluate(self, expression: str, arg: Any = ...) -> Any: ...


class EditorPage(ScriptPage, Protocol):
    """A page showing the Scratch editor, as episodes, modes, sessions and labelers use it."""

    @property
    def mouse(self) -> PageMouse: ...
    @property
    def keyboard(self) -> PageKeyboard: ...
    @property
    def url(self) -> str: ...
    @property
    def viewport_size(self) -> Viewport | None: ...

    async def wait_for_function(
        self, expression: str, *, arg: Any = ..., timeout: float | None = ...
    ) -> Any: ...
    async def screenshot(
        self,
        *,
        type: Literal["png", "jpeg"] = ...,
        full_page: bool = ...,
        clip: ClipRect | None = ...,
    ) -> bytes: ...
    async def content(self) -> str: ...
    async def set_viewport_size(self, viewport_size: Viewport) -> None: ...
    async def bring_to_front(self) -> None: ...
    async def close(self, *, run_before_unload: bool = ...) -> None: ...
    def is_closed(self) -> bool: ...


if TYPE_CHECKING:
    from playwright.async_api import Page

    def _playwright_pages_are_editor_pages(page: Page) -> EditorPage:
        """mypy's proof that a headless browser page offers every call of the seam."""
        return page
