"""Names to things, for the studio's extension points (agents, episode modes, benchmark formats,
report metrics): a new one is a module and one line, and every list of names comes from here.

A `Registry` of one kind (its `kind` names it in messages: "agent", "episode mode", ...) maps
names to entries in the order they were added. An entry is added either

- by a deferred import, `registry.add(NAME, "package.module:attribute", help)`: the module is
  imported the first time `get(NAME)` is asked for, so a registry of the whole studio imports
  nothing heavy (`studio run --help` lists the agents without loading one), or
- by a decorator on the thing itself, `@registry.register(NAME, help)` (the module that holds
  it is then already imported).

Each entry has a one-line `help` (what a command's help text and the window's menus show) and
`traits`, words a front end filters by (the window offers only the agents that need no file,
for example). Names are plain (letters, digits, `-`, `_`, `.`), unique within a registry.

A registry is a container of its names (`in`, iteration, `len`), so it serves as the
`choices` of a command-line flag as it is; `describe()` gives the help lines. `get` of a name
that is not there raises `UnknownNameError` naming the kind, the name and the choices; a
deferred import that fails raises `RegistryError` naming the entry and its target (a module
that moved is caught by a test that resolves every entry).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from studio.models.errors import StudioError

__all__ = ["Entry", "Registry", "RegistryError", "UnknownNameError"]

T = TypeVar("T")

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class RegistryError(StudioError):
    """A registration that cannot be made (a bad or taken name, a malformed target), or a
    deferred import that fails; the message names the registry's kind, the name and why."""


class UnknownNameError(RegistryError, ValueError):
    """A name asked for that is not registered; `name`, `kind` and `choices` say which."""

    def __init__(self, kind: str, name: str, choices: Iterable[str]) -> None:
        self.kind, self.name, self.choices = kind, name, tuple(choices)
        listed = ", ".join(self.choices) or "none registered"
        super().__init__(f"unknown {kind} {name!r} (one of {listed})")


@dataclass(frozen=True)
class Entry:
    """One registered name: its help line, its traits, and where the thing is (`target`,
    "package.module:attribute", for a deferred import; None when it was given itself)."""

    name: str
    help: str
    target: str | None = None
    traits: frozenset[str] = frozenset()


class Registry(Generic[T]):
    """Names of one kind of extension to the things they name, imported on first use."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry] = {}
        self._loaded: dict[str, T] = {}

    # ---- adding ---------------------------------------------------------------------------
    def add(self, name: str, target: str | T, help: str, *, traits: Iterable[str] = ()) -> None:
        """Register `target` under `name`: a "package.module:attribute" string (imported on
        first use) or the thing itself. RegistryError for a bad or taken name or target."""
        if not isinstance(name, str) or not _NAME.match(name):
            raise RegistryError(f"{self.kind} name {name!r}: use letters, digits, '-', '_', '.'")
        if name in self._entries:
            where = self._entries[name].target or "given directly"
            raise RegistryError(f"{self.kind} {name!r} is registered already ({where})")
        if not help.strip() or "\n" in help.strip():
            raise RegistryError(f"{self.kind} {name!r}: the help must be one line of text")
        deferred = isinstance(target, str)
        if deferred and not _TARGET.match(cast(str, target)):
            raise RegistryError(
                f"{self.kind} {name!r}: target {target!r} is not 'package.module:attribute'"
            )
        self._entries[name] = Entry(
            name, help.strip(), cast(str, target) if deferred else None, frozenset(traits)
        )
        if not deferred:
            self._loaded[name] = cast(T, target)

    def register(self, name: str, help: str, *, traits: Iterable[str] = ()) -> Callable[[T], T]:
        """A decorator: `@registry.register(NAME, help)` registers what it decorates."""

        def decorate(thing: T) -> T:
            self.add(name, thing, help, traits=traits)
            return thing

        return decorate

    def remove(self, name: str) -> None:
        """Forget `name` (a test's toy entry); UnknownNameError when it is not there."""
        self.entry(name)
        del self._entries[name]
        self._loaded.pop(name, None)

    # ---- reading --------------------------------------------------------------------------
    def names(self) -> tuple[str, ...]:
        """The registered names, in the order they were added."""
        return tuple(self._entries)

    def entries(self) -> tuple[Entry, ...]:
        """The entries, in the order they were added."""
        return tuple(self._entries.values())

    def entry(self, name: str) -> Entry:
        """The entry of `name`; UnknownNameError naming the choices when there is none."""
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, self._entries) from None

    def help(self, name: str) -> str:
        """The one-line help of `name`."""
        return self.entry(name).help

    def with_trait(self, trait: str, present: bool = True) -> tuple[str, ...]:
        """The names whose entries have `trait` (or, with `present=False`, have it not)."""
        return tuple(n for n, e in self._entries.items() if (trait in e.traits) == present)

    def describe(self, names: Iterable[str] | None = None, sep: str = "; ") -> str:
        """'NAME: help' for each of `names` (default: all), joined by `sep`."""
        chosen = self.names() if names is None else tuple(names)
        return sep.join(f"{n}: {self.help(n)}" for n in chosen)

    def get(self, name: str) -> T:
        """What `name` names, its module imported the first time; UnknownNameError for a name
        not registered, RegistryError when the deferred import fails."""
        entry = self.entry(name)
        if name not in self._loaded:
            self._loaded[name] = cast(T, _resolve(self.kind, entry))
        return self._loaded[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}: {', '.join(self._entries)})"


def _resolve(kind: str, entry: Entry) -> Any:
    """Import the module of a deferred entry and read its attribute (dotted: nested)."""
    assert entry.target is not None
    module_name, _, path = entry.target.partition(":")
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(
            f"{kind} {entry.name!r}: cannot import {module_name} for {entry.target} ({exc})"
        ) from exc
    for part in path.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise RegistryError(
                f"{kind} {entry.name!r}: {module_name} has no {path!r} (target {entry.target})"
            ) from None
    return value
