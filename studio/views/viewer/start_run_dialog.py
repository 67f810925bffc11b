"""Choose the agent, the mode, the protocol and how the live run starts (paused, delay between
actions).

The agents and modes offered come from the registries (`studio.app.extensions`): the episode
agents that need nothing given, every episode mode, each shown with its help line. The agent,
the mode and "start paused" chosen last are chosen again the next time (kept in the settings
file); the seed is asked only of agents that use one (trait `seeded`: the random agent). The
protocol (studio.models.protocols, as `studio run --protocol`) and its feedback turns (0: none)
go with the run: studio.app.live_protocol resolves and records them."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from studio.app.extensions import EPISODE_AGENTS, MODES, window_agents
from studio.models.agent import Mode
from studio.models.protocols import DEFAULT_PROTOCOL, MAX_FEEDBACK_TURNS, PROTOCOLS
from studio.views.widgets.settings import open_settings


@dataclass
class RunChoice:
    agent: str
    mode: Mode
    paused: bool
    seed: int
    protocol: str = DEFAULT_PROTOCOL
    feedback_turns: int = 0


class StartRunDialog(QDialog):
    def __init__(self, task_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Start agent run")
        self.agent = QComboBox(self)
        for name in window_agents():
            self.agent.addItem(f"{name.capitalize()}: {EPISODE_AGENTS.help(name)}", name)
        self.mode = QComboBox(self)
        for name in MODES:
            self.mode.addItem(f"{name.capitalize()} ({MODES.help(name)})", name)
        self.protocol = QComboBox(self)
        for spec in PROTOCOLS.values():
            self.protocol.addItem(f"{spec.name} ({spec.title})", spec.name)
        self.protocol.setCurrentIndex(self.protocol.findData(DEFAULT_PROTOCOL))
        self.feedback = QSpinBox(self)
        self.feedback.setRange(0, MAX_FEEDBACK_TURNS)
        self.feedback.setSpecialValueText("none")
        self.feedback.setToolTip("Mid-episode evaluations the agent may ask for (recorded)")
        self.paused = QCheckBox("Start paused (step with F10, resume with F8)", self)
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 1_000_000)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(QLabel(f"Task: <b>{task_id}</b> (its initial project is loaded)", self))
        form.addRow("Agent", self.agent)
        form.addRow("Mode", self.mode)
        form.addRow("Protocol", self.protocol)
        form.addRow("Feedback turns", self.feedback)
        form.addRow("Seed (random agent)", self.seed)
        form.addRow(self.paused)
        form.addRow(buttons)
        self._recall()
        self.agent.currentIndexChanged.connect(self._on_agent)
        self.accepted.connect(self._remember)
        self._on_agent()

    def _on_agent(self, _index: int = 0) -> None:
        seeded = str(self.agent.currentData()) in EPISODE_AGENTS.with_trait("seeded")
        self.seed.setEnabled(seeded)
        self.seed.setToolTip("" if seeded else "This agent does not use a seed")

    def _recall(self) -> None:
        settings = open_settings()
        pairs = (
            (self.agent, "run/agent"),
            (self.mode, "run/mode"),
            (self.protocol, "run/protocol"),
        )
        for combo, key in pairs:
            index = combo.findData(str(settings.value(key, "")))
            if index >= 0:
                combo.setCurrentIndex(index)
        self.paused.setChecked(str(settings.value("run/paused", "false")) == "true")

    def _remember(self) -> None:
        settings = open_settings()
        settings.setValue("run/agent", str(self.agent.currentData()))
        settings.setValue("run/mode", str(self.mode.currentData()))
        settings.setValue("run/protocol", str(self.protocol.currentData()))
        settings.setValue("run/paused", "true" if self.paused.isChecked() else "false")
        settings.sync()

    def choice(self) -> RunChoice:
        return RunChoice(
            agent=str(self.agent.currentData()),
            mode=Mode(str(self.mode.currentData())),
            paused=self.paused.isChecked(),
            seed=self.seed.value(),
            protocol=str(self.protocol.currentData()),
            feedback_turns=self.feedback.value(),
        )
