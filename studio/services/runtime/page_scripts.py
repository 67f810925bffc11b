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
- `wait(page, script, function, *args, timeout_ms=)` and `wait_bridge(page, function, ...)`
  wait (Playwright's `wait_for_function`) until such a call returns a true value.
- `handle(page, script, function, *args)` keeps the call's result in the page (Playwright's
  `evaluate_handle`); `call_handle(handle, function, *args)` calls one of its functions.
- `add_runner(page, url_of)` loads the evaluation runner (resources/js/eval-runner.js, served
  by the editor server at `url_of(path)`) in an editor page.
- `replace_document(page, url)` loads `url` in place of the page's document (no history).
- `syntax_error(page, source)` parses an evaluation script without running it (`SYNTAX_JS`).
- `ping(page)` is the page's answer to a trivial script (1): whether it still runs scripts.
- `runner(page, function, *args)` calls the evaluation runner of an evaluation page
  (`window.StudioEval`: resources/js/eval-runner.js, which resources/web/eval.html loads
  itself: `baseline`, `check`); `RUN_JS` and `RUN_ON_EDITOR_VM_JS` are the page functions an
  evaluation runs (studio.services.runtime.evaluator.run_in_page), on an evaluation page and on
  an editor page's own VM; `wait_runner(page, timeout_ms=)` waits until the runner is ready.
- `contain_ahead(page)` makes resources/js/page-containment.js run before any script of every
  document and frame the page loads from now on; `contain(page)` runs it in the page as it is.

The studio's window (Qt's `QWebEnginePage.runJavaScript`, studio/views/editor/page.py) takes
the text of an expression instead: `qt_bridge_call(call_id, function, args)` hands a call to
the bridge, which settles it through the window's channel; `own_call(global, function,
*args)` is a synchronous call of a function of the page's own scripts (`OWN`), and
`qt_json(expression)` wraps such an expression so that its value comes back as JSON text.

A page is anything with Playwright's `evaluate(expression, arg)` (`runtime.page_seam.ScriptPage`):
a Playwright page of the headless browser, or the window's own editor page
(`studio.views.live.page`); the waits need an `EditorPage` (`wait_for_function`), and `handle`,
`add_runner`, `wait_runner` and `contain_ahead` a Playwright `Page` (the window's page has no
handles, script tags or init scripts).
Page errors are the page object's own (Playwright's `Error`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.runtime.page_lists import PAGE_LISTS
from studio.services.runtime.page_seam import EditorPage, ScriptPage

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = [
    "BRIDGE_JS", "CALL_JS", "CHANGES", "COMPOSITE", "CONTAINMENT_JS", "DRAG", "EDITOR",
    "ELEMENTS",
    "HANDLE_CALL_JS", "HELD_JS", "HELPERS", "INPUT", "INSTALL_JS", "MISSING", "OWN", "OWN_CALL_JS",
    "PING_JS", "QA", "QT_BRIDGE_CALL_JS", "QT_JSON_JS", "REGISTRY", "REPLACE_JS", "RUNNER_JS",
    "RUNNER_PATH", "RUNNER_READY_JS", "RUN_JS", "RUN_ON_EDITOR_VM_JS", "SCRATCHWORLD", "SCRIPTS",
    "SHOT", "SYNTAX_JS", "TEXT_APPLY", "TRIAL_PAINT",
    "WAIT_BRIDGE_JS", "WAIT_JS", "ExpressionPage", "HandlePage", "PageScript",
    "QtScriptPage", "add_runner", "bridge", "call", "call_handle", "contain", "contain_ahead",
    "handle", "in_order", "install", "own", "own_call", "own_now", "ping", "qt_bridge_call",
    "qt_json", "replace_document", "run_evaluation", "runner", "source", "syntax_error", "version",
    "wait", "wait_bridge", "wait_runner",
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
RUNNER_JS = "([fn, args]) => window.StudioEval[fn](...args)"
RUN_JS = "(a) => window.StudioEval.run(a)"  # an evaluation on an evaluation page
RUNNER_READY_JS = "window.StudioEval && window.StudioEval.ready"
CONTAINMENT_JS = paths.JS_DIR / "page-containment.js"  # removes WebRTC from a page's frames
CALL_JS = f"""([name, version, fn, args]) => {{
  const held = window.{REGISTRY};
  if (!held || held[name] !== version || !window[name]) return '{MISSING}';
  return window[name][fn](...args);
}}"""
WAIT_JS = f"""([name, version, fn, args]) => {{
  const held = window.{REGISTRY};
  return Boolean(held && held[name] === version && window[name]) && window[name][fn](...args);
}}"""
WAIT_BRIDGE_JS = "([fn, args]) => Boolean(window.studioBridge) && window.studioBridge[fn](...args)"
HANDLE_CALL_JS = "(held, [fn, args]) => held[fn](...args)"
PING_JS = "1"
REPLACE_JS = "(url) => location.replace(url)"  # load a document in place of the current one
# Parse (never run) an evaluation script as the runner wraps it (a CommonJS-style function
# body: resources/js/eval-runner.js loadModule): null, or the SyntaxError's text.
SYNTAX_JS = """(source) => {
  try { new Function('module', 'exports', 'require', source); return null; }
  catch (e) { return String(e && e.message || e); }
}"""
# The evaluation runner (resources/js/eval-runner.js, which an evaluation loads in its page
# itself): the page function that runs a prepared evaluation on an editor page's own VM.
RUN_ON_EDITOR_VM_JS = "(a) => window.StudioEval.runOn(window.vm, a)"
RUNNER_PATH = "studio-js/eval-runner.js"
# The page's own scripts (resources/web/editor.html loads them), by global: called, never
# installed.
OWN = {"studioBridge": "editor-bridge.js", "studioRest": "editor-rest.js"}
QT_BRIDGE_CALL_JS = "window.studioBridge ? (studioBridge.call(%s, %s, %s), 'sent') : 'no-bridge'"
OWN_CALL_JS = "(window.%s ? window.%s[%s](...%s) : null)"
# PySide6 hands arrays back as '' from runJavaScript; JSON text survives intact.
QT_JSON_JS = (
    "(function () { try { const v = (%s);"
    " return JSON.stringify({ ok: true, v: v === undefined ? null : v }); }"
    " catch (e) { return JSON.stringify({ ok: false, v: String(e) }); } })()"
)


class ExpressionPage(Protocol):
    """A page whose `evaluate(expression)` awaits an expression's value (the window's
    QWebEnginePage, studio/views/editor/page.py; a Playwright page too)."""

    def evaluate(self, expression: str) -> Awaitable[Any]: ...


class QtScriptPage(Protocol):
    """A Qt web page (`QWebEnginePage`): `runJavaScript(source)` runs it, not waiting."""

    def runJavaScript(self, scriptSource: str, /) -> None: ...


@runtime_checkable
class HandlePage(ScriptPage, Protocol):
    """A page that keeps a value in the page for later calls (Playwright's `evaluate_handle`;
    the window's editor page has none: `isinstance(page, HandlePage)` tells)."""

    async def evaluate_handle(self, expression: str, arg: Any = ...) -> Any: ...


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
EDITOR = PageScript("editor-reads.js", "studioEditor", (HELPERS,))
TEXT_APPLY = PageScript("text-apply.js", "studioTextApply", (HELPERS,))
TRIAL_PAINT = PageScript("trial-paint.js", "studioTrialPaint")
SHOT = PageScript("screenshot-prep.js", "studioShot")
CHANGES = PageScript("program-changes.js", "studioChanges")
SCRIPTS = (
    HELPERS, COMPOSITE, DRAG, QA, ELEMENTS, SCRATCHWORLD, INPUT, EDITOR, TEXT_APPLY, TRIAL_PAINT,
    SHOT, CHANGES,
)  # fmt: skip


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


async def wait(
    page: EditorPage, script: PageScript, function: str, *args: Any, timeout_ms: float
) -> Any:
    """Install `script`, then wait until `window[script.name][function](...args)` is true
    (Playwright's `TimeoutError` after `timeout_ms`); its value."""
    await install(page, script)
    request = [script.name, version(script), function, list(args)]
    return await page.wait_for_function(WAIT_JS, arg=request, timeout=timeout_ms)


async def wait_bridge(page: EditorPage, function: str, *args: Any, timeout_ms: float) -> Any:
    """Wait until `window.studioBridge[function](...args)` is true (the page's own bridge)."""
    return await page.wait_for_function(
        WAIT_BRIDGE_JS, arg=[function, list(args)], timeout=timeout_ms
    )


async def handle(page: HandlePage, script: PageScript, function: str, *args: Any) -> Any:
    """`window[script.name][function](...args)` kept in the page: a Playwright `JSHandle`."""
    await install(page, script)
    return await page.evaluate_handle(CALL_JS, [script.name, version(script), function, list(args)])


async def call_handle(held: Any, function: str, *args: Any) -> Any:
    """`held[function](...args)` for a handle from `handle` (a promise is awaited)."""
    return await held.evaluate(HANDLE_CALL_JS, [function, list(args)])


async def add_runner(page: Page, url_of: Callable[[str], str]) -> None:
    """Load the evaluation runner in `page` (an editor page) from the editor server."""
    await page.add_script_tag(url=url_of(RUNNER_PATH))


async def replace_document(page: ScriptPage, url: str) -> None:
    """Load `url` in `page` in place of its current document (`REPLACE_JS`: no history entry
    is left behind to go back to)."""
    await page.evaluate(REPLACE_JS, url)


async def syntax_error(page: ScriptPage, source: str) -> str | None:
    """None when `source` parses as an evaluation script (`SYNTAX_JS`), else the parser's
    message; nothing of it runs."""
    found = await page.evaluate(SYNTAX_JS, source)
    return str(found) if found is not None else None


async def ping(page: ScriptPage) -> Any:
    """The page's answer to a trivial script (1); raises when the page runs no script."""
    return await page.evaluate(PING_JS)


def qt_bridge_call(call_id: int, function: str, args: Iterable[Any]) -> str:
    """The expression that hands `studioBridge[function](...args)` to the bridge's `call`,
    which settles it as `call_id` through the window's channel: 'sent', or 'no-bridge'."""
    return QT_BRIDGE_CALL_JS % (json.dumps(call_id), json.dumps(function), json.dumps(list(args)))


def own_call(name: str, function: str, *args: Any) -> str:
    """The expression `window[name][function](...args)` for one of the page's own scripts
    (`OWN`); null while the page lacks the script."""
    if name not in OWN:
        raise StudioError(f"{name}: not one of the editor page's own scripts ({', '.join(OWN)})")
    return OWN_CALL_JS % (name, name, json.dumps(function), json.dumps(list(args)))


def qt_json(expression: str) -> str:
    """`expression` wrapped so that runJavaScript returns JSON text: {ok, v} (a throw: ok
    false, v the error's text)."""
    return QT_JSON_JS % expression


async def own(page: ExpressionPage, name: str, function: str, *args: Any) -> Any:
    """Run `own_call(name, function, *args)` on a page with an awaitable `evaluate` (the
    window's editor page) and return its value."""
    return await page.evaluate(own_call(name, function, *args))


def own_now(qt_page: QtScriptPage, name: str, function: str, *args: Any) -> None:
    """Send `own_call(name, function, *args)` to a Qt page (`runJavaScript`), not waiting."""
    qt_page.runJavaScript(own_call(name, function, *args))


async def run_evaluation(page: ScriptPage, run: str, request: Any) -> Any:
    """One evaluation: the page function `run` (`RUN_JS` on an evaluation page,
    `RUN_ON_EDITOR_VM_JS` on an editor page) given the prepared `request`."""
    if run not in (RUN_JS, RUN_ON_EDITOR_VM_JS):
        raise StudioError("an evaluation runs through RUN_JS or RUN_ON_EDITOR_VM_JS only")
    return await page.evaluate(run, request)


async def runner(page: ScriptPage, function: str, *args: Any) -> Any:
    """`window.StudioEval[function](...args)`: the evaluation page's own runner."""
    return await page.evaluate(RUNNER_JS, [function, list(args)])


async def wait_runner(page: Page, timeout_ms: float) -> Any:
    """Wait until the evaluation page's runner is ready (`StudioEval.ready`)."""
    return await page.wait_for_function(RUNNER_READY_JS, timeout=timeout_ms)


@cache
def _containment_source() -> str:
    try:
        return CONTAINMENT_JS.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudioError(
            f"{CONTAINMENT_JS}: cannot read the page script ({exc.strerror})"
        ) from None


async def contain_ahead(page: Page) -> None:
    """page-containment.js before any script of every document and frame `page` loads."""
    await page.add_init_script(script=_containment_source())


async def contain(page: ScriptPage) -> None:
    """Run page-containment.js in `page` as it is now."""
    await page.evaluate("() => {\n" + _containment_source() + "\n}")
