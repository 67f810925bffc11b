"""What an evaluation page may say, and what of it the studio keeps.

A script's console output is bounded twice. In the page (resources/js/eval-runner.js, limits
given by PAGE_LIMITS) every console method counts against one budget of calls and characters
once the script runs, and long string arguments are cut, so a flood never leaves the page.
Here `ConsoleLog` keeps at most MAX_CONSOLE_LINES lines of at most MAX_CONSOLE_LINE_CHARS
characters, MAX_CONSOLE_CHARS in all; once full it stops listening, so that whatever still
arrives (a worker's console, which the page's budget does not see) is not even read; long
lines count in full towards MAX_RECEIVED_CHARS, so a worker printing megabytes is cut off after
a few. The last line then says how many
lines were not kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "MAX_CONSOLE_CHARS", "MAX_CONSOLE_LINES", "MAX_CONSOLE_LINE_CHARS", "MAX_MESSAGE_CHARS",
    "MAX_RECEIVED_CHARS", "MAX_RESULT_CHARS", "PAGE_LIMITS", "ConsoleLog", "clean_console_text",
    "cut",
]  # fmt: skip

MAX_CONSOLE_LINES = 500  # console output kept per evaluation: lines,
MAX_CONSOLE_LINE_CHARS = 2_000  # characters of one line,
MAX_CONSOLE_CHARS = 100_000  # and characters in all;
MAX_RECEIVED_CHARS = 2_000_000  # characters read before the log stops listening, kept or not
MAX_RESULT_CHARS = 4_000_000  # the script's result, as JSON, measured in the page
MAX_MESSAGE_CHARS = 4_000  # an error message or stack from the page

# The page's own budget (eval-runner.js LIMITS): it forwards a little more than is kept here,
# so that the VM's lines before the script starts do not crowd out the script's own.
PAGE_LIMITS = {
    "consoleCalls": 2_000,
    "consoleArgChars": MAX_CONSOLE_LINE_CHARS,
    "consoleChars": 2 * MAX_CONSOLE_CHARS,
    "resultChars": MAX_RESULT_CHARS,
    "messageChars": MAX_MESSAGE_CHARS,
}


class ConsoleLog:
    """The console output kept of one evaluation, bounded in lines and characters."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.chars = 0
        self.dropped = 0
        self.full = False
        self.received = 0  # characters read
        self.on_full: Callable[[], None] | None = None  # called once, when nothing more fits

    def add(self, kind: str, raw: str) -> None:
        if self.full:
            self.dropped += 1
            return
        self.received += len(raw)
        text = clean_console_text(raw)
        if not text:
            return
        if len(text) > MAX_CONSOLE_LINE_CHARS:
            text = text[:MAX_CONSOLE_LINE_CHARS] + f"… ({len(text)} characters)"
        line = f"[{kind}] {text}"
        if (
            len(self.lines) >= MAX_CONSOLE_LINES
            or self.chars + len(line) > MAX_CONSOLE_CHARS
            or self.received > MAX_RECEIVED_CHARS
        ):
            self.dropped += 1
            self.full = True
            if self.on_full is not None:
                self.on_full()
            return
        self.chars += len(line)
        self.lines.append(line)

    def close(self, page_stats: Any = None) -> None:
        """Add the line that says what was not kept; `page_stats` is the page's count of the
        script's console calls ({calls, forwarded}), which includes those never forwarded."""
        if isinstance(page_stats, dict):
            calls, forwarded = page_stats.get("calls"), page_stats.get("forwarded")
            if isinstance(calls, int) and isinstance(forwarded, int) and calls > forwarded:
                self.dropped += calls - forwarded
        if self.dropped:
            count = f"at least {self.dropped}" if self.full else str(self.dropped)
            self.lines.append(f"[studio] {count} more console lines were not kept")
            self.dropped = 0


_STYLE_ARG = re.compile(r"\s+(?:color|font-weight|background)[^%]*$")


def clean_console_text(text: str) -> str:
    """Drop the browser's GL chatter and the VM logger's %c styling from a console line."""
    if "GL Driver Message" in text:
        return ""
    if "%c" in text:
        text = _STYLE_ARG.sub("", text.replace("%c", ""))
    return text.strip()


def cut(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """`text`, cut to `limit` characters with a marker that says how long it was."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"
