"""The field's protocols: a task set's statistics as the ScratchWorld paper reports its own,
a campaign as a ScratchWorld leaderboard submission, and the drag benchmark's settings (GT
Start, Knowledge).

What the window and the command line use of the services, in one place; each service module
is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

if TYPE_CHECKING:
    from studio.services.authoring.set_stats import format_stats, set_stats
    from studio.services.formats.scratchworld.submission import (
        SubmissionError,
        read_submission,
        write_submission,
    )
    from studio.services.labeling.drag_settings import SettingsDragAgent
    from studio.services.labeling.drag_settings import (
        settings_problems as drag_settings_problems,
    )

__getattr__ = lazy.exports(
    __name__,
    {
        "SettingsDragAgent": ("studio.services.labeling.drag_settings", "SettingsDragAgent"),
        "SubmissionError": ("studio.services.formats.scratchworld.submission", "SubmissionError"),
        "drag_settings_problems": ("studio.services.labeling.drag_settings", "settings_problems"),
        "format_stats": ("studio.services.authoring.set_stats", "format_stats"),
        "read_submission": ("studio.services.formats.scratchworld.submission", "read_submission"),
        "set_stats": ("studio.services.authoring.set_stats", "set_stats"),
        "write_submission": ("studio.services.formats.scratchworld.submission", "write_submission"),
    },
)

__all__ = [
    "SettingsDragAgent",
    "SubmissionError",
    "drag_settings_problems",
    "format_stats",
    "read_submission",
    "set_stats",
    "write_submission",
]
