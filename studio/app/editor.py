"""The editor runtime the front ends start: the editor server, the browser pool, the
edition a library runs on, page scripts, the evaluator and the choice of clock.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.runtime import editions, page_scripts
    from studio.services.runtime.browser import BrowserPool, default_spares
    from studio.services.runtime.clock_agreement import AgreementCache, clock_for
    from studio.services.runtime.editions import Edition
    from studio.services.runtime.evaluator import Evaluator
    from studio.services.runtime.page_seam import ClipRect, EditorPage, Viewport
    from studio.services.runtime.pool_size import default_workers
    from studio.services.runtime.server import EditorServer

__getattr__ = lazy.exports(
    __name__,
    {
        "AgreementCache": ("studio.services.runtime.clock_agreement", "AgreementCache"),
        "BrowserPool": ("studio.services.runtime.browser", "BrowserPool"),
        "ClipRect": ("studio.services.runtime.page_seam", "ClipRect"),
        "Edition": ("studio.services.runtime.editions", "Edition"),
        "EditorPage": ("studio.services.runtime.page_seam", "EditorPage"),
        "EditorServer": ("studio.services.runtime.server", "EditorServer"),
        "Evaluator": ("studio.services.runtime.evaluator", "Evaluator"),
        "Viewport": ("studio.services.runtime.page_seam", "Viewport"),
        "clock_for": ("studio.services.runtime.clock_agreement", "clock_for"),
        "default_spares": ("studio.services.runtime.browser", "default_spares"),
        "default_workers": ("studio.services.runtime.pool_size", "default_workers"),
        "editions": ("studio.services.runtime", "editions"),
        "page_scripts": ("studio.services.runtime", "page_scripts"),
    },
)

__all__ = [
    "AgreementCache",
    "BrowserPool",
    "ClipRect",
    "Edition",
    "EditorPage",
    "EditorServer",
    "Evaluator",
    "Viewport",
    "clock_for",
    "default_spares",
    "default_workers",
    "editions",
    "page_scripts",
]
# --- end of re-exports ---
