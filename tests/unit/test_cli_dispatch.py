"""How `studio` dispatches: every command's parser names its handler, errors and Ctrl-C become
a line and an exit code in one place, and parsing loads none of the heavy services."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli import GROUPS, build_parser, common
from studio.models.errors import StudioError
from studio.services.core.errors import TaskFileError
from studio.services.core.paths import SetupError

ROOT = Path(__file__).resolve().parents[2]


def _leaves(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, object]]:
    """(command line, handler default) of every parser that has no sub-commands of its own."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser.get_default("handler")
    for action in subs:
        for name, sub in action.choices.items():
            yield from _leaves(sub, f"{path} {name}")


def test_every_command_names_its_handler() -> None:
    leaves = dict(_leaves(build_parser(), "studio"))
    assert {"studio gui", "studio eval", "studio drag run", "studio export inspect"} <= set(leaves)
    assert len(leaves) >= 31  # every command of today (window 3, tasks 3, exchange 3, ...)
    missing = [path for path, handler in leaves.items() if not callable(handler)]
    assert missing == []
    assert callable(build_parser().get_default("handler"))  # no command: the window


def test_each_group_module_registers_its_commands() -> None:
    for group in GROUPS:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers(dest="command")
        group.register(sub)
        assert sub.choices, group.__name__


def _run(handler: common.Handler) -> int:
    return common.run_command(argparse.Namespace(handler=handler))


def test_a_named_error_is_one_line_naming_the_file_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def bad_task(_args: argparse.Namespace) -> int:
        raise TaskFileError("lib/t/task.json", "no instruction", field="instruction")

    assert _run(bad_task) == common.EXIT_BAD_INPUT == 2
    assert capsys.readouterr().err == (
        "error: lib/t/task.json (field 'instruction'): no instruction\n"
    )

    def not_installed(_args: argparse.Namespace) -> int:
        raise SetupError("The Scratch GUI bundle is missing")

    assert _run(not_installed) == 2
    assert capsys.readouterr().err == "error: The Scratch GUI bundle is missing\n"


def test_the_handler_s_code_passes_and_ctrl_c_is_130_without_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _run(lambda _args: 3) == 3

    def stopped(_args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    assert _run(stopped) == common.EXIT_INTERRUPTED == 130
    assert capsys.readouterr().err == ""
    assert common.interrupted("\nstopped; resume with ...") == 130
    assert capsys.readouterr().err == "\nstopped; resume with ...\n"
    assert common.failed("interrupted; finished items are in runs/x") == common.EXIT_FAILED == 1
    assert capsys.readouterr().err == "error: interrupted; finished items are in runs/x\n"


def test_other_errors_are_not_hidden() -> None:
    def bug(_args: argparse.Namespace) -> int:
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        _run(bug)
    assert issubclass(TaskFileError, StudioError)


def test_parsing_a_run_loads_neither_the_checker_nor_the_http_client() -> None:
    code = (
        "import sys\n"
        "from studio.cli import build_parser\n"
        "build_parser().parse_args(['run', 'tasks', '--agent', 'idle'])\n"
        "heavy = ('studio.services.checking.checker', 'httpx', 'PySide6', 'playwright')\n"
        "print(sorted(m for m in sys.modules if any(m == h or m.startswith(h + '.') "
        "for h in heavy)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"
