"""Block-level diffs and mutation testing for Scratch 3 projects (project.json dicts, no Qt).

- `diff_projects`, `distance`, `edit_distance`, `changed_block_ids`, `blocks_changed`,
  `block_types_used`: atomic block edits between two projects (ScratchEval's d_edit).
- `render_script`, `render_target`, `render_project`, `block_label`: readable pseudocode.
- `generate_mutants`, `mutant_sb3`, `OPERATORS`, `operator_catalog`: mutants of a golden
  project by Whisker's operators and ScratchEval's bug patterns.
"""

from studio.services.mutation.diff import (
    block_types_used,
    blocks_changed,
    changed_block_ids,
    changed_blocks_by_sprite,
    diff_projects,
    distance,
    edit_distance,
)
from studio.services.mutation.engine import (
    OPERATORS,
    generate_mutants,
    get_operator,
    mutant_sb3,
    operator_catalog,
)
from studio.services.mutation.operators import MutationOperator, Site
from studio.services.mutation.render import (
    block_label,
    render_project,
    render_script,
    render_target,
)

__all__ = [
    "OPERATORS",
    "MutationOperator",
    "Site",
    "block_label",
    "block_types_used",
    "blocks_changed",
    "changed_block_ids",
    "changed_blocks_by_sprite",
    "diff_projects",
    "distance",
    "edit_distance",
    "generate_mutants",
    "get_operator",
    "mutant_sb3",
    "operator_catalog",
    "render_project",
    "render_script",
    "render_target",
]
