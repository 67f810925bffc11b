"""Every test module that makes Qt widgets runs with the window tests (the Makefile's GUI_TESTS,
a pytest process of their own), never among the window-free tests that xdist shares out: Qt
objects left there meet pytest-qt's event processing in later tests and can crash a worker."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QT_USE = re.compile(
    r"\bqtbot\b|\bboot_window\b|mark\.gui\b|^\s*(from|import) PySide6|window_harness", re.M
)


def gui_tests() -> list[str]:
    """The paths GUI_TESTS lists in the Makefile."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^GUI_TESTS :=((?:.*\\\n)*.*)$", text, re.M)
    assert match, "the Makefile defines no GUI_TESTS"
    return match.group(1).replace("\\\n", " ").split()


def test_every_module_that_makes_qt_widgets_is_a_window_test() -> None:
    listed = gui_tests()
    unlisted = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if any(rel == entry or rel.startswith(entry.rstrip("/") + "/") for entry in listed):
            continue
        if path.resolve() != Path(__file__).resolve() and QT_USE.search(path.read_text("utf-8")):
            unlisted.append(rel)
    assert unlisted == [], f"add to GUI_TESTS in the Makefile: {unlisted}"


def test_every_listed_window_test_exists() -> None:
    missing = [entry for entry in gui_tests() if not (ROOT / entry).exists()]
    assert missing == []
