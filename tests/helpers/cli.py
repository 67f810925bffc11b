"""Run the studio command line as a user would: in a subprocess, or in this process.

`studio(*args)` starts `python -m studio ARGS...`: for the tests whose point is the process
boundary (its exit status, signals, what a fresh interpreter loads). `studio_here(*args)` runs
the same command line through `studio.cli.main` in the test's own process (what
`python -m studio` does after start-up: `raise SystemExit(main())`), with its stdout and stderr
captured: the same parser, handler, printed report and exit code, without a second Python start-up
and import of the studio (about a second of CPU each, many on a loaded machine). Both answer a
`subprocess.CompletedProcess`, so a test can switch between them.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["ROOT", "studio", "studio_here"]

ROOT = Path(__file__).resolve().parents[2]


def studio(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`python -m studio ARGS...` from the repository root; never raises on a non-zero exit."""
    return subprocess.run(
        [sys.executable, "-m", "studio", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )


def studio_here(*args: str) -> subprocess.CompletedProcess[str]:
    """`studio ARGS...` in this process, from the repository root as `studio()` runs it; its exit
    code (argparse's usage errors included) and what it printed. An exception the command
    line does not turn into an exit code propagates (a subprocess would print its traceback)."""
    from studio.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: --help, usage errors
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if isinstance(exc.code, str):
                    print(exc.code, file=sys.stderr)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(
        ["studio", *args], code, stdout=out.getvalue(), stderr=err.getvalue()
    )
