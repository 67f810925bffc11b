"""Every registry entry resolves (a moved module or renamed function is caught here, not by a
user), and the front ends take their lists from the registries: `studio run`'s agents and
modes, `drag run`/`qa run`'s agents, `studio import`/`export`'s formats, `studio report`'s
metrics; a registry names nothing that is not there, and parsing or helping a command imports
none of what the entries name."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from studio.app.extensions import (
    EPISODE_AGENTS,
    EXPORT_FORMATS,
    IMPORT_FORMATS,
    ITEM_AGENTS,
    ITEM_SET_EXPORTS,
    ITEM_SET_IMPORTS,
    METRICS,
    MODES,
    REGISTRIES,
    RESULT_READERS,
    unresolved,
)
from studio.cli import build_parser
from studio.models.agent import Mode

ROOT = Path(__file__).resolve().parents[3]


def test_every_registered_entry_resolves_to_something_callable() -> None:
    assert unresolved() == []
    for registry in REGISTRIES:
        assert len(registry) > 0, registry.kind
        for entry in registry.entries():
            assert entry.target is not None, f"{registry.kind} {entry.name}: not deferred"
            assert callable(registry.get(entry.name)), f"{registry.kind} {entry.name}"


def _sub(parser: argparse.ArgumentParser, *path: str) -> argparse.ArgumentParser:
    for name in path:
        (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = action.choices[name]
    return parser


def _choices(parser: argparse.ArgumentParser, flag: str) -> object:
    (action,) = [a for a in parser._actions if flag in a.option_strings]
    return action.choices


def test_the_command_line_lists_what_the_registries_hold() -> None:
    parser = build_parser()
    assert _choices(_sub(parser, "run"), "--agent") is EPISODE_AGENTS
    assert _choices(_sub(parser, "run"), "--mode") is MODES
    assert _choices(_sub(parser, "drag", "run"), "--agent") is ITEM_AGENTS
    assert _choices(_sub(parser, "qa", "run"), "--agent") is ITEM_AGENTS
    assert _choices(_sub(parser, "diagnostics", "import"), "--format") is ITEM_SET_IMPORTS
    assert _choices(_sub(parser, "diagnostics", "export"), "--format") is ITEM_SET_EXPORTS
    for verb, registry in (("import", IMPORT_FORMATS), ("export", EXPORT_FORMATS)):
        actions = _sub(parser, verb)._actions
        (formats,) = [a for a in actions if isinstance(a, argparse._SubParsersAction)]
        assert set(formats.choices) == set(registry.names()), verb
    report_help = " ".join(_sub(parser, "report").format_help().split())
    for name in METRICS:
        assert f"{name}: {' '.join(METRICS.help(name).split())}" in report_help


def test_the_modes_are_the_recorded_mode_values() -> None:
    assert set(MODES.names()) == {m.value for m in Mode}


@pytest.mark.parametrize("argv", [["run", "--help"], ["import", "--help"], ["report", "--help"]])
def test_helping_a_command_imports_none_of_the_entries(argv: list[str]) -> None:
    targets = sorted(
        {e.target.partition(":")[0] for r in REGISTRIES for e in r.entries() if e.target}
        # the ScratchWorld checkout both ways: light, and the CLI's own import
        - {"studio.services.formats.scratchworld.checkout"}
    )
    heavy = ["playwright", "PySide6", *targets]  # the browser driver, Qt, what entries name
    code = (
        "import sys, contextlib\n"
        "from studio.cli import main\n"
        f"with contextlib.suppress(SystemExit): main({argv!r})\n"
        f"print([m for m in {heavy!r} if m in sys.modules])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_result_readers_and_metrics_are_read_in_registration_order() -> None:
    assert RESULT_READERS.names()[0] == "scratchworld"
    assert METRICS.names() == ("intervals", "d_edit")  # the order of the lines under a table


def test_an_episode_gets_its_mode_handler_through_the_registry() -> None:
    from studio.services.episodes.handlers import make_handler

    for mode in Mode:
        handler = make_handler(mode, element_list=False)
        assert handler.mode is mode
    assert make_handler(Mode.PRIMITIVE, element_list=False).element_list is False  # type: ignore[attr-defined]
    assert make_handler(Mode.PRIMITIVE).element_list is True  # type: ignore[attr-defined]
