"""The model-facing bug report of a forged bug: what the failing tests observed, never the
mechanism, the site or the fix (ScratchEval's symptom, expected behaviour and trigger).

- symptom: the first failing test and the message a bugged run gave for it;
- expected: that test (and the other failing ones) should hold;
- trigger: do what that test does and watch the sprite of the bug, with the events that start
  the bugged script (`mechanisms.triggers_of`) in words, else the script's hat in words.
"""

from __future__ import annotations

from studio.models.forge import BugReport, FailingTest
from studio.models.mutation import Mutant
from studio.services.forge import mechanisms

__all__ = ["bug_report"]


def bug_report(golden: dict, mutant: Mutant, failing: list[FailingTest]) -> BugReport:
    """The report of `mutant` of the golden project `golden`, caught by `failing` (not empty)."""
    triggers = mechanisms.triggers_of(golden, mutant.sprite, mutant.block_id)
    hat = mechanisms.script_words(golden, mutant.sprite, mutant.block_id)
    first = failing[0]
    symptom = f"the check '{first.name}' fails"
    symptom += f": {first.message}" if first.message else "."
    others = [f.name for f in failing[1:]]
    expected = (
        f"'{first.name}' should hold"
        + (f", as should {', '.join(repr(o) for o in others)}" if others else "")
        + "."
    )
    owner = "the Stage" if mutant.sprite == "Stage" else mutant.sprite
    trigger = f"do what the check '{first.name}' does and watch {owner}"
    trigger += (
        f" ({mechanisms.trigger_words(triggers)})" if triggers else (f" ({hat})" if hat else "")
    )
    return BugReport(symptom=symptom, expected=expected, trigger=trigger, triggers=triggers)
