"""What a studio module offers is what it lists in `__all__`, and nothing private crosses modules.

Read from the source alone (AST, no import): every module under studio/services, studio/app and
studio/models defines `__all__` as a literal list; a name that another module (of studio/,
tests/, bench/ or tools/) imports with `from studio.x import name` is in `x.__all__` when x has
one (a submodule imported from its package needs no entry); no module of studio/ imports an
underscored name of another (`from studio.x import _name`) or reaches one through a module it
imported (`module._name`). tools/public_names.py proposes the lists.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LISTED = ("studio/services", "studio/models", "studio/app")
IMPORTERS = ("studio", "tests", "bench", "tools")


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _path(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def _all(path: Path) -> list[str] | None:
    """The module's `__all__` when it is a literal list or tuple of strings, else None."""
    for node in _tree(path).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and target.id == "__all__":
            value = getattr(node, "value", None)
            if isinstance(value, ast.List | ast.Tuple):
                names = [e.value for e in value.elts if isinstance(e, ast.Constant)]
                return names if len(names) == len(value.elts) else None
    return None


def _imports(roots: tuple[str, ...]) -> Iterator[tuple[Path, int, str, str]]:
    """(file, line, module, name) of every `from studio.x import name` into another module."""
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            me = _name(path)
            for node in ast.walk(_tree(path)):
                if (
                    isinstance(node, ast.ImportFrom)
                    and node.level == 0
                    and (node.module or "").startswith("studio")
                    and node.module != me
                ):
                    for alias in node.names:
                        yield path, node.lineno, str(node.module), alias.name


def test_every_service_and_model_module_lists_its_public_names() -> None:
    missing = [
        str(path.relative_to(ROOT))
        for package in LISTED
        for path in sorted((ROOT / package).rglob("*.py"))
        if _all(path) is None
    ]
    assert not missing, "no literal __all__ (tools/public_names.py proposes one):\n" + "\n".join(
        missing
    )


def test_names_imported_from_a_module_are_in_its_all() -> None:
    unlisted = []
    for path, line, module, name in _imports(IMPORTERS):
        source = _path(module)
        listed = _all(source) if source else None
        if listed is None or name in listed or name == "*" or _path(f"{module}.{name}"):
            continue
        unlisted.append(f"{path.relative_to(ROOT)}:{line}: {name} is not in {module}.__all__")
    assert not unlisted, "\n".join(unlisted)


def test_no_private_name_crosses_modules_of_studio() -> None:
    crossing = [
        f"{path.relative_to(ROOT)}:{line}: from {module} import {name}"
        for path, line, module, name in _imports(("studio",))
        if name.startswith("_") and not name.startswith("__")
    ]
    for path in sorted((ROOT / "studio").rglob("*.py")):
        modules = set()  # local names bound to studio modules
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.startswith("studio"):
                    modules |= {
                        a.asname or a.name for a in node.names if _path(f"{node.module}.{a.name}")
                    }
            elif isinstance(node, ast.Import):
                modules |= {
                    a.asname for a in node.names if a.asname and a.name.startswith("studio")
                }
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                crossing.append(f"{where}: {node.value.id}.{node.attr}")
    assert not crossing, "private names used across modules:\n" + "\n".join(crossing)
