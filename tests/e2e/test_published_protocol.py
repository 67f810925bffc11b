"""The studio's verdicts equal the published protocol's.

`PublishedProtocol` evaluates as the published ScratchWorld service does (a live editor page in
small stage mode, real time, config {}, one 120 s cap). A task under the published convention
gets the same per-test verdicts from the studio's own page on the virtual clock, including
where the protocol's small stage makes sprite clicks posted in full-stage coordinates miss.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.models.evaluation import Clock
from studio.services.core.store import load_task
from studio.services.formats.scratchworld.published_protocol import PublishedProtocol
from studio.services.runtime.clock_agreement import verdicts
from studio.services.runtime.evaluator import Evaluator

pytestmark = pytest.mark.browser
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def _published_copy(task_id: str, dest: Path) -> Path:
    shutil.copytree(TASKS / task_id, dest)
    data = json.loads((dest / "task.json").read_text())
    data["evaluation"]["convention"] = "scratchworld"
    (dest / "task.json").write_text(json.dumps(data))
    return dest


def test_studio_page_gives_the_published_protocols_verdicts(
    tmp_path: Path,
    loop_thread,
    browser_pool,  # type: ignore[no-untyped-def]
) -> None:
    entry = load_task(_published_copy("create_button_click", tmp_path / "t"))
    reference = loop_thread.run(PublishedProtocol(browser_pool).evaluate(entry))
    ours = loop_thread.run(Evaluator(browser_pool).evaluate(entry, clock=Clock.VIRTUAL))
    assert reference.error is None and ours.error is None, (reference.error, ours.error)
    assert verdicts(ours) == verdicts(reference)
    # the small stage of the published runner: clicks posted for a 480x360 stage miss
    passed = {d.name: d.passed for d in reference.details}
    assert passed["the green flag shows the up costume"]
    assert not passed["clicking the Button says Hello!"]
