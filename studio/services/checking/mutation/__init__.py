"""Mutation testing for Scratch 3 projects (project.json dicts, no Qt).

- `generate_mutants`, `mutant_sb3`, `OPERATORS`, `operator_catalog`: mutants of a golden
  project by Whisker's operators and ScratchEval's bug patterns.

Block diffs and pseudocode, which mutation uses, are the core's (`core.diff`, `core.render`,
`core.blocks`).
"""

from studio.services.checking.mutation.engine import (
    OPERATORS,
    generate_mutants,
    get_operator,
    mutant_sb3,
    operator_catalog,
)
from studio.services.checking.mutation.operators import MutationOperator, Site

__all__ = [
    "OPERATORS",
    "MutationOperator",
    "Site",
    "generate_mutants",
    "get_operator",
    "mutant_sb3",
    "operator_catalog",
]
