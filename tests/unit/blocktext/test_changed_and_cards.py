"""What a golden changes, script by script (the task card's content), and the report's task
cards when the blocks cannot be drawn (no Node): the text stands in, and says why."""

from __future__ import annotations

from html import escape
from pathlib import Path

import pytest

from studio.services.core.blocktext.changed import changed_scripts
from studio.services.core.blocktext.project_text import build_project
from studio.services.core.paths import SetupError
from studio.services.core.sb3 import load_sb3, read_project_json
from studio.services.runs import task_cards
from tests.helpers.sample_task import write_sample_task
from tests.unit.trajectories.build import result, run_info, step, write_trajectory


def _project(text: str) -> dict:
    return read_project_json(build_project(text, "t", "Cat").data, "t")


def test_changes_are_counted_as_a_multiset_target_by_target() -> None:
    initial = _project("// sprite: Cat\nwhen @greenFlag clicked\nshow\n\n// sprite: Old\nhide\n")
    golden = _project(
        "// sprite: Cat\nwhen @greenFlag clicked\nshow\n\nwhen @greenFlag clicked\nshow\n\n"
        "when this sprite clicked\nsay [Hi]\n\n// sprite: New\nmove (10) steps\n"
    )
    changes = {c.name: c for c in changed_scripts(initial, golden)}
    assert sorted(changes) == ["Cat", "New", "Old"]  # the stage changed nothing
    assert changes["Cat"].changed == [
        "when @greenFlag clicked\nshow",  # a second copy of an unchanged script
        "when this sprite clicked\nsay [Hi]",
    ]
    assert changes["Cat"].removed == []
    assert changes["New"].changed == ["move (10) steps"]
    assert (changes["Old"].changed, changes["Old"].removed) == ([], ["hide"])
    assert [c.name for c in changed_scripts(None, golden)] == ["Cat", "New"]
    assert changed_scripts(golden, golden) == []


def test_cards_show_the_text_when_the_blocks_cannot_be_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_sample_task(tmp_path / "cat")
    run = run_info("cat-hello", agent="oracle", eval=result("cat-hello", {"t1": True}),
                   episode_id="oracle-cat", task_folder=str(folder))  # fmt: skip
    write_trajectory(tmp_path / "runs" / "oracle-primitive-1" / "cat-hello", [step(1, "done")],
                     run=run)  # fmt: skip

    def no_node(texts: list[str], scale: float = 1.0) -> list:
        raise SetupError("Node.js (`node`) is needed to draw block pictures; install nodejs")

    monkeypatch.setattr(task_cards, "render_svgs", no_node)
    page = task_cards.task_cards_html(tmp_path / "runs")
    assert '<section class="task-card" id="task-cat-hello">' in page
    assert "The blocks cannot be drawn here (Node.js" in page
    initial, golden = (load_sb3(folder / f"{n}.sb3")[1] for n in ("initial", "golden"))
    (cat,) = changed_scripts(initial, golden)
    assert cat.changed  # each changed script is shown as text in its place
    assert all(f"<pre>{escape(text)}</pre>" in page for text in cat.changed)
    (tmp_path / "no-runs").mkdir()
    assert task_cards.task_cards_html(tmp_path / "no-runs") == ""  # no task: no section
