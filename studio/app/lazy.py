"""Names an app module hands on from the services, imported when first used.

The front ends import what they use of the services from `studio.app` modules. Importing a
service module can be heavy (the browser driver, the HTTP stack, the evaluator), and the command
line parses its arguments before it knows which of them a command needs: `studio run` must start
playing without importing the checker or the HTTP client. So an app module lists its names as a
table `{name: (service module, attribute)}` and sets `__getattr__ = exports(__name__, table)`
(PEP 562): the service module is imported the first time one of its names is read, and the
value is then kept in the app module. A type checker sees the same names through the module's
`if TYPE_CHECKING:` imports.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["exports"]


def exports(module: str, table: Mapping[str, tuple[str, str]]) -> Callable[[str], Any]:
    """A module `__getattr__` for `module` that imports the names of `table` on first use."""

    def get(name: str) -> Any:
        try:
            source, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
        owner = importlib.import_module(source)
        try:
            value = getattr(owner, attribute)
        except AttributeError:  # a submodule not imported yet
            value = importlib.import_module(f"{source}.{attribute}")
        setattr(sys.modules[module], name, value)
        return value

    return get
