"""The embedded Scratch editor: our editor page in a QWebEngineView, with a status banner.

The Scratch GUI lays itself out for at least 1024x640 CSS pixels and cuts off what does not
fit (the sprite-info row first); in a smaller area the page is zoomed out just enough to fit
(`fit_zoom`), never below MIN_ZOOM. A page lent to an episode (`show_at`) is at zoom 1.

The view shows the editor page of one edition (studio.services.runtime.editions; `set_edition`, then
`start`): the open library's. An edition whose bundle is not installed is not loaded: the
banner says which edition, which folders were looked in and the `make` target that fetches
it, and `wait_ready` raises that message."""

from __future__ import annotations

import asyncio
import base64
import binascii
import fcntl
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from PySide6.QtCore import QCoreApplication, QUrl, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWebEngineCore import QWebEngineProfile
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QVBoxLayout, QWidget

from studio.services.core import paths
from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import check_sb3
from studio.services.runtime import editions, page_scripts
from studio.services.runtime.editions import Edition
from studio.services.runtime.server import EditorServer
from studio.views.editor.page import EditorError, EditorPage
from studio.views.widgets.banner import Banner

QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's largest widget size
GUI_MIN_SIZE = (1024, 640)  # the Scratch GUI's own minimum layout, CSS pixels
MIN_ZOOM = 0.6

READY_TIMEOUT_S = 90.0
_profile: QWebEngineProfile | None = None
_profile_lock: IO[str] | None = None


def fit_zoom(width: int, height: int) -> float:
    """The page zoom at which the Scratch GUI's minimum layout fits `width` x `height`."""
    if width <= 0 or height <= 0:
        return 1.0
    zoom = min(1.0, width / GUI_MIN_SIZE[0], height / GUI_MIN_SIZE[1])
    return max(MIN_ZOOM, round(zoom, 2))


def shared_profile() -> QWebEngineProfile:
    """One browser profile per process, kept on disk so the bundle's code cache survives runs.

    A second studio running at the same time gets an in-memory profile instead of sharing
    the disk cache (Chromium's cache is not meant for two processes).
    """
    global _profile, _profile_lock
    if _profile is None:
        app = QCoreApplication.instance()
        root = paths.cache_dir() / "qtwebengine"
        root.mkdir(parents=True, exist_ok=True)
        lock = open(root / "profile.lock", "w")  # noqa: SIM115  (held for the process)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            _profile = QWebEngineProfile(app)  # off the record
            return _profile
        _profile_lock = lock
        _profile = QWebEngineProfile("scratch-bench-studio", app)
        _profile.setCachePath(str(root / "cache"))
        _profile.setPersistentStoragePath(str(root / "storage"))
        _profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.DiskHttpCache)
    return _profile


class EditorView(QWidget):
    """Shows the real Scratch editor and loads and exports projects through its VM.

    Call `start()` once; `editor_started` fires when the editor and its VM are ready.
    """

    editor_started = Signal(float)  # seconds from start() to ready
    editor_failed = Signal(str)
    project_loaded = Signal(str)  # the project's name
    project_load_failed = Signal(str)  # a message naming the file

    def __init__(self, server: EditorServer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._server = server
        self.banner = Banner(self)
        self.view = QWebEngineView(self)
        self.page = EditorPage(shared_profile(), self.view)
        self.view.setPage(self.page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.view, 1)
        self._ready: asyncio.Future[float] | None = None
        self._started_at = 0.0
        self._project_name = ""
        self._waiter: asyncio.Future[None] | None = None
        self._lent: tuple[int, int] | None = None  # the page's size while an episode has it
        self.edition = Edition.CURRENT  # whose editor page `start` loads
        self._owner = "The task library"  # what the edition is recorded for (in messages)
        self._loading = False  # an editor page is being loaded (not a blank one)
        # Asked before every load_project: a reason to refuse it (a human session), or None.
        self.load_gate: Callable[[str], str | None] | None = None
        self.page.file_gate = lambda: self._gate("a file from the editor's File menu")
        self.page.loadProgress.connect(self._on_load_progress)
        self.page.document_finished.connect(self._on_load_finished)  # not a refused navigation
        self.page.renderProcessTerminated.connect(self._on_render_process_terminated)

    def hold_size(self, hold: bool) -> None:
        """Keep the page view at its present size or let the layout size it again (a view
        shown at a screen size, see `show_at`, keeps that size until `fit_view` anyway)."""
        if self._lent is not None:
            return
        if hold:
            self.view.setFixedSize(self.view.size())
        else:
            self.view.setMinimumSize(0, 0)
            self.view.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)

    @property
    def shown_size(self) -> tuple[int, int] | None:
        """The page's size set by `show_at` (None while the layout sizes the view)."""
        return self._lent

    def show_at(self, width: int, height: int) -> None:
        """Give the page exactly `width` x `height` CSS pixels (an episode's screen): the view
        leaves the layout, so resizing the window cannot change it mid-action, and whatever
        does not fit in the editor's area is cut off on screen (not in the page's pictures)."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        if self._lent is None:
            layout.removeWidget(self.view)
        self._lent = (width, height)
        self._allow_rest(False)  # an episode sees every frame
        self.view.setZoomFactor(1.0)
        self.view.setMinimumSize(0, 0)
        self.view.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
        top = self.banner.geometry().bottom() + 1 if self.banner.isVisible() else 0
        self.view.setGeometry(0, top, width, height)
        self.view.raise_()

    def fit_view(self) -> None:
        """Undo `show_at`: the layout sizes the view again, zoomed to fit it."""
        if self._lent is None:
            return
        self._lent = None
        self._allow_rest(True)
        self.view.setMinimumSize(0, 0)
        self.view.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.addWidget(self.view, 1)
        layout.activate()
        self._fit_zoom()

    def _allow_rest(self, allowed: bool) -> None:
        """May the idle stage skip its redraws (resources/js/editor-rest.js)?"""
        page_scripts.own_now(self.page, "studioRest", "allow", allowed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_zoom()

    def _fit_zoom(self) -> None:
        if self._lent is not None:
            return
        banner = self.banner.height() if self.banner.isVisible() else 0
        zoom = fit_zoom(self.width(), self.height() - banner)
        if abs(self.view.zoomFactor() - zoom) > 0.005:
            self.view.setZoomFactor(zoom)

    @property
    def is_ready(self) -> bool:
        return self._ready is not None and self._ready.done() and not self._ready.exception()

    @property
    def project_name(self) -> str:
        """The name of the project the editor holds ('' for the default project)."""
        return self._project_name

    def set_edition(self, edition: Edition, owner: str) -> None:
        """Show `edition`'s editor from the next `start` on; `owner` (a library) is what it is
        recorded for, named when its bundle is missing."""
        self.edition = edition
        self._owner = owner

    @property
    def page_path(self) -> str:
        """The served path of the editor page shown (the edition's)."""
        return editions.info(self.edition).editor_page

    def start(self) -> None:
        """Load the edition's editor page (again); readiness is announced by `editor_started`,
        a missing bundle by `editor_failed`."""
        if self._ready is not None and not self._ready.done():
            self._ready.cancel()
        self._ready = asyncio.get_running_loop().create_future()
        self._ready.add_done_callback(_consume)
        self._started_at = time.perf_counter()
        self._project_name = ""
        try:
            editions.require_installed(self.edition, self._owner)
        except paths.SetupError as exc:
            self._loading = False
            self.view.setHtml("")  # no editor of another edition stays usable
            self._fail(str(exc))
            return
        self._loading = True
        self.banner.show_progress(f"Loading the Scratch editor{self._edition_note()}…")
        self.view.load(QUrl(self._server.url(self.page_path)))

    def _edition_note(self) -> str:
        return "" if self.edition is Edition.CURRENT else f" ({self.edition.value} edition)"

    async def wait_ready(self, timeout_s: float = READY_TIMEOUT_S) -> None:
        if self._ready is None:
            raise EditorError("the editor was not started")
        await asyncio.wait_for(asyncio.shield(self._ready), timeout_s)

    async def load_project(self, data: bytes, name: str, title: str = "") -> dict[str, Any]:
        """Replace the editor's project; on failure raise EditorError and keep the old one.

        `name` (a path or file name) is what error messages name; `title` is shown in the
        editor's title field (default: the file name without .sb3).
        """
        try:
            refused = self._gate(name)
            if refused:
                raise EditorError(refused)
            try:
                check_sb3(data, name)
            except ProjectFileError as exc:
                raise EditorError(str(exc)) from None
            await self.wait_ready()
            url = self._server.register_bytes(data, Path(name).name or "project.sb3")
            try:
                summary = await self.page.call("loadProjectFromUrl", url, name, title)
            finally:
                self._server.forget(url)
        except EditorError as exc:
            self.banner.show_error(f"Could not open the project. {exc}")
            self.project_load_failed.emit(str(exc))
            raise
        self._project_name = name
        self.banner.hide()
        self.project_loaded.emit(name)
        return dict(summary or {})

    def _gate(self, name: str) -> str | None:
        return self.load_gate(name) if self.load_gate is not None else None

    async def export_project(self) -> bytes:
        """The project the editor holds right now, as .sb3 bytes."""
        await self.wait_ready()
        encoded = await self.page.call("saveProjectBase64")
        try:
            return base64.b64decode(str(encoded), validate=True)
        except (binascii.Error, ValueError):
            raise EditorError("the editor returned a project that is not base64") from None

    async def bridge_now(self, method: str, *args: Any) -> Any:
        """`studioBridge[method](...args)` run synchronously (None before the bridge is up)."""
        return await page_scripts.own(self.page, "studioBridge", method, *args)

    async def describe_project(self) -> dict[str, Any]:
        await self.wait_ready()
        return dict(await self.page.call("describeProject") or {})

    def _on_load_progress(self, percent: int) -> None:
        if self._loading and not self.is_ready:  # not the blank page of a missing edition
            self.banner.show_progress(
                f"Loading the Scratch editor{self._edition_note()}… {percent}%"
            )

    def _on_load_finished(self, ok: bool) -> None:
        if not self._loading:
            return  # the blank page shown in place of an edition that is not installed
        if not ok:
            self._fail(f"the editor page {self._server.url(self.page_path)} did not load")
            return
        self.banner.show_progress("Starting the Scratch editor…")
        self._waiter = asyncio.ensure_future(self._await_page_ready())

    async def _await_page_ready(self) -> None:
        ready = self._ready
        try:
            status = await self.bridge_now("status")
            # without WebGL the editor would only show its "no WebGL" dialog
            if isinstance(status, dict) and status.get("webgl") is False:
                raise EditorError("no WebGL")
            await asyncio.wait_for(self.page.call("whenReady"), READY_TIMEOUT_S)
        except (EditorError, TimeoutError) as exc:
            self._fail(await self._why_not_ready(exc))
            return
        if ready is None or ready.done():
            return
        seconds = time.perf_counter() - self._started_at
        ready.set_result(seconds)
        self.banner.hide()
        self.editor_started.emit(seconds)

    async def _why_not_ready(self, exc: BaseException) -> str:
        status = await self.bridge_now("status")
        if isinstance(status, dict) and status.get("webgl") is False:
            return (
                "the Scratch editor needs WebGL, which this display does not offer "
                "(QTWEBENGINE_CHROMIUM_FLAGS needs --ignore-gpu-blocklist and no --disable-gpu)"
            )
        errors = status.get("errors") if isinstance(status, dict) else None
        detail = f"; page errors: {'; '.join(map(str, errors[:3]))}" if errors else ""
        if isinstance(exc, TimeoutError):
            return f"the Scratch editor did not start within {READY_TIMEOUT_S:g} s{detail}"
        return f"the Scratch editor did not start: {exc}{detail}"

    def _on_render_process_terminated(self, status: Any, exit_code: int) -> None:
        self._fail(f"the editor's browser process ended (exit code {exit_code}); reload it")

    def _fail(self, message: str) -> None:
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(EditorError(message))
        self.banner.show_error(message)
        self.editor_failed.emit(message)


def _consume(future: asyncio.Future[float]) -> None:
    """Mark a failed readiness as seen, so asyncio does not log it as never retrieved."""
    if not future.cancelled():
        future.exception()
