"""Adversarial checks of tasks: golden must pass, initial and mutants must fail, repeatedly.

`checker` judges tasks; `mutant_trials` runs golden, initial and mutants under one gate and
classifies mutants; `mutation` makes them (Whisker's operators, ScratchEval's bug patterns).
"""

__all__: list[str] = []
