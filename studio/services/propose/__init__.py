"""Tests from behaviour: an evaluation script proposed by watching a task's programs run.

- `scenarios`: the inputs a program is driven with, from its event blocks.
- `trace`: running generated scripts (the recorder, the candidate tests) on the virtual clock.
- `model`: recordings read from the page, and proposals.
- `proposals`: candidate tests in plain words from the golden and initial recordings.
- `codegen`: the tests as JavaScript in the style of the bundled scripts; merging into a script.
- `selection`: the greedy cover of mutants and the initial program that keeps the tests.
- `pipeline`: `propose(evaluator, task)` from a task folder to a report and a script.
"""

__all__: list[str] = []
