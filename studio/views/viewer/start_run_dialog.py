"""Choose the agent, the mode and how the live run starts (paused, delay between actions)."""

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

from studio.models.agent import Mode

AGENT_CHOICES = (
    ("oracle", "Oracle: rebuilds the golden program (upper bound)"),
    ("random", "Random: random valid actions (a floor)"),
    ("idle", "Idle: says done at once"),
)


@dataclass
class RunChoice:
    agent: str
    mode: Mode
    paused: bool
    seed: int


class StartRunDialog(QDialog):
    def __init__(self, task_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Start agent run")
        self.agent = QComboBox(self)
        for name, text in AGENT_CHOICES:
            self.agent.addItem(text, name)
        self.mode = QComboBox(self)
        self.mode.addItem("Composite (block operations on a text view)", Mode.COMPOSITE.value)
        self.mode.addItem("Primitive (mouse and keys on screenshots)", Mode.PRIMITIVE.value)
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
        form.addRow("Seed (random agent)", self.seed)
        form.addRow(self.paused)
        form.addRow(buttons)

    def choice(self) -> RunChoice:
        return RunChoice(
            agent=str(self.agent.currentData()),
            mode=Mode(str(self.mode.currentData())),
            paused=self.paused.isChecked(),
            seed=self.seed.value(),
        )
