"""JavaScript syntax colours for evaluation scripts, readable on a light background.

A small scanner rather than a list of regular expressions, so that `//` inside a string is not a
comment and a quote inside a comment does not open a string. Block comments and template
literals may span lines; the block state carries them to the next line.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

KEYWORDS = frozenset(
    {
        "async",
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "let",
        "new",
        "null",
        "of",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "undefined",
        "var",
        "void",
        "while",
        "with",
        "yield",
    }
)
BUILTINS = frozenset(
    {
        "Array",
        "Boolean",
        "Date",
        "Error",
        "EvaluationUtils",
        "JSON",
        "Map",
        "Math",
        "Number",
        "Object",
        "Promise",
        "Set",
        "String",
        "cleanup",
        "config",
        "console",
        "exports",
        "module",
        "require",
        "setTimeout",
        "clearTimeout",
        "vm",
        "window",
    }
)
# Colours after IntelliJ's light theme: distinct hues, all dark enough on white.
COLORS = {
    "keyword": "#0033b3",
    "builtin": "#871094",
    "string": "#067d17",
    "comment": "#8c8c8c",
    "number": "#1750eb",
}

NORMAL, IN_COMMENT, IN_TEMPLATE = 0, 1, 2
_TOKEN = re.compile(
    r"""(?P<line_comment>//.*)
      | (?P<block_comment>/\*)
      | (?P<template>`)
      | (?P<string>'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)
      | (?P<number>\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+
                     |(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)n?\b)
      | (?P<word>[A-Za-z_$][\w$]*)
    """,
    re.VERBOSE,
)
_TEMPLATE_END = re.compile(r"(?:[^`\\]|\\.)*`")


def _format(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(QFont.Weight.DemiBold)
    fmt.setFontItalic(italic)
    return fmt


class JavaScriptHighlighter(QSyntaxHighlighter):
    """Colours keywords, well-known globals, strings, template literals, comments, numbers."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.formats = {
            "keyword": _format(COLORS["keyword"], bold=True),
            "builtin": _format(COLORS["builtin"]),
            "string": _format(COLORS["string"]),
            "comment": _format(COLORS["comment"], italic=True),
            "number": _format(COLORS["number"]),
        }

    def highlightBlock(self, text: str) -> None:
        self._set_state(NORMAL)
        pos = self._continue(text, self.previousBlockState())
        while pos < len(text):
            match = _TOKEN.search(text, pos)
            if match is None:
                return
            pos = self._token(text, match)

    def _set_state(self, state: int) -> None:
        # Only on change: each call of a void binding costs a reference to None with PySide6
        # 6.12 on CPython 3.11, and this runs for every line.
        if self.currentBlockState() != state:
            self.setCurrentBlockState(state)

    def _continue(self, text: str, state: int) -> int:
        """Finish a comment or template literal left open by the previous line."""
        if state == IN_COMMENT:
            return self._block_comment(text, 0, opening=False)
        if state == IN_TEMPLATE:
            return self._template(text, 0, opening=False)
        return 0

    def _token(self, text: str, match: re.Match[str]) -> int:
        kind = match.lastgroup or ""
        start, end = match.span()
        if kind == "block_comment":
            return self._block_comment(text, start)
        if kind == "template":
            return self._template(text, start)
        if kind == "line_comment":
            self.setFormat(start, end - start, self.formats["comment"])
        elif kind in ("string", "number"):
            self.setFormat(start, end - start, self.formats[kind])
        elif kind == "word" and match.group() in KEYWORDS:
            self.setFormat(start, end - start, self.formats["keyword"])
        elif kind == "word" and match.group() in BUILTINS:
            self.setFormat(start, end - start, self.formats["builtin"])
        return end

    def _block_comment(self, text: str, start: int, opening: bool = True) -> int:
        close = text.find("*/", start + 2 if opening else start)
        end = len(text) if close < 0 else close + 2
        self.setFormat(start, end - start, self.formats["comment"])
        self._set_state(IN_COMMENT if close < 0 else NORMAL)
        return end

    def _template(self, text: str, start: int, opening: bool = True) -> int:
        match = _TEMPLATE_END.match(text, start + 1 if opening else start)
        end = match.end() if match else len(text)
        self.setFormat(start, end - start, self.formats["string"])
        self._set_state(NORMAL if match else IN_TEMPLATE)
        return end
