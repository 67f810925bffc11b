"""The forge's options as the *Forge debug tasks* dialog sets them: those of `studio forge`.

Two rows. The first: reruns R (`--reruns`), bugs kept per golden N (`--per-golden`),
candidates tried per golden K (`--tries`), θ_pass (`--theta-pass`: the share of the golden's
runs that must pass), θ_fail (`--theta-fail`: the share of the bugged program's runs that may
pass), the base seed (`--seed`: rerun i uses seed + i) and whether tests are derived from
behaviour where the golden's own script misses a bug (`--no-derive` unticked). The second: one
box per mechanism wanted (`--mechanism`, all eight ticked to start with), in the order of
`models.forge.MECHANISMS`.

`chosen(base)` is `base` (a ForgeOptions) with what the author set; `problem()` names what
stops a forge (no mechanism ticked, θ_fail not below θ_pass) or is None; `set_enabled` fixes
the options while a forge runs. `changed` is emitted on any edit.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.models.forge import MECHANISMS
from studio.services.forge.pipeline import ForgeOptions

__all__ = ["MAX_SEED", "ForgeOptionsForm", "mechanism_label"]

MAX_SEED = 2**31 - 1


def mechanism_label(name: str) -> str:
    """`missing_initialization` -> `missing initialization`."""
    return name.replace("_", " ")


class ForgeOptionsForm(QWidget):
    """R, N, K, θ_pass, θ_fail, seed, derived tests, and the mechanisms wanted."""

    changed = Signal()

    def __init__(self, options: ForgeOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        o = options
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        self.reruns = self._spin(top, "Reruns R", o.reruns, 1, 1000, "Seeded runs per program")
        self.per_golden = self._spin(
            top, "Bugs per golden N", o.per_golden, 1, 1000, "Kept at most"
        )
        self.tries = self._spin(top, "Tries K", o.tries, 1, 1000, "Candidates tried per golden")
        self.theta_pass = self._share(
            top, "θ pass", o.theta_pass, "The golden must pass in at least this share of its runs"
        )
        self.theta_fail = self._share(
            top, "θ fail", o.theta_fail, "The bugged program may pass in at most this share"
        )
        self.seed = self._spin(top, "Seed", o.seed, 0, MAX_SEED, "Base seed: rerun i uses seed + i")
        self.derive = QCheckBox("Derive tests where the script misses a bug", self)
        self.derive.setChecked(o.derive)
        self.derive.toggled.connect(self.changed)
        top.addWidget(self.derive)
        top.addStretch(1)
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel("Mechanisms wanted:", self), 0, 0)
        wanted = set(o.mechanisms)
        self.mechanisms: dict[str, QCheckBox] = {}
        for i, name in enumerate(MECHANISMS):
            box = QCheckBox(mechanism_label(name), self)
            box.setChecked(name in wanted)
            box.setToolTip(f"Forge bugs of the mechanism {name}")
            box.toggled.connect(self.changed)
            grid.addWidget(box, i // 4, 1 + i % 4)
            self.mechanisms[name] = box
        grid.setColumnStretch(5, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(grid)

    def _spin(
        self, row: QHBoxLayout, label: str, value: int, low: int, high: int, tip: str
    ) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setToolTip(tip)
        spin.valueChanged.connect(self.changed)
        row.addWidget(QLabel(label, self))
        row.addWidget(spin)
        return spin

    def _share(self, row: QHBoxLayout, label: str, value: float, tip: str) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(self)
        spin.setRange(0.0, 1.0)
        spin.setDecimals(2)
        spin.setSingleStep(0.05)
        spin.setValue(value)
        spin.setToolTip(tip)
        spin.valueChanged.connect(self.changed)
        row.addWidget(QLabel(label, self))
        row.addWidget(spin)
        return spin

    def wanted(self) -> list[str]:
        """The mechanisms ticked, in the order of MECHANISMS."""
        return [name for name, box in self.mechanisms.items() if box.isChecked()]

    def problem(self) -> str | None:
        """What stops a forge with these options, or None."""
        if not self.wanted():
            return "Tick at least one mechanism to forge."
        if self.theta_fail.value() >= self.theta_pass.value():
            return (
                f"θ fail ({self.theta_fail.value():.2f}) must be below θ pass "
                f"({self.theta_pass.value():.2f}): a bug must fail where the golden passes."
            )
        return None

    def chosen(self, base: ForgeOptions) -> ForgeOptions:
        """`base` with the options as the author set them."""
        return replace(
            base,
            reruns=self.reruns.value(),
            per_golden=self.per_golden.value(),
            tries=self.tries.value(),
            theta_pass=self.theta_pass.value(),
            theta_fail=self.theta_fail.value(),
            seed=self.seed.value(),
            derive=self.derive.isChecked(),
            mechanisms=self.wanted(),
        )

    def set_enabled(self, enabled: bool) -> None:
        for widget in (
            self.reruns,
            self.per_golden,
            self.tries,
            self.theta_pass,
            self.theta_fail,
            self.seed,
            self.derive,
            *self.mechanisms.values(),
        ):
            widget.setEnabled(enabled)
