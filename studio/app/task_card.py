"""What the window's task card shows of a task's programs: the golden's changes as pictures.

`golden_changes(entry)` reads the task's initial and golden projects and draws the golden's
changed scripts over the initial, target by target, with the scratchblocks package
(`services.core.blocktext.changed.changed_pictures`: a golden script the initial lacks is
changed; an initial script the golden lacks is removed). It returns the reason instead when
there is nothing to draw from: no golden project, or a project that cannot be read. A renderer
that cannot run (no Node) raises SetupError, which the card shows.
"""

from __future__ import annotations

from studio.services.core.blocktext.changed import (
    ChangedPictures,
    changed_pictures,
    task_projects,
)
from studio.services.core.store import TaskFolder

__all__ = ["ChangedPictures", "golden_changes"]


def golden_changes(entry: TaskFolder) -> list[ChangedPictures] | str:
    """The golden's changed scripts drawn (see the module doc), or why there are none."""
    projects = task_projects(entry)
    if isinstance(projects, str):
        return f"{projects[0].upper()}{projects[1:]}."
    return changed_pictures(*projects)
