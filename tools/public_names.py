"""Propose or write the `__all__` list of the studio's public modules.

    .venv/bin/python tools/public_names.py            # print the modules whose list would change
    .venv/bin/python tools/public_names.py --write    # write the lists (then `ruff format`)

A module's public names are what it defines at its top level without a leading underscore
(functions, classes, constants; a module logger and type variables excepted), plus the names
it imports that another module of studio/, tests/, bench/ or tools/ imports from it
(re-exports, as a package's `__init__` makes). Submodules are not listed: `from package
import module` needs no `__all__`. A module that has a list keeps the names in it that it still
defines or imports. The modules are those under studio/services, studio/models and studio/app.
Review the lists: a name listed only because it is defined may be an internal helper that
should take an underscore instead.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("studio/services", "studio/models", "studio/app")
IMPORTERS = ("studio", "tests", "bench", "tools")
LINE = 100


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_from(roots: tuple[str, ...] = IMPORTERS) -> dict[str, set[str]]:
    """Module -> the names other modules import from it with `from studio.x import name`."""
    found: dict[str, set[str]] = defaultdict(set)
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            me = module_name(path)
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.ImportFrom)
                    and node.level == 0
                    and node.module
                    and node.module.startswith("studio")
                    and node.module != me
                ):
                    found[node.module].update(a.name for a in node.names if a.name != "*")
    return found


def _top_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If):
            out += _top_statements(node.body) + _top_statements(node.orelse)
        elif isinstance(node, ast.Try):
            out += _top_statements(node.body) + _top_statements(node.orelse)
            for handler in node.handlers:
                out += _top_statements(handler.body)
    return out


def _is_helper(value: ast.expr | None) -> bool:
    """A module logger or a type variable: not part of what the module offers."""
    calls = ("logging.getLogger", "TypeVar", "ParamSpec")
    return isinstance(value, ast.Call) and ast.unparse(value.func) in calls


def defined_and_imported(tree: ast.Module) -> tuple[list[str], set[str], list[str] | None]:
    """Public names the module defines (in order), the names it imports, its `__all__`."""
    defined: list[str] = []
    imported: set[str] = set()
    current: list[str] | None = None
    for node in _top_statements(tree.body):
        names: list[str] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and not _is_helper(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                elts = target.elts if isinstance(target, ast.Tuple) else [target]
                names += [e.id for e in elts if isinstance(e, ast.Name)]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        if "__all__" in names and isinstance(node, ast.Assign | ast.AnnAssign):
            value = node.value
            if isinstance(value, ast.List | ast.Tuple):
                current = [e.value for e in value.elts if isinstance(e, ast.Constant)]
            names.remove("__all__")
        defined += [n for n in names if not n.startswith("_") and n not in defined]
    return defined, imported, current


def proposed(path: Path, wanted: set[str]) -> tuple[list[str], list[str] | None]:
    """The module's proposed `__all__` and the one it has (None when it has none)."""
    tree = ast.parse(path.read_text())
    defined, imported, current = defined_and_imported(tree)
    package = module_name(path)
    submodules = {n for n in wanted if module_path(f"{package}.{n}") is not None}
    names = set(defined) | ((wanted - submodules) & (imported | set(defined)))
    if current is not None:
        names |= set(current) & (imported | set(defined))
    return ordered(names), current


def ordered(names: set[str]) -> list[str]:
    """Constants, then classes, then the rest, each alphabetical (ruff's RUF022 order)."""

    def kind(name: str) -> int:
        if name.upper() == name and len(name) > 1:
            return 0
        return 1 if name[0].isupper() else 2

    return sorted(names, key=lambda n: (kind(n), n))


def render(names: list[str]) -> str:
    """One line when it fits, else lines packed to 100 columns, kept as written (fmt: skip)."""
    if not names:
        return "__all__: list[str] = []\n"
    quoted = [f'"{n}"' for n in names]
    one = "__all__ = [" + ", ".join(quoted) + "]"
    if len(one) <= LINE:
        return one + "\n"
    lines, line = ["__all__ = ["], "   "
    for item in quoted:
        if len(line) + len(item) + 2 > LINE:
            lines.append(line)
            line = "   "
        line += f" {item},"
    lines += [line, "]  # fmt: skip"]
    return "\n".join(lines) + "\n"


def write(path: Path, names: list[str], has_list: bool) -> None:
    """Replace the module's list, or put one after the imports at its top."""
    text = path.read_text()
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    if has_list:
        node = next(
            n
            for n in tree.body
            if isinstance(n, ast.Assign | ast.AnnAssign)
            and "__all__" in ast.unparse(n.targets[0] if isinstance(n, ast.Assign) else n.target)
        )
        start, end = node.lineno - 1, node.end_lineno or node.lineno
        lines[start:end] = [render(names)]
    else:
        after = 0
        for node in tree.body:
            head = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            guarded = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            if head or guarded or isinstance(node, ast.Import | ast.ImportFrom):
                after = node.end_lineno or node.lineno
            else:
                break
        block = ["\n", render(names)] if after else [render(names)]
        if after < len(lines) and lines[after].strip():
            block.append("\n")
        lines[after:after] = block
    path.write_text("".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the lists")
    args = parser.parse_args(argv)
    wanted = imported_from()
    changed = 0
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            names, current = proposed(path, wanted.get(module_name(path), set()))
            if current is not None and current == names:
                continue
            changed += 1
            print(f"{path.relative_to(ROOT)}: {', '.join(names) or '(none)'}")
            if args.write:
                write(path, names, current is not None)
    print(f"{changed} modules {'written' if args.write else 'to change'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
