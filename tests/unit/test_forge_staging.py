"""A forge killed while its staging folder was open: the next forge (or the window opening the
library) removes that folder, a live forge's folder stays, the library keeps only whole tasks
and a new forge does not make again what the author kept.

The killed forge is a real process killed with SIGKILL in the middle of writing a forged task
into its staging folder; the forge after it is the real loop over the rule-judging evaluator
of tests/unit/test_forge.py (the browser path is tests/e2e/test_forge_e2e.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from studio.app import forging
from studio.services.core.store import load_task, scan_library
from studio.services.forge import staging
from studio.services.forge.pipeline import ForgeOptions
from tests.helpers.tasks import make_task
from tests.unit.test_forge import FakeEvaluator, cat_rule

ROOT = Path(__file__).resolve().parents[2]

# Opens a staging folder, forges one whole task into it, starts writing a second one (the
# writer's hidden .forge-* folder) and is killed there.
KILLED_FORGE = """
import os, signal, sys
from pathlib import Path
from studio.app import forging
library = Path(sys.argv[1])
staging = forging.open_staging(library)
(staging / "whole--mir-1").mkdir()
(staging / "whole--mir-1" / "task.json").write_text("{}")
(staging / ".forge-half--ehc-2-abcd").mkdir()
print(staging, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def killed_forge(library: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-c", KILLED_FORGE, str(library)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    return Path(done.stdout.strip())


def test_the_next_forge_removes_a_killed_forge_s_staging_and_repeats_nothing_kept(
    tmp_path: Path,
) -> None:
    library = tmp_path / "library"
    golden = load_task(make_task(tmp_path / "golden"))
    ev = FakeEvaluator(cat_rule)
    opts = ForgeOptions(reruns=2, per_golden=3, derive=False)
    # a first forge (through a staging folder, as the window forges) whose author kept one task
    first = forging.open_staging(library)
    asyncio.run(forging.forge_all(ev, [golden], first, opts, kept_in=[library]))  # type: ignore[arg-type]
    staged = sorted(p for p in first.iterdir() if (p / "task.json").is_file())
    assert len(staged) == 2
    kept = forging.keep(staged[0], library)
    forging.close_staging(first)

    dead = killed_forge(library)
    assert dead.is_dir() and dead.parent == library and (dead / staging.OWNER_FILE).is_file()
    alive = forging.open_staging(library)  # this process forges into it now

    second = forging.open_staging(library)
    outcomes = asyncio.run(forging.forge_all(ev, [golden], second, opts, kept_in=[library]))  # type: ignore[arg-type]
    assert not dead.exists()  # the killed forge's folder, with its whole and half tasks
    assert alive.is_dir() and second.is_dir()  # live forges' folders stay
    (outcome,) = outcomes
    assert (outcome.kept_before, outcome.kept) == (1, 1)  # the kept task is not forged again
    assert kept.name not in {p.name for p in second.iterdir()}
    forging.close_staging(alive)
    forging.close_staging(second)
    assert [p.name for p in library.iterdir()] == [kept.name]
    assert [t.task.id for t in scan_library(library).tasks] == [kept.name]


def test_staleness_by_owner_process_host_and_age(tmp_path: Path) -> None:
    library = tmp_path / "library"
    dead = killed_forge(library)
    ours = forging.open_staging(library)
    assert staging.is_stale(dead) and not staging.is_stale(ours)

    elsewhere = library / f"{staging.PREFIX}other-host"
    elsewhere.mkdir()
    owner = {"pid": 1, "host": "not-" + socket.gethostname(), "started": None}
    (elsewhere / staging.OWNER_FILE).write_text(json.dumps(owner))
    assert not staging.is_stale(elsewhere)  # another machine's forge: not ours to judge

    recycled = library / f"{staging.PREFIX}recycled"
    recycled.mkdir()
    owner = {"pid": os.getpid(), "host": socket.gethostname(), "started": "1"}
    (recycled / staging.OWNER_FILE).write_text(json.dumps(owner))
    assert staging.is_stale(recycled)  # our id, but a process that started at another time

    unowned = library / f"{staging.PREFIX}unowned"
    unowned.mkdir()
    assert not staging.is_stale(unowned)  # being opened: its owner file comes a moment later
    assert staging.is_stale(unowned, now=time.time() + staging.UNOWNED_GRACE_S + 1)

    removed = forging.clean_stale_staging(library)
    assert sorted(p.name for p in removed) == sorted([dead.name, recycled.name])
    assert sorted(p.name for p in library.iterdir()) == sorted(
        [ours.name, elsewhere.name, unowned.name]
    )
    assert forging.clean_stale_staging(tmp_path / "no-such-library") == []
