"""Propose tests from the Script tab: the list with checkboxes, the chart, merging, undo.

The proposal itself is replaced by a report built from recorded traces (the browser path is
covered by tests/e2e/test_propose.py); everything the author sees and does is real.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.services.propose import codegen
from studio.services.propose.model import Recording
from studio.services.propose.pipeline import ProposalReport
from studio.services.propose.proposals import propose_tests
from studio.services.propose.scenarios import Scenario
from studio.services.propose.selection import select
from studio.views.authoring import propose_controller
from studio.views.authoring.propose_controller import ProposeController
from studio.views.authoring.propose_dialog import ProposeDialog
from studio.views.authoring.script_editor import ScriptEditor
from studio.views.authoring.trace_chart import TraceChart

FLAG = Scenario("flag", "after the green flag", [{"at": 0, "do": "flag", "arg": ""}], 2000)
AUTHOR = """const EU = EvaluationUtils;
module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  { name: 'mine', run: async () => {} },
], { cleanup });
"""


def _report() -> ProposalReport:
    xs = [(0, -100.0)] + [(100 * (i + 1), -100.0 + 15 * (i + 1)) for i in range(10)]
    walk = Recording(
        changes={"Cat.x": xs, "Cat.costume": [(0, "a"), (500, "b"), (1000, "a")]},
        end={"Cat.x": 50.0, "Cat.costume": "a"},
        says=[(1100, "Cat", "done")],
    )
    idle = Recording(
        changes={"Cat.x": [(0, -100.0)], "Cat.costume": [(0, "a")]},
        end={"Cat.x": -100.0, "Cat.costume": "a"},
    )
    candidates = propose_tests([FLAG], [{"flag": walk}, {"flag": walk}], {"flag": idle})
    everyone = {p.words: True for p in candidates}
    end = next(p.words for p in candidates if p.kind == "end" and p.key == "Cat.x")
    says = next(p.words for p in candidates if p.kind == "says")
    mutants = {"m1": {**everyone, end: False}, "m2": {**everyone, says: False}}
    selection = select(candidates, [everyone], {**everyone, end: False}, mutants)
    script = codegen.whole_script("walk", selection.kept, [FLAG])
    return ProposalReport("walk", "create", [FLAG], candidates, selection, True, script)


class _Current:
    entry = object()
    read_only = False

    def has_unsaved(self) -> bool:
        return False


class _Authoring:
    current = _Current()


@pytest.fixture
def controller(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> ProposeController:
    async def fake_propose(evaluator: Any, entry: Any, options: Any, progress: Any) -> Any:
        progress(1, 2, "recording the golden program")
        return _report()

    async def evaluator() -> Any:
        return None

    monkeypatch.setattr(propose_controller, "propose", fake_propose)
    script = ScriptEditor()
    qtbot.addWidget(script)
    script.set_text(AUTHOR)
    return ProposeController(script, _Authoring(), script, evaluator)  # type: ignore[arg-type]


def test_proposed_tests_are_listed_charted_and_merged_with_one_undo(
    qtbot: Any, controller: ProposeController, tmp_path: Path
) -> None:
    dialog = ProposeDialog()
    qtbot.addWidget(dialog)
    controller.dialog = dialog
    dialog.merge_requested.connect(controller.merge)
    report = asyncio.run(controller.run())
    assert report is not None and len(report.kept) == 2
    assert dialog.tests.count() == 2
    rows = [dialog.tests.item(i).text() for i in range(2)]
    assert "the Cat's x ends at 50" in rows[0] and "kills 1 mutant, fails the initial" in rows[0]
    assert "the Cat says done" in rows[1]
    assert dialog.chart.points == report.kept[0].excerpt  # the first test is shown
    dialog.tests.setCurrentRow(1)
    assert dialog.chart.points == [(1100, "done")]
    assert "Every mutant is killed" in dialog.summary.text()
    dialog.grab().save(str(tmp_path / "dialog.png"))  # paints the chart without error

    dialog.tests.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert [p.words for p in dialog.checked()] == [report.kept[0].words]
    dialog.merge.click()
    script = controller.script
    merged = script.text()
    assert "{ name: 'mine'" in merged and codegen.SPREAD in merged
    assert "the Cat's x ends at 50" in merged and "the Cat says done" not in merged
    assert script.is_modified()
    script.edit.undo()
    assert script.text() == AUTHOR
    script.edit.redo()
    assert script.text() == merged


def test_a_task_that_cannot_be_proposed_says_why(
    qtbot: Any, controller: ProposeController, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.services.propose.model import ProposalError

    async def refuse(*_args: Any) -> Any:
        raise ProposalError("golden.sb3: the program reads the real time of day")

    monkeypatch.setattr(propose_controller, "propose", refuse)
    dialog = ProposeDialog()
    qtbot.addWidget(dialog)
    controller.dialog = dialog
    assert asyncio.run(controller.run()) is None
    assert "real time of day" in dialog.status.text()
    assert not dialog.merge.isEnabled()


def test_a_flat_trace_has_one_labelled_level_not_an_axis_from_a_value_to_itself(
    qtbot: Any,
) -> None:
    chart = TraceChart()
    qtbot.addWidget(chart)
    chart.show_points([(0, -100.0), (500, -100.0)], 1000, "Cat.x")
    heights, labels = chart.levels()
    assert heights == [0.5, 0.5]
    assert [text for text in labels if text] == ["-100"]


def test_survivors_are_named_by_their_sprite_and_change(qtbot: Any) -> None:
    report = _report()
    report.selection.survivors = ["m7"]
    report.mutant_words = {"m7": "Cat: swap_operator: changed + to - in change x by"}
    dialog = ProposeDialog()
    qtbot.addWidget(dialog)
    dialog.show_report(report)
    assert "Survivor: Cat: swap_operator: changed + to - in change x by (m7)" in (
        dialog.summary.text()
    )
