"""Text written by hand for each bundled task (tests/fixtures/blocktext/TASK.txt), built into
the task's initial project with the real scratchblocks parser, passes the task's own script
in the real editor VM; the initial project it started from does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.services.core.blocktext.project_text import build_into
from studio.services.core.store import load_task

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ROOT / "tests" / "fixtures" / "blocktext"
TASKS = sorted(p.stem for p in TEXTS.glob("*.txt"))


def test_there_is_hand_written_text_for_every_bundled_task() -> None:
    assert sorted(p.name for p in (ROOT / "tasks").iterdir() if p.is_dir()) == TASKS


@pytest.mark.parametrize("name", TASKS)
def test_hand_written_text_passes_the_task(name: str, evaluate_all) -> None:  # type: ignore[no-untyped-def]
    entry = load_task(ROOT / "tasks" / name)
    initial = entry.initial_path.read_bytes()
    text = (TEXTS / f"{name}.txt").read_text("utf-8")
    built = build_into(initial, str(entry.initial_path), text, source=f"{name}.txt")
    from_text, before = evaluate_all([(entry, built.data, {}), (entry, initial, {})])
    assert from_text.error is None, from_text.error
    assert from_text.success, [d for d in from_text.details if not d.passed]
    assert before.error is None and not before.success
