"""Errors of the authoring services; each message says what is wrong and what to do.

A review step a task's state does not allow raises `studio.services.core.errors.ReviewError`, the
one review error of the studio (diagnostic items raise it too).
"""

from __future__ import annotations

from studio.models.errors import StudioError

__all__ = ["LibraryError", "RecoveryError"]


class LibraryError(StudioError):
    """A library operation that cannot be done: bad or taken id, missing project, trash."""


class RecoveryError(StudioError):
    """An autosave draft that cannot be stored under the given task id or file kind."""
