"""A fake page that answers `studio.services.runtime.page_scripts` as a real page would.

`ScriptHost` keeps the scripts installed in it by global name and version (a `reload()`
forgets them, as a page that loads again does), counts every evaluation of a script's source
in `installs`, and hands each call of a held script's function to `answer(name, function,
args)`, which a fake overrides; bridge calls reach `answer("studioBridge", ...)`. A call of a
script the page does not hold gets the page's "missing" reply, so the caller's reinstall runs.
"""

from __future__ import annotations

from typing import Any

from studio.services.runtime import page_scripts


class ScriptHost:
    """The page side of page_scripts; subclasses answer the calls."""

    def __init__(self) -> None:
        self.held: dict[str, str] = {}
        self.installs: list[str] = []

    def reload(self) -> None:
        self.held.clear()

    async def evaluate(self, expression: str, arg: Any = None) -> Any:
        if expression == page_scripts.HELD_JS:
            return [name for name, version in arg if self.held.get(name) != version]
        if expression == page_scripts.INSTALL_JS:
            for name, version, source in arg:
                assert f"window.{name} =" in source, f"{name}: the source defines no such global"
                self.held[name] = version
                self.installs.append(name)
            return True
        if expression == page_scripts.CALL_JS:
            name, version, function, args = arg
            if self.held.get(name) != version:
                return page_scripts.MISSING
            return await self.answer(name, function, args)
        if expression == page_scripts.BRIDGE_JS:
            function, args = arg
            return await self.answer("studioBridge", function, args)
        raise AssertionError(f"unexpected script {expression[:60]!r}")

    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        raise AssertionError(f"unexpected call {name}.{function}({args})")
