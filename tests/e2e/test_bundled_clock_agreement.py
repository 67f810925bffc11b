"""On every bundled task, accelerated and real-time evaluation give the same per-test verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.evaluation import Clock
from studio.services.clock_agreement import verdicts
from studio.services.store import scan_library

pytestmark = pytest.mark.browser
TASKS = Path(__file__).resolve().parents[2] / "tasks"
ENTRIES = scan_library(TASKS).tasks if TASKS.is_dir() else []


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.task.id for e in ENTRIES])
def test_virtual_clock_agrees_with_real_time(entry, evaluate) -> None:  # type: ignore[no-untyped-def]
    for project in (entry.golden_path, entry.initial_path):
        real = evaluate(entry, project, clock=Clock.REAL)
        virtual = evaluate(entry, project, clock=Clock.VIRTUAL)
        assert verdicts(virtual) == verdicts(real), (
            f"{project.name}: real {real.details} vs virtual {virtual.details}"
        )
