"""The bug forge: validated debug tasks made from golden tasks (ScratchEval's Bug Forge).

- `mechanisms`: which of the eight mechanisms an operator's bug is; trigger names.
- `pipeline`: the inject-and-validate loop over one golden (`forge_golden`).
- `writer`: a forged task written whole into a library, with its `bug.json`.
"""

__all__: list[str] = []
