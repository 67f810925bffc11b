"""Issue 31, point 9 in the window: the Run tab shows the studio's activity, the start dialog
remembers its choices and asks a seed only of the agent that uses one, and the live controls
stay in place after a run."""

from __future__ import annotations

from typing import Any

from studio.models.agent import Mode
from studio.services.episodes.live.controls import RunControls
from studio.views.viewer.run_panel import RunPanel
from studio.views.viewer.start_run_dialog import StartRunDialog
from tests.unit.views.test_run_viewer import _step


def test_the_run_tab_shows_what_the_studio_is_doing(qtbot: Any) -> None:
    panel = RunPanel()
    qtbot.addWidget(panel)
    controls = RunControls()
    panel.start_live("oracle on t", controls)
    controls.set_activity("evaluating the final project")
    assert panel.pending.text() == "evaluating the final project"
    controls.set_activity("waiting for oracle")
    assert panel.pending.text() == "waiting for oracle"
    assert "thinking" not in panel.pending.text()


def test_the_controls_stay_in_place_after_a_run(qtbot: Any) -> None:
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.start_live("oracle on t", RunControls())
    panel.add_step(_step(1))
    panel.end_live("Ended")
    assert panel.pause_button.isVisible() and not panel.pause_button.isEnabled()
    panel.show_steps("a recorded run", [_step(1), _step(2)])
    assert panel.stop_button.isVisible()


def test_the_start_dialog_remembers_the_mode_and_asks_a_seed_only_of_the_random_agent(
    qtbot: Any,
) -> None:
    dialog = StartRunDialog("t")
    qtbot.addWidget(dialog)
    dialog.agent.setCurrentIndex(dialog.agent.findData("oracle"))
    assert not dialog.seed.isEnabled()
    dialog.agent.setCurrentIndex(dialog.agent.findData("random"))
    assert dialog.seed.isEnabled()
    dialog.mode.setCurrentIndex(dialog.mode.findData(Mode.PRIMITIVE.value))
    dialog.accept()

    again = StartRunDialog("t")
    qtbot.addWidget(again)
    assert again.choice().mode is Mode.PRIMITIVE
    assert again.choice().agent == "random"


def test_every_agent_the_start_dialog_offers_is_made_by_the_use_case(tmp_path: Any) -> None:
    """The Run menu makes its agent with `studio.app.agents.episode_agents`, as `studio run`
    does: each agent the dialog offers is one it knows (an unknown name is an error there)."""
    from studio.app.agents import episode_agents, window_agents
    from studio.services.core.store import load_task
    from tests.helpers.tasks import make_task

    entry = load_task(make_task(tmp_path / "t"))
    for name in window_agents():  # what the dialog offers
        assert episode_agents(name, Mode.COMPOSITE, seed=3)(entry, 0).name == name
