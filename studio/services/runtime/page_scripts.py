"""The studio's scripts in editor pages: read, composed, installed and called in one place.

A `PageScript` is a file of resources/js that defines one global object of functions
(`window.studioComposite`, `window.studioDrag`, ...) and names the scripts it needs first.
Every page script of the studio is listed here (`SCRIPTS`); nothing else puts our JS into an
editor page or spells the call of one of its functions.

- `source(script)` is the file's text (read once per process) with a `sourceURL`, so a page's
  stack traces name `studio-js/<file>`. The shared helpers (`resources/js/page-helpers.js`)
  also get `window.studioPageHelpers.lists`: `runtime.page_lists.PAGE_LISTS` as JSON,
  the lists Python and the page both use.
- `install(page, *scripts)` puts the scripts in the page, each after the scripts it needs
  (the helpers first). It is idempotent: the page keeps, per global, the version (a hash of
  the source) it holds in `window.__studioPageScripts`, and a script the page holds at this
  version is not evaluated again; one the page lacks, or holds at another version, is. The
  scripts themselves carry no guard of their own.
- `call(page, script, function, *args)` returns `window[global][function](...args)` (a
  promise is awaited); arguments and result are JSON. A page that lost the script (it loaded
  again) gets it installed and the call is made again, so a caller never installs just to call.
- `bridge(page, function, *args)` calls the editor page's own bridge the same way
  (`window.studioBridge`, resources/js/editor-bridge.js, which resources/web/editor.html loads
  itself: nothing to install).

A page is anything with Playwright's `evaluate(expression, arg)` (`ScriptPage`): a Playwright
page of the headless browser, or the window's own editor page (`studio.views.live_page`).
Page errors are the page object's own (Playwright's `Error`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.runtime.page_lists import PAGE_LISTS

__all__ = [
    "BRIDGE_JS", "CALL_JS", "COMPOSITE", "DRAG", "ELEMENTS", "HELD_JS", "HELPERS", "INPUT",
    "INSTALL_JS", "MISSING", "QA", "REGISTRY", "SCRATCHWORLD", "SCRIPTS", "PageScript",
    "ScriptPage", "bridge", "call", "in_order", "install", "source", "version",
]  # fmt: skip

# The page's side of this module (fakes of a page in tests answer them too).
REGISTRY = "__studioPageScripts"
MISSING = "__studio_page_script_missing__"
HELD_JS = f"""(wanted) => {{
  const held = window.{REGISTRY} || {{}};
  return wanted.filter(([name, version]) => held[name] !== version).map(([name]) => name);
}}"""
INSTALL_JS = f"""(scripts) => {{
  const held = window.{REGISTRY} || (window.{REGISTRY} = {{}});
  for (const [name, version, source] of scripts) {{
    if (held[name] === version) continue;
    (0, eval)(source);
    held[name] = version;
  }}
  return true;
}}"""
BRIDGE_JS = "([fn, args]) => window.studioBridge[fn](...args)"
CALL_JS = f"""([name, version, fn, args]) => {{
  const held = window.{REGISTRY};
  if (!held || held[name] !== version || !window[name]) return '{MISSING}';
  return window[name][fn](...args);
}}"""


class ScriptPage(Protocol):
    """What a page must offer: Playwright's `evaluate` (a function source called with `arg`)."""

    async def evaluate(self, expression: str, arg: Any = ...) -> Any: ...


@dataclass(frozen=True)
class PageScript:
    """A file of resources/js defining `window.<name>`, after the scripts in `needs`."""

    file: str
    name: str
    needs: tuple[PageScript, ...] = ()


HELPERS = PageScript("page-helpers.js", "studioPageHelpers")
COMPOSITE = PageScript("composite.js", "studioComposite", (HELPERS,))
DRAG = PageScript("drag-trials.js", "studioDrag", (HELPERS,))
QA = PageScript("perception.js", "studioQa", (HELPERS,))
ELEMENTS = PageScript("elements.js", "StudioElements", (HELPERS,))
SCRATCHWORLD = PageScript("scratchworld.js", "StudioScratchWorld")
INPUT = PageScript("input-capture.js", "studioInput")
SCRIPTS = (HELPERS, COMPOSITE, DRAG, QA, ELEMENTS, SCRATCHWORLD, INPUT)


@cache
def source(script: PageScript) -> str:
    """The script as it is evaluated in a page."""
    path = paths.JS_DIR / script.file
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudioError(f"{path}: cannot read the page script ({exc.strerror})") from None
    if script is HELPERS:
        text += f"\nwindow.{script.name}.lists = {json.dumps(PAGE_LISTS, sort_keys=True)};\n"
    return f"{text}\n//# sourceURL=studio-js/{script.file}\n"


@cache
def version(script: PageScript) -> str:
    """A short hash of the script's source: what a page's guard compares."""
    return hashlib.sha256(source(script).encode("utf-8")).hexdigest()[:16]


def in_order(scripts: Iterable[PageScript]) -> list[PageScript]:
    """`scripts` with everything they need, each once, every script after what it needs."""
    out: list[PageScript] = []

    def add(script: PageScript) -> None:
        if script in out:
            return
        for need in script.needs:
            add(need)
        out.append(script)

    for script in scripts:
        add(script)
    return out


async def install(page: ScriptPage, *scripts: PageScript) -> None:
    """Evaluate in `page` the scripts (and what they need) it does not hold at this version."""
    wanted = in_order(scripts)
    missing = set(await page.evaluate(HELD_JS, [[s.name, version(s)] for s in wanted]))
    if missing:
        await page.evaluate(
            INSTALL_JS, [[s.name, version(s), source(s)] for s in wanted if s.name in missing]
        )


async def call(page: ScriptPage, script: PageScript, function: str, *args: Any) -> Any:
    """`window[script.name][function](...args)` in `page`, installing the script if need be."""
    request = [script.name, version(script), function, list(args)]
    result = await page.evaluate(CALL_JS, request)
    if isinstance(result, str) and result == MISSING:
        await install(page, script)
        result = await page.evaluate(CALL_JS, request)
        if isinstance(result, str) and result == MISSING:
            raise StudioError(f"{script.file}: the page lost the script as it was installed")
    return result


async def bridge(page: ScriptPage, function: str, *args: Any) -> Any:
    """`window.studioBridge[function](...args)`: the editor page's own bridge."""
    return await page.evaluate(BRIDGE_JS, [function, list(args)])
