"""Widget tests share the session's QApplication, created the way the studio creates it."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def qapp() -> Any:
    """QtWebEngine needs its attributes set before the first QApplication of the session."""
    from studio.views.app import make_application

    return make_application()
