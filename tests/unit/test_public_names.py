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


@cache
def _nodes(path: Path) -> tuple[list[ast.ImportFrom], list[ast.Import], list[ast.Attribute]]:
    """The file's `from x import`s, `import`s and `name._attr` reads, in one walk of its tree
    (each test asks for them: the walk, not the parse, is most of this file's cost)."""
    froms: list[ast.ImportFrom] = []
    imports: list[ast.Import] = []
    private: list[ast.Attribute] = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom):
            froms.append(node)
        elif isinstance(node, ast.Import):
            imports.append(node)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            private.append(node)
    return froms, imports, private


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
            for node in _nodes(path)[0]:
                if (
                    node.level == 0
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
        froms, imports, private = _nodes(path)
        modules = set()  # local names bound to studio modules
        for node in froms:
            if node.level == 0 and node.module and node.module.startswith("studio"):
                modules |= {
                    a.asname or a.name for a in node.names if _path(f"{node.module}.{a.name}")
                }
        for imported in imports:
            modules |= {
                a.asname for a in imported.names if a.asname and a.name.startswith("studio")
            }
        for attribute in private:
            assert isinstance(attribute.value, ast.Name)
            if attribute.value.id in modules:
                where = f"{path.relative_to(ROOT)}:{attribute.lineno}"
                crossing.append(f"{where}: {attribute.value.id}.{attribute.attr}")
    assert not crossing, "private names used across modules:\n" + "\n".join(crossing)
