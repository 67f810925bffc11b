"""The task card in the library's details: the golden's changed scripts drawn as blocks (the
real renderer) under the task's description, their text one tick away, a task without a
golden said so, and an answer for a task no longer selected dropped."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from studio.services.core.blocktext.changed import changed_scripts
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import load_task
from studio.views.library.task_details import TaskDetails

TASKS = Path(__file__).resolve().parents[3] / "tasks"


def test_the_card_draws_what_the_golden_changes(qtbot: Any) -> None:
    details = TaskDetails()
    qtbot.addWidget(details)
    entry = load_task(TASKS / "debug_game_over")
    details.show_task(entry)
    card = details.pictures
    qtbot.waitUntil(lambda: card.changes is not None, timeout=60_000)
    expected = changed_scripts(
        load_sb3(entry.initial_path)[1], load_sb3(TASKS / "debug_game_over" / "golden.sb3")[1]
    )
    assert [c.name for c in card.changes or []] == [t.name for t in expected]
    assert card.pane.pictures_shown == sum(len(t.changed) for t in expected) > 0
    assert card.stack.currentWidget() is card.pane
    card.as_text.setChecked(True)
    assert card.stack.currentWidget() is card.text
    assert all(text in card.text.toPlainText() for t in expected for text in t.changed)


def test_a_task_without_golden_and_a_stale_answer(qtbot: Any, tmp_path: Path) -> None:
    folder = shutil.copytree(TASKS / "create_cat_walk", tmp_path / "walk")
    (folder / "golden.sb3").unlink()
    task = json.loads((folder / "task.json").read_text())
    task["golden_project"] = None
    (folder / "task.json").write_text(json.dumps(task))
    details = TaskDetails()
    qtbot.addWidget(details)
    card = details.pictures
    details.show_task(load_task(TASKS / "debug_game_over"))
    first = card.drawer.worker
    details.show_task(load_task(folder))  # the first answer arrives for a task not shown
    qtbot.waitUntil(lambda: "no golden project" in card.text.toPlainText(), timeout=60_000)
    for worker in (first, card.drawer.worker):
        assert worker is not None
        worker.join(60)
    qtbot.wait(50)  # let any queued answer arrive: the stale one must not replace this
    assert card.changes is None and "no golden project" in card.text.toPlainText()
