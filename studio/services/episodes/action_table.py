"""The table a mode dispatches an action through: action kind -> typed handler.

A mode handler does not look its action functions up by name. It keeps an `ActionTable`: for
each action kind (`api`) of the mode in `studio.models.agent`, either an `ActionHandler` or
`ENDS_EPISODE` (`done`, `failed`: the episode ends itself, nothing happens on the page).

- `handles(args, run)` (an `ActionHandler`) ties the arguments model of the kind
  (`ClickArgs`, `DragArgs`, ...) to the coroutine function that performs it on an editor
  page, `run(mode, page, args) -> ActionOutcome`; mypy checks, where the table is built, that
  `run` takes that model. `perform` refuses arguments of another model (a `TypeError`: a bug
  in the table or the caller, never the agent's doing).
- `ActionTable.kinds` are the kinds the table answers; `ActionTable.check(kinds)` raises a
  `TypeError` naming every kind of `kinds` (the mode's kinds in the models) the table lacks
  and every kind it has beyond them, so a kind added to the models without a handler fails
  at import, not at an agent's first use of it.
- `ActionTable.perform(mode, page, kind, args)` runs the kind's handler and returns its
  outcome; `ends(kind)` says whether the kind ends the episode (`perform` then returns an
  empty `ActionOutcome`); a kind the table lacks is a `LookupError` (the episode validates
  actions first, with `parse_action`, whose error for an unknown kind is the one the agent
  sees).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from studio.services.episodes.modes import ActionOutcome
from studio.services.runtime.page_seam import EditorPage

__all__ = ["ENDS_EPISODE", "ActionHandler", "ActionTable", "handles"]

M = TypeVar("M")
A = TypeVar("A")
ENDS_EPISODE: Literal["ends the episode"] = "ends the episode"


@dataclass(frozen=True)
class ActionHandler(Generic[M, A]):
    """The handler of one action kind: its arguments model and the function that runs it."""

    args: type[A]
    run: Callable[[M, EditorPage, A], Awaitable[ActionOutcome]]


def handles(
    args: type[A], run: Callable[[M, EditorPage, A], Awaitable[ActionOutcome]]
) -> ActionHandler[M, Any]:
    """The table entry of a kind whose arguments are `args`: mypy checks here that `run`
    takes that model (an `ActionHandler(...)` written inside the table would be read with the
    table's `Any` and not checked)."""
    return ActionHandler(args, run)


class ActionTable(Generic[M]):
    """Action kind -> `ActionHandler` (or `ENDS_EPISODE`) for the mode handler type `M`."""

    def __init__(
        self, entries: Mapping[str, ActionHandler[M, Any] | Literal["ends the episode"]]
    ) -> None:
        self._entries = dict(entries)

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self._entries)

    def check(self, kinds: Iterable[str], mode: str) -> None:
        """TypeError unless the table has exactly `kinds` (the mode's kinds in the models)."""
        wanted = set(kinds)
        missing, extra = sorted(wanted - self.kinds), sorted(self.kinds - wanted)
        if missing or extra:
            raise TypeError(
                f"the {mode} action table does not match the models: "
                f"no handler for {missing or 'none'}; handlers of unknown kinds {extra or 'none'}"
            )

    def handler(self, kind: str) -> ActionHandler[M, Any] | None:
        """The handler of `kind`, None for a kind that ends the episode; LookupError for a
        kind the table does not have."""
        try:
            entry = self._entries[kind]
        except KeyError:
            raise LookupError(f"no action {kind!r} in this mode's table") from None
        return None if isinstance(entry, str) else entry

    def ends(self, kind: str) -> bool:
        """Whether `kind` ends the episode (nothing to do on the page)."""
        return self.handler(kind) is None

    async def perform(self, mode: M, page: EditorPage, kind: str, args: Any) -> ActionOutcome:
        """Run the handler of `kind` on `page` with `args`, an instance of its arguments model
        (an empty outcome for a kind that ends the episode)."""
        entry = self.handler(kind)
        if entry is None:
            return ActionOutcome()
        if not isinstance(args, entry.args):
            raise TypeError(
                f"action {kind!r}: arguments of type {type(args).__name__}, "
                f"the table's handler takes {entry.args.__name__}"
            )
        return await entry.run(mode, page, args)
