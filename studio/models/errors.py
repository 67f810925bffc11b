"""The root of the studio's exception tree, and the errors the models raise themselves.

Every error the studio raises for a user to read derives from `StudioError` (the rest of the
tree is `services.core.errors` and the packages' own errors). Its message is fit to show.
"""

from __future__ import annotations

__all__ = ["ReviewError", "StudioError"]


class StudioError(Exception):
    """Base class of the studio's own errors: a message fit to show a user."""


class ReviewError(StudioError):
    """A review step that is not allowed (tasks and diagnostic items alike): the current state
    forbids it, or what the step needs first is missing (who reviews, a comment, an item's
    regions or answer, a task without lint errors). The message says which and what to do."""
