"""Reading block text: the scratchblocks parse mapped to Scratch 3 blocks, each with its line.

`read_text(text)` parses the text with the scratchblocks package and maps every block to its
opcode and named arguments (`TextBlock`), custom blocks to their proccode and arguments, and
variable, list and argument reporters to `Ref`s. The parser keeps no line numbers; the walk
below gives each block its line by following the parser's own rule (one block a line, blank
lines skipped, `else` between two mouths and `end` after the last consumed by the C-block).
Every line that cannot be placed is a `Problem` (its line number and what was expected):
unknown blocks, an `end` or `else` that closes nothing, a reporter where a stack block goes,
slots that do not fit, too long lines, too deep nesting. Nothing is built by this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from studio.services.core.blocktext.dialect import (
    KINDS,
    MENU_IN,
    OPCODES,
    field_in,
    slots,
)
from studio.services.core.blocktext.scratchblocks import parse_texts
from studio.services.core.errors import cut
from studio.services.core.projectbuild.spec import BOOL, FIELD, LIST, MSG, VAR

__all__ = [
    "MAX_DEPTH", "MAX_LINE", "MAX_TEXT", "Problem", "Proc", "Ref", "TextBlock", "TextScript",
    "read_text", "read_texts",
]  # fmt: skip

MAX_LINE = 10_000  # characters of one line
MAX_TEXT = 2_000_000  # characters of one text
MAX_DEPTH = 60  # blocks nested in blocks (C-blocks and reporters together)
_END = re.compile(r"[+-]?\s*end\s*(//.*)?")
_ELSE = re.compile(r"[+-]?\s*else\s*(//.*)?")
_NAMED_MENUS = frozenset({"COSTUME", "BACKDROP", "SOUND_MENU"})  # names, never special values


@dataclass(frozen=True)
class Problem:
    """A line of the text that cannot be placed, and why."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class Ref:
    """A variable, list or custom-block argument reporter, by name."""

    kind: str  # "var", "list", "arg" (a custom block's argument)
    name: str
    boolean: bool = False


@dataclass
class Proc:
    """A custom block: its proccode (`jump %s %b`) and argument names (define) or values (call)."""

    proccode: str
    names: list[str] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)


@dataclass
class TextBlock:
    """One block read from text: opcode, arguments by input/field name, mouths, its line."""

    opcode: str
    line: int
    args: dict[str, Any] = field(default_factory=dict)
    mouths: list[list[TextBlock]] = field(default_factory=list)
    proc: Proc | None = None


@dataclass
class TextScript:
    """A script: its blocks in order (a loose reporter is a script of one `TextBlock` or Ref)."""

    line: int
    blocks: list[TextBlock | Ref]


def _labels(node: dict[str, Any]) -> str:
    return " ".join(str(c["value"]) for c in node["children"] if c["kind"] == "label")


def _source(lines: list[str], line: int) -> str:
    return cut(lines[line - 1].strip(), 80) if 0 < line <= len(lines) else ""


class _Walk:
    """Maps one parsed document to TextScripts, consuming lines as the parser did."""

    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = lines
        self.items = [n for n, text in enumerate(lines, 1) if text.strip()]
        self.pos = 0
        self.offset = first_line - 1
        self.problems: list[Problem] = []
        self.defines: dict[str, Proc] = {}

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(line + self.offset, message))

    def take(self) -> int:
        if self.pos >= len(self.items):
            return self.items[-1] if self.items else 1
        self.pos += 1
        return self.items[self.pos - 1]

    def peek(self, pattern: re.Pattern[str]) -> bool:
        if self.pos >= len(self.items):
            return False
        return bool(pattern.fullmatch(self.lines[self.items[self.pos] - 1].strip()))

    def alone(self, line: int) -> bool:
        """A line with blank lines (or the text's ends) above and below it."""
        above = line < 2 or not self.lines[line - 2].strip()
        return above and (line >= len(self.lines) or not self.lines[line].strip())

    def scripts(self, doc: list[list[dict[str, Any]]]) -> list[TextScript]:
        for script in doc:  # first the defines, so calls anywhere find them
            for node in script:
                if node.get("kind") == "block" and node.get("id") == "PROCEDURES_DEFINITION":
                    proc = self.define(node)
                    self.defines.setdefault(_skeleton(proc.proccode), proc)
        out = []
        for script in doc:
            items: list[TextBlock | Ref] = []
            first = 0
            for node in script:
                line = self.take()
                first = first or line
                item = self.stack_item(node, line, alone=len(script) == 1)
                if item is not None:
                    items.append(item)
            if items:
                out.append(TextScript(first + self.offset, items))
        return out

    def stack_item(self, node: dict[str, Any], line: int, alone: bool) -> TextBlock | Ref | None:
        if node.get("kind") == "comment":
            return None
        if node.get("kind") != "block":
            self.problem(line, f"cannot read {_source(self.lines, line)!r}")
            return None
        shape = str(node.get("shape") or "")
        if shape in ("reporter", "boolean") and not (alone and self.alone(line)):
            self.problem(
                line,
                f"a reporter ({_source(self.lines, line)}) stands where a stack block goes "
                "(expected a stack block; a loose reporter needs blank lines around it)",
            )
            return None
        return self.block(node, line, 0)

    def block(self, node: dict[str, Any], line: int, depth: int) -> TextBlock | Ref | None:
        if depth > MAX_DEPTH:
            self.problem(line, f"blocks nest more than {MAX_DEPTH} deep")
            return None
        sid, selector = node.get("id"), node.get("selector")
        plain = sid is None and node.get("shape") == "reporter"  # `(name :: list)` and the like
        if selector == "readVariable" or (plain and node.get("category") == "variables"):
            return Ref("var", _labels(node))
        if selector == "contentsOfList:" or (plain and node.get("category") == "list"):
            return Ref("list", _labels(node))
        if selector == "getParam":
            return Ref("arg", _labels(node), node.get("shape") == "boolean")
        if sid in ("scratchblocks:end", "CONTROL_ELSE", "scratchblocks:else"):
            word = "end" if sid == "scratchblocks:end" else "else"
            self.problem(line, f"`{word}` closes no C-block (expected a block or a blank line)")
            return None
        if sid == "PROCEDURES_DEFINITION":
            return TextBlock("procedures_definition", line + self.offset, proc=self.define(node))
        if sid == "PROCEDURES_CALL":
            return self.call(node, line, depth)
        opcode = OPCODES.get(str(sid)) if sid else None
        mouths = [c for c in node["children"] if c["kind"] == "script"]
        if opcode == "control_if" and len(mouths) == 2:
            opcode = "control_if_else"
        if opcode is None:
            self.problem(line, f"unknown block {_source(self.lines, line)!r}")
            self.skip_mouths(mouths)
            return None
        if len(mouths) > (2 if opcode == "control_if_else" else 1) or (
            mouths and "SUBSTACK" not in KINDS.get(opcode, {})
        ):
            self.problem(line, f"`else` after a block that is not `if` ({opcode})")
        out = TextBlock(opcode, line + self.offset)
        self.arguments(out, node, line, depth)
        for index, mouth in enumerate(mouths):
            if index:
                self.take()  # the `else` line
            stack: list[TextBlock] = []
            for child in mouth["blocks"]:
                cline = self.take()
                item = self.stack_item(child, cline, alone=False)
                if isinstance(item, TextBlock):
                    stack.append(item)
            out.mouths.append(stack)
        if mouths and self.peek(_END):
            self.take()
        return out

    def skip_mouths(self, mouths: list[dict[str, Any]]) -> None:
        for index, mouth in enumerate(mouths):
            if index:
                self.take()
            for child in mouth["blocks"]:
                self.take()
                self.skip_mouths([c for c in child.get("children", []) if c["kind"] == "script"])
        if mouths and self.peek(_END):
            self.take()

    def arguments(self, out: TextBlock, node: dict[str, Any], line: int, depth: int) -> None:
        names = slots(out.opcode)
        given = [c for c in node["children"] if c["kind"] in ("input", "block")]
        if len(given) != len(names):
            count = f"{len(names)} inputs, the line gives {len(given)}"
            self.problem(line, f"{out.opcode} takes {count}")
            return
        kinds = KINDS[out.opcode]
        for name, child in zip(names, given, strict=True):
            kind = kinds[name]
            if child["kind"] == "block":
                value = self.block(child, line, depth + 1)
                if kind in (FIELD, VAR, LIST, MSG) and value is not None:
                    self.problem(line, f"{out.opcode}: a reporter cannot go in the {name} menu")
                out.args[name] = value
                continue
            text = str(child.get("value") or "")
            if kind == BOOL:
                out.args[name] = None
            elif kind == FIELD:
                out.args[name] = field_in(name, text)
            elif isinstance(kind, tuple) and name not in _NAMED_MENUS:
                out.args[name] = MENU_IN.get(text, text)
            else:
                out.args[name] = text

    def define(self, node: dict[str, Any]) -> Proc:
        outline = next((c for c in node["children"] if c.get("shape") == "outline"), None)
        parts, names = [], []
        for child in outline["children"] if outline else []:
            if child["kind"] == "label":
                parts.append(str(child["value"]))
            elif child["kind"] == "block":
                parts.append("%b" if child.get("shape") == "boolean" else "%s")
                names.append(_labels(child))
        return Proc(" ".join(parts), names)

    def call(self, node: dict[str, Any], line: int, depth: int) -> TextBlock | None:
        parts: list[str] = []
        values: list[Any] = []
        for child in node["children"]:
            if child["kind"] == "label":
                parts.append(str(child["value"]))
            elif child["kind"] == "input":
                parts.append("%b" if child.get("shape") == "boolean" else "%s")
                values.append(None if child.get("shape") == "boolean" else str(child["value"]))
            elif child["kind"] == "block":
                parts.append("%b" if child.get("shape") == "boolean" else "%s")
                values.append(self.block(child, line, depth + 1))
        define = self.defines.get(_skeleton(" ".join(parts)))
        if define is None:
            self.problem(line, f"the custom block {' '.join(parts)!r} has no `define` here")
            return None
        return TextBlock(
            "procedures_call", line + self.offset, proc=Proc(define.proccode, [], values)
        )


def _skeleton(proccode: str) -> str:
    return re.sub(r"%[snb]", "%", proccode)


def _too_big(text: str, first_line: int) -> list[Problem]:
    if len(text) > MAX_TEXT:
        return [Problem(first_line, f"the text has {len(text)} characters, more than {MAX_TEXT}")]
    return [
        Problem(n, f"the line has {len(line)} characters, more than the {MAX_LINE} allowed")
        for n, line in enumerate(text.split("\n"), first_line)
        if len(line) > MAX_LINE
    ]


def read_texts(texts: list[tuple[str, int]]) -> list[tuple[list[TextScript], list[Problem]]]:
    """Read several texts in one parser run; each with the line number of its first line."""
    checked = [_too_big(text, first) for text, first in texts]
    wanted = [
        text for (text, _), bad in zip(texts, checked, strict=True) if text.strip() and not bad
    ]
    parsed = iter(parse_texts(wanted))  # blank texts need no parser run: no scripts
    docs = [
        next(parsed) if text.strip() and not bad else {"scripts": []}
        for (text, _), bad in zip(texts, checked, strict=True)
    ]
    out: list[tuple[list[TextScript], list[Problem]]] = []
    for (text, first), bad, doc in zip(texts, checked, docs, strict=True):
        if bad:
            out.append(([], bad))
            continue
        if "error" in doc:
            message = f"the text cannot be parsed: {cut(doc['error'], 200)}"
            out.append(([], [Problem(first, message)]))
            continue
        walk = _Walk(text.split("\n"), first)
        try:
            scripts = walk.scripts(doc["scripts"])
        except RecursionError:
            out.append(([], [Problem(first, f"blocks nest more than {MAX_DEPTH} deep")]))
            continue
        out.append((scripts, sorted(set(walk.problems), key=lambda p: p.line)))
    return out


def read_text(text: str, first_line: int = 1) -> tuple[list[TextScript], list[Problem]]:
    """The scripts of one text and the problems of its lines (see the module doc)."""
    return read_texts([(text, first_line)])[0]
