"""*Forge debug tasks…* in the window: candidates listed as validated, kept, edited, dropped.

The forge is the real one (`studio.app.forging` over `services.forge.pipeline`, reruns 2, one
golden) over the evaluator of tests/unit/test_forge.py, which judges a project by a rule
instead of a browser (the browser path is tests/e2e/test_forge_e2e.py); the dialog, the
staging folder and the library are real.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio.app import forging
from studio.models.forge import MECHANISMS
from studio.models.task import ReviewState
from studio.services.core.store import load_task, scan_library
from studio.services.forge.pipeline import ForgeOptions
from studio.views.forge.controller import ForgeController
from studio.views.forge.dialog import DROPPED, KEPT, PENDING, reruns_text
from studio.views.library.panel import LibraryPanel
from tests.helpers.tasks import make_task
from tests.unit.test_forge import FakeEvaluator, cat_rule


def _controller(qtbot: Any, library: Path, evaluator: Any) -> ForgeController:
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)

    async def ready() -> Any:
        return evaluator

    controller = ForgeController(parent, lambda: library, ready)
    controller.options = ForgeOptions(reruns=2, per_golden=3, derive=False)
    return controller


def test_candidates_are_listed_as_validated_and_kept_edited_or_dropped_by_the_author(
    qtbot: Any, tmp_path: Path
) -> None:
    golden = load_task(make_task(tmp_path / "golden"))
    library = tmp_path / "library"
    controller = _controller(qtbot, library, FakeEvaluator(cat_rule))
    controller.options = ForgeOptions()  # the dialog starts on the command's defaults
    dialog = controller.open_dialog()
    dialog.start_requested.connect(lambda options: controller.begin([golden], options))
    dialog.show()
    assert (dialog.reruns.value(), dialog.tries.value(), dialog.derive.isChecked()) == (5, 20, True)
    assert not dialog.running and dialog.cancel.text() == "Close"

    async def forge() -> Any:
        dialog.reruns.setValue(2)
        dialog.derive.setChecked(False)
        dialog.start.click()
        assert controller._running is not None and dialog.cancel.text() == "Cancel"
        assert not dialog.reruns.isEnabled()
        return await controller._running

    outcomes = asyncio.run(forge())
    assert controller.options.reruns == 2 and not controller.options.derive
    assert outcomes is not None and outcomes[0].kept == 2, outcomes
    assert [r.state for r in dialog.rows] == [PENDING, PENDING]
    assert all(r.verdict.reruns == (False, False) for r in dialog.rows)
    assert all("reruns ✗✗ (own tests)" in t for t in dialog.row_texts())
    assert dialog.progress.value() == dialog.progress.maximum() == 1
    assert "Done: 2 debug task(s) forged from 1 golden" in dialog.status.text()
    assert dialog.cancel.text() == "Close"
    # nothing is in the library before the author keeps it
    assert scan_library(library).tasks == []
    first, second = (r.verdict.task_id for r in dialog.rows)
    # the first row shows the diff golden -> bug and the forged instruction, editable
    assert dialog.diff.titles == ("golden", "bug")
    assert "block edit" in dialog.diff.summary_text(), dialog.diff.summary_text()
    assert "Bug report. Symptom:" in dialog.instruction.toPlainText()
    dialog.instruction.setPlainText("Fix the cat: it should walk once from the start.")
    dialog.keep.click()
    kept = load_task(library / first)
    assert kept.task.instruction == "Fix the cat: it should walk once from the start."
    assert kept.task.review.state is ReviewState.DRAFT and (library / first / "bug.json").is_file()
    assert dialog.rows[0].state == KEPT and not dialog.keep.isEnabled()
    dialog.candidates.setCurrentRow(1)
    assert dialog.keep.isEnabled()
    dialog.drop.click()
    assert dialog.rows[1].state == DROPPED and not (library / second).exists()
    assert [e.task.id for e in scan_library(library).tasks] == [first]
    staging = controller.staging
    assert staging is not None and staging.is_dir()
    dialog.close()
    assert not staging.exists()  # what was neither kept nor dropped goes with the dialog


def test_a_rejected_candidate_says_why_and_cannot_be_kept(qtbot: Any, tmp_path: Path) -> None:
    def misses_duplicates(project: dict[str, Any], seed: int) -> dict[str, bool]:
        return {"starts at 0": cat_rule(project, seed)["starts at 0"]}

    golden = load_task(make_task(tmp_path / "golden"))
    controller = _controller(qtbot, tmp_path / "library", FakeEvaluator(misses_duplicates))
    dialog = controller.open_dialog()
    asyncio.run(controller.run([golden]))
    states = sorted(r.state for r in dialog.rows)
    assert states == [PENDING, "rejected: not caught by the tests"], states
    rejected = next(i for i, r in enumerate(dialog.rows) if r.state != PENDING)
    dialog.candidates.setCurrentRow(rejected)
    assert not dialog.keep.isEnabled() and not dialog.drop.isEnabled()
    assert dialog.instruction.isReadOnly()
    assert "Not a task: rejected: not caught by the tests" in dialog.instruction.toPlainText()
    assert reruns_text(dialog.rows[rejected].verdict.reruns) == "✓✓"


def test_cancel_stops_the_forge_and_leaves_only_whole_tasks(qtbot: Any, tmp_path: Path) -> None:
    class Blocking(FakeEvaluator):
        def __init__(self) -> None:
            super().__init__(cat_rule)
            self.started = asyncio.Event()

        async def evaluate(self, *args: Any, **kw: Any) -> Any:
            self.started.set()
            await asyncio.Event().wait()  # never answers: only a cancel ends it

    golden = load_task(make_task(tmp_path / "golden"))
    library = tmp_path / "library"

    async def main() -> Any:
        evaluator = Blocking()
        controller = _controller(qtbot, library, evaluator)
        dialog = controller.open_dialog()
        controller._running = asyncio.ensure_future(controller.run([golden]))
        await evaluator.started.wait()
        dialog.cancel.click()
        return dialog, controller, await controller._running

    dialog, controller, result = asyncio.run(main())
    assert result is None and "Stopped" in dialog.status.text()
    assert scan_library(library).tasks == []
    dialog.close()
    assert controller.staging is None and not any(library.iterdir())


def test_the_library_menu_offers_the_forge_on_a_task_and_on_the_library(
    qtbot: Any, tmp_path: Path
) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    entry = load_task(make_task(tmp_path / "golden"))
    asked: list[Any] = []
    panel.forge_requested.connect(asked.append)
    actions = {a.text(): a for a in panel.context_menu(entry).actions()}
    actions["Forge debug tasks from cat_walks…"].trigger()
    actions["Forge debug tasks from the library…"].trigger()
    assert asked == [entry, None]
    names = [a.text() for a in panel.context_menu(None).actions()]
    assert "Forge debug tasks from the library…" in names


def test_a_path_without_a_golden_is_named_before_anything_runs(tmp_path: Path) -> None:
    from studio.models.errors import StudioError

    with pytest.raises(StudioError, match="no task with a golden project"):
        forging.goldens_in([tmp_path])


def test_a_bug_kept_in_the_library_is_not_forged_again(qtbot: Any, tmp_path: Path) -> None:
    golden = load_task(make_task(tmp_path / "golden"))
    library = tmp_path / "library"
    controller = _controller(qtbot, library, FakeEvaluator(cat_rule))
    dialog = controller.open_dialog()
    asyncio.run(controller.run([golden]))
    first = dialog.rows[0].verdict.task_id
    dialog.keep.click()
    dialog.close()
    again = controller.open_dialog()
    outcomes = asyncio.run(controller.run([golden]))
    assert outcomes is not None and outcomes[0].kept_before == 1 and outcomes[0].kept == 1
    assert first not in [r.verdict.task_id for r in again.rows]
    assert "(1 already in the library, not forged again)" in again.status.text()


def test_theta_seed_and_mechanisms_set_in_the_dialog_reach_the_forge(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """θ_pass, θ_fail, the seed and the mechanisms wanted go from the dialog through
    `forging.forge_all` to the forge: only the mechanism ticked is forged, each rerun uses
    seed + i, and a bug the golden's runs tell apart only under the θ set is kept."""
    golden = load_task(make_task(tmp_path / "golden"))
    library = tmp_path / "library"
    seeds: list[int] = []

    def rule(project: dict[str, Any], seed: int) -> dict[str, bool]:
        seeds.append(seed)
        v = cat_rule(project, seed)
        return {k: ok or seed % 5 == 0 for k, ok in v.items()}  # bugs pass 1 run in 5

    controller = _controller(qtbot, library, FakeEvaluator(rule))
    controller.options = ForgeOptions()
    heard: list[ForgeOptions] = []
    real = forging.forge_all

    async def spy(evaluator: Any, goldens: Any, lib: Path, options: ForgeOptions, *a: Any) -> Any:
        heard.append(options)
        return await real(evaluator, goldens, lib, options, *a)

    monkeypatch.setattr(forging, "forge_all", spy)
    dialog = controller.open_dialog()
    dialog.start_requested.connect(lambda options: controller.begin([golden], options))
    dialog.show()
    form = dialog.form
    assert (form.theta_pass.value(), form.theta_fail.value(), form.seed.value()) == (0.9, 0.1, 0)
    assert form.wanted() == list(MECHANISMS)
    # what cannot forge: Forge stays disabled and the status says why
    form.theta_fail.setValue(0.9)
    assert not dialog.start.isEnabled() and "must be below θ pass" in dialog.status.text()
    form.theta_fail.setValue(0.2)
    for box in form.mechanisms.values():
        box.setChecked(False)
    assert not dialog.start.isEnabled() and "Tick at least one mechanism" in dialog.status.text()
    form.mechanisms["missing_initialization"].setChecked(True)
    assert dialog.start.isEnabled()
    dialog.reruns.setValue(5)
    dialog.derive.setChecked(False)
    form.seed.setValue(40)

    async def forge() -> Any:
        dialog.start.click()
        assert (
            not form.theta_pass.isEnabled() and not form.mechanisms["desynchronization"].isEnabled()
        )
        return await controller._running

    outcomes = asyncio.run(forge())
    (options,) = heard
    assert (options.theta_pass, options.theta_fail, options.seed) == (0.9, 0.2, 40)
    assert options.mechanisms == ["missing_initialization"] and controller.options == options
    assert outcomes is not None
    (outcome,) = outcomes
    # θ_fail 0.2 keeps the MIR bug passing 1 run in 5; EHC is not a mechanism wanted
    assert outcome.kept == 1 and outcome.rejected == {"mechanism not wanted": 1}, outcome
    (record,) = outcome.records.values()
    assert record.mechanism == "missing_initialization" and record.bugged_pass_rate == 0.2
    assert sorted(set(seeds)) == list(range(40, 50))  # seeds 40-44, then fresh 45-49
    dialog.close()


def test_a_library_read_again_loses_the_staging_folder_a_killed_forge_left(
    qtbot: Any, tmp_path: Path
) -> None:
    import json
    import socket
    import subprocess

    from PySide6.QtCore import QObject, Signal

    from studio.services.forge.staging import OWNER_FILE, PREFIX, claim

    class Window(QObject):
        library_loaded = Signal(int, int)

    library = tmp_path / "library"
    gone, live = library / f"{PREFIX}gone", library / f"{PREFIX}live"
    for folder in (gone, live):
        folder.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()  # a process of this host that no longer runs
    owner = {"pid": dead.pid, "host": socket.gethostname(), "started": None}
    (gone / OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")
    claim(live)  # this process: a forge still running
    window = Window()
    controller = _controller(qtbot, library, FakeEvaluator(cat_rule))
    window.library_loaded.connect(controller.clean_stale_staging)
    window.library_loaded.emit(1, 0)
    assert not gone.exists() and live.exists()
