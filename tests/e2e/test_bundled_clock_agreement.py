"""Every bundled task is sound, on both clocks.

Its golden project passes every test, its initial project fails (for a debug task the bug is
caught; for every task an agent that changes nothing fails: the idle agent's episodes in
tests/e2e/test_oracle.py and tests/e2e/test_api_e2e.py run on one task each), and the
accelerated (virtual clock) and real-time evaluations of both projects give the same per-test
verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.evaluation import Clock, EvalResult
from studio.models.task import Category
from studio.services.core.store import TaskFolder, scan_library
from studio.services.runtime.clock_agreement import verdicts

pytestmark = pytest.mark.browser
TASKS = Path(__file__).resolve().parents[2] / "tasks"
ENTRIES = scan_library(TASKS).tasks if TASKS.is_dir() else []


def _failures(result: EvalResult) -> str:
    if result.error is not None:
        return result.summary_line()
    return "; ".join(f"{d.name}: {d.error}" for d in result.details if not d.passed)


def test_the_library_has_three_tasks_per_category() -> None:
    assert not scan_library(TASKS).errors
    for category in Category:
        assert sum(e.task.category is category for e in ENTRIES) == 3, category


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.task.id for e in ENTRIES])
def test_task_is_sound_and_both_clocks_agree(entry: TaskFolder, evaluate_all) -> None:  # type: ignore[no-untyped-def]
    assert entry.golden_path is not None
    projects = (("golden", entry.golden_path), ("initial", entry.initial_path))
    clocks = (Clock.REAL, Clock.VIRTUAL)
    jobs = [(name, path, clock) for name, path in projects for clock in clocks]
    results = evaluate_all((entry, path, {"clock": clock}) for _, path, clock in jobs)
    runs: dict[str, dict[Clock, EvalResult]] = {name: {} for name, _ in projects}
    for (name, _, clock), result in zip(jobs, results, strict=True):
        runs[name][clock] = result
    for name, by_clock in runs.items():
        real, virtual = by_clock[Clock.REAL], by_clock[Clock.VIRTUAL]
        assert verdicts(virtual) == verdicts(real), (
            f"{name}: real {real.details} vs virtual {virtual.details}"
        )
    golden = runs["golden"][Clock.REAL]
    assert golden.ok, _failures(golden)
    assert golden.total_tests >= 3
    # every task, not only a debug one, fails its untouched initial project: an agent that
    # changes nothing (the idle agent) fails it
    initial = runs["initial"][Clock.REAL]
    assert initial.error is None, initial.summary_line()
    assert not initial.success and initial.passed_tests < initial.total_tests
