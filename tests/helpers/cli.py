"""Run the studio command line as a user would, in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
