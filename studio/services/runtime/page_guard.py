"""Editor pages that no action can take away, and the named failure when one is lost anyway.

An agent's page must stay the editor it was given. Four measures keep it there:

- the browser is started with `OVERSCROLL_FLAG` (Chromium's overscroll history navigation
  off: a horizontal wheel at a point of the page that does not scroll otherwise goes "back");
- the editor pages' own style sets `overscroll-behavior: none` (resources/web/editor.html and
  its classic twin), which the window's QtWebEngine pages get too;
- `open_editor` loads the editor with `location.replace`, so the page has no history entry
  before it (Playwright's fresh page starts at about:blank, and "back" went there);
- `guard` refuses, before it happens, every navigation of the page's main frame from then on
  (a link, a form, a script assigning `location`): the request is aborted, which leaves the
  document as it was (an `aborted` request commits no error page).

What still takes a page away (it crashed, was closed, its main frame navigated anyway) is
noticed by the listeners `guard` adds, and `lost(page)` names it; callers turn it into
`PageLost`, an environment failure: the agent did nothing wrong.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import TYPE_CHECKING, Any

from studio.models.errors import StudioError
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = ["OVERSCROLL_FLAG", "PageLost", "guard", "lost", "mark_lost", "open_editor", "refused"]

OVERSCROLL_FLAG = "--disable-features=OverscrollHistoryNavigation"

_lost: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_refused: weakref.WeakKeyDictionary[Any, list[str]] = weakref.WeakKeyDictionary()


class PageLost(StudioError):
    """An environment failure: the episode's editor page navigated away, crashed, closed or
    stopped answering. The message says which and when; it is never the agent's fault."""


async def open_editor(page: Page, url: str, timeout_ms: float) -> None:
    """Load `url` in the fresh `page` in place of its blank document (no history before it)
    and wait for its `load` event (Playwright's TimeoutError after `timeout_ms`)."""
    await page_scripts.replace_document(page, url)
    await page.wait_for_url(url, wait_until="load", timeout=timeout_ms)


async def guard(page: Page) -> None:
    """From now on refuse every navigation of `page`'s main frame, and note (for `lost`) a
    crash, a close or a main-frame navigation that happened all the same."""
    home = page.url

    async def refuse(route: Any, request: Any) -> None:
        try:
            main = request.is_navigation_request() and request.frame == page.main_frame
        except Exception:  # the page is going away
            main = False
        with contextlib.suppress(Exception):  # the page may be closing
            if main:
                _refused.setdefault(page, []).append(request.url)
                await route.abort("aborted")  # commits no error page: the editor stays
            else:
                await route.fallback()

    def navigated(frame: Any) -> None:
        if frame == page.main_frame and frame.url != home:
            mark_lost(page, f"the editor page navigated away to {frame.url[:200]}")

    page.on("framenavigated", navigated)
    page.on("crash", lambda _page: mark_lost(page, "the editor page crashed"))
    page.on("close", lambda _page: mark_lost(page, "the editor page was closed"))
    await page.route("**/*", refuse)


def mark_lost(page: EditorPage, why: str) -> None:
    """Remember that `page` no longer shows its editor (the first reason is kept)."""
    with contextlib.suppress(TypeError):
        _lost.setdefault(page, why)


def lost(page: EditorPage) -> str | None:
    """Why `page` no longer shows its editor, or None while it does."""
    try:
        return _lost.get(page)
    except TypeError:  # not a page that can be remembered (a fake in a test)
        return None


def refused(page: EditorPage) -> list[str]:
    """The URLs of the main-frame navigations `guard` refused on `page`, oldest first."""
    try:
        return list(_refused.get(page, []))
    except TypeError:
        return []
