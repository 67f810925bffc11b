"""The web page that hosts the Scratch editor, and an awaitable call channel into its JS.

`window.studioBridge` (resources/js/editor-bridge.js) returns promises; QWebEnginePage's
runJavaScript cannot wait for them, so each call carries an id and the page settles it through
a QWebChannel object ("studioHost"). On the Python side a call is an asyncio future. The text
of every script run here comes from `runtime.page_scripts` (the JS from resources/js).

No action leaves the editor's document (issue 44): once a document has loaded, every
navigation of the page's main frame that the studio did not ask for itself (a link, a form, a
script assigning `location`, `history.back()`, a reload) is refused before it happens, the way
`runtime.page_guard` refuses it on the headless pages.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QFile, QIODevice, QObject, QUrl, Signal, Slot
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import (
    QWebEngineLoadingInfo,
    QWebEnginePage,
    QWebEngineProfile,
    QWebEngineScript,
)

from studio.models.errors import StudioError
from studio.services.runtime import page_scripts

CHANNEL_SCRIPT = ":/qtwebchannel/qwebchannel.js"
log = logging.getLogger(__name__)


class EditorError(StudioError):
    """The editor page refused or failed a request; the message is fit to show a user."""


class _Host(QObject):
    """The object the page's JS reaches as `studioHost`; it settles calls with one JSON string."""

    settled = Signal(str)

    @Slot(str)
    def settle(self, message: str) -> None:
        self.settled.emit(message)


class EditorPage(QWebEnginePage):
    """A page with the QWebChannel installed whose bridge methods can be awaited.

    `javaScriptConsoleMessage` is deliberately not overridden: with PySide6 6.12 every call
    of a Python override drops a reference to `True`, and the editor logs many warnings, so
    the interpreter aborts at exit ("bool_dealloc"). Page errors are kept by the page itself
    (`studioBridge.status().errors`).

    Navigation: the studio's own loads (`load`, `setHtml`, the view's equivalents: Qt calls
    them "typed") are always let through, and so is whatever happens while a document loads
    (its redirects); once a document has loaded, any other main-frame navigation is refused
    and `navigation_refused` says where it wanted to go. Sub-frames are left alone. Qt still
    reports a refused navigation as a load that started and stopped (`loadStarted`,
    `loadFinished(False)`); `document_started` and `document_finished` are the loads less
    those, which is what the view listens to (a refusal is not an editor that failed to load).
    Not refused: a navigation to `about:blank` (`location.href = 'about:blank'`), which
    QtWebEngine 6.12 commits without asking `acceptNavigationRequest` at all.
    """

    navigation_refused = Signal(str)  # the URL a refused main-frame navigation asked for
    document_started = Signal()  # a load began that was not refused
    document_finished = Signal(bool)  # ... and ended (True: the document loaded)

    def __init__(self, profile: QWebEngineProfile, parent: QObject | None = None) -> None:
        super().__init__(profile, parent)
        self._host = _Host(self)
        self._host.settled.connect(self._on_settled)
        self._channel = QWebChannel(self)
        self._channel.registerObject("studioHost", self._host)
        self.setWebChannel(self._channel)
        self.scripts().insert(_channel_script())
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._settled = False  # a document has loaded: other navigations are refused
        self._refused: set[str] = set()  # URLs refused whose pseudo-load has not ended yet
        self.loadingChanged.connect(self._on_loading_changed)
        self.renderProcessTerminated.connect(self._on_render_process_terminated)
        # Asked before the page's own file picker (the editor's File ▸ Load from your
        # computer) opens: a reason to refuse it (a human session), or None.
        self.file_gate: Callable[[], str | None] | None = None

    def chooseFiles(
        self,
        mode: QWebEnginePage.FileSelectionMode,
        oldFiles: Sequence[str],
        acceptedMimeTypes: Sequence[str],
    ) -> list[str]:
        if self.file_gate is not None and self.file_gate():
            return []  # as if the picker were cancelled
        return list(super().chooseFiles(mode, oldFiles, acceptedMimeTypes))

    def acceptNavigationRequest(
        self, url: QUrl | str, type: QWebEnginePage.NavigationType, isMainFrame: bool
    ) -> bool:
        if not isMainFrame:
            return True
        target = url.toString() if isinstance(url, QUrl) else str(url)
        if type == QWebEnginePage.NavigationType.NavigationTypeTyped:
            self._settled = False  # the studio's own load: it may redirect until it has loaded
            self._refused.discard(target)
            return True
        if not self._settled:
            return True
        self._refused.add(target)
        log.info("refused a navigation of the editor page to %s", target[:200])
        self.navigation_refused.emit(target)
        return False

    def call(self, method: str, *args: Any) -> asyncio.Future[Any]:
        """Run `studioBridge[method](...args)` in the page; the future gets its result."""
        call_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        self.runJavaScript(
            page_scripts.qt_bridge_call(call_id, method, args),
            0,
            lambda sent: self._on_dispatched(call_id, sent),
        )
        return future

    def evaluate_function(
        self, source: str, arg: Any = None, pass_arg: bool = False
    ) -> asyncio.Future[Any]:
        """Evaluate `source` in the page the way Playwright's `page.evaluate` does: a function
        is called (with `arg` when `pass_arg`), another expression or script is evaluated, and
        a promise is awaited. The future gets the JSON value; a throw becomes EditorError.

        The value comes back through the bridge's channel like a `call`: the function is run by
        `studioBridge.studioEvaluate`. What is evaluated is a page script's call
        (`studio.services.runtime.page_scripts`, through `QtEditorPage`)."""
        return self.call("studioEvaluate", source, arg, pass_arg)

    def evaluate(self, expression: str) -> asyncio.Future[Any]:
        """Evaluate a synchronous JS expression (one of `page_scripts.own_call`); the future
        gets its value (via JSON)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(text: Any) -> None:
            if future.done():
                return
            try:
                reply = json.loads(text) if isinstance(text, str) else {"ok": True, "v": text}
            except json.JSONDecodeError:
                reply = {"ok": True, "v": text}
            if reply.get("ok"):
                future.set_result(reply.get("v"))
            else:
                future.set_exception(EditorError(f"script error: {reply.get('v')}"))

        self.runJavaScript(page_scripts.qt_json(expression), 0, done)
        return future

    def fail_pending(self, message: str) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(EditorError(message))

    def _on_dispatched(self, call_id: int, sent: Any) -> None:
        if sent != "sent":
            future = self._pending.pop(call_id, None)
            if future is not None and not future.done():
                future.set_exception(EditorError("the editor page is not loaded"))

    def _on_settled(self, message: str) -> None:
        try:
            settled = json.loads(message)
            call_id, ok, value = int(settled["id"]), bool(settled["ok"]), settled.get("value")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            return  # not one of ours
        future = self._pending.pop(call_id, None)
        if future is None or future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(EditorError(str(value)))

    def _on_loading_changed(self, info: QWebEngineLoadingInfo) -> None:
        url, status = info.url().toString(), info.status()
        started = status == QWebEngineLoadingInfo.LoadStatus.LoadStartedStatus
        if url in self._refused:  # the refused navigation's pseudo-load: the document stays
            if not started:
                self._refused.discard(url)
            return
        if started:
            self.fail_pending("the editor page was reloaded")
            self.document_started.emit()
        else:
            self._settled = True  # also after a failed load: only the studio loads another
            self.document_finished.emit(
                status == QWebEngineLoadingInfo.LoadStatus.LoadSucceededStatus
            )

    def _on_render_process_terminated(self, status: Any, exit_code: int) -> None:
        self.fail_pending(f"the editor's browser process ended (exit code {exit_code})")


def _channel_script() -> QWebEngineScript:
    """Qt's qwebchannel.js, injected before the page's own scripts run."""
    source = QFile(CHANNEL_SCRIPT)
    if not source.open(QIODevice.OpenModeFlag.ReadOnly):
        raise RuntimeError(f"Qt resource {CHANNEL_SCRIPT} is missing (QtWebChannel not installed?)")
    script = QWebEngineScript()
    script.setName("studio-qwebchannel")
    script.setSourceCode(bytes(source.readAll().data()).decode("utf-8"))
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentCreation)
    script.setWorldId(QWebEngineScript.ScriptWorldId.MainWorld)
    script.setRunsOnSubFrames(False)
    return script
