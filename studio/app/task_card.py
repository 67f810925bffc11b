"""What the window's task card shows of a task's programs: the golden's changes as pictures.

`golden_changes(entry)` reads the task's initial and golden projects and draws the golden's
changed scripts over the initial, target by target, with the scratchblocks package
(`services.core.blocktext.changed.changed_pictures`: a golden script the initial lacks is
changed; an initial script the golden lacks is removed). It returns the reason instead when
there is nothing to draw from: no golden project, or a project that cannot be read. A renderer
that cannot run (no Node) raises SetupError, which the card shows.
"""

from __future__ import annotations

from studio.models.errors import StudioError
from studio.services.core.blocktext.changed import ChangedPictures, changed_pictures
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder

__all__ = ["ChangedPictures", "golden_changes"]


def golden_changes(entry: TaskFolder) -> list[ChangedPictures] | str:
    """The golden's changed scripts drawn (see the module doc), or why there are none."""
    golden_path = entry.golden_path
    if golden_path is None or not golden_path.is_file():
        return "The task has no golden project yet."
    try:
        _data, golden = load_sb3(golden_path)
        _data, initial = load_sb3(entry.initial_path)
    except (OSError, StudioError) as exc:
        return f"The projects cannot be read: {exc}"
    return changed_pictures(initial, golden)
