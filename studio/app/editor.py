"""The editor runtime the front ends start: the editor server, the browser pool, the
edition a library runs on, page scripts, the evaluator and the choice of clock.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.runtime import editions, page_scripts
from studio.services.runtime.browser import BrowserPool, default_spares
from studio.services.runtime.clock_agreement import (
    AgreementCache,
    clock_for,
    evaluate_on_chosen_clock,
)
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import Evaluator
from studio.services.runtime.server import EditorServer

__all__ = [
    "AgreementCache",
    "BrowserPool",
    "Edition",
    "EditorServer",
    "Evaluator",
    "clock_for",
    "default_spares",
    "editions",
    "evaluate_on_chosen_clock",
    "page_scripts",
]
# --- end of re-exports ---
