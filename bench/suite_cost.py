"""Where the test suite's time goes: a pytest plugin that records each test's cost.

Load it with `PYTHONPATH=bench pytest -p suite_cost ...` and set `SUITE_COST_OUT` to a folder;
each process (each xdist worker) writes `<folder>/<worker>.jsonl`, one line per test phase
(setup, call, teardown) with:

- `wall_s`: the phase's wall time (on a loaded machine this mostly measures the others);
- `cpu_s`: the CPU time (user + system) the worker's whole process tree used during the phase:
  the worker itself, its browsers and page processes, its `studio` subprocesses and their
  browsers (processes that end are counted through their parent's children times). CPU time
  hardly depends on how loaded the machine is, so it says what a test costs;
- `browsers`: how many Chromium browsers were launched in the tree during the phase (a main
  Chromium process, one without `--type=`, that was not there before; a thread looks at the
  tree every second, so one that lived less than a second can be missed);
- `pythons`: how many Python processes were started in the tree during the phase (the same way).

`bench/suite_cost_report.py FOLDER` sums them per file and per worker.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

__all__ = ["ProcessTree", "pytest_runtest_logreport", "pytest_runtest_protocol"]

TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class _Proc:
    ppid: int
    cpu_s: float  # own utime + stime + the reaped children's
    kind: str  # "chromium", "python" or ""


def _read(pid: int) -> _Proc | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    exe = os.path.basename(cmd[0].decode(errors="replace")) if cmd and cmd[0] else ""
    kind = ""
    if exe in ("chromium", "chrome", "headless_shell") and not any(
        c.startswith(b"--type=") for c in cmd
    ):
        kind = "chromium"
    elif exe.startswith("python"):
        kind = "python"
    return _Proc(ppid, (utime + stime + cutime + cstime) / TICK, kind)


class ProcessTree:
    """A snapshot of the process tree under one root: total CPU and the pids by kind."""

    def __init__(self, root: int) -> None:
        procs: dict[int, _Proc] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                proc = _read(int(entry))
                if proc is not None:
                    procs[int(entry)] = proc
        children: dict[int, list[int]] = {}
        for pid, proc in procs.items():
            children.setdefault(proc.ppid, []).append(pid)
        self.cpu_s = 0.0
        self.kinds: dict[int, str] = {}
        stack = [root]
        while stack:
            pid = stack.pop()
            proc = procs.get(pid)
            if proc is None:
                continue
            self.cpu_s += proc.cpu_s
            if proc.kind:
                self.kinds[pid] = proc.kind
            stack.extend(children.get(pid, []))


def _started(seen: dict[int, str], before: ProcessTree, kind: str) -> int:
    """How many processes of `kind` were seen and were not in `before`."""
    return sum(1 for pid, k in seen.items() if k == kind and pid not in before.kinds)


_OUT: list[Any] = []
_PHASE_START: dict[str, tuple[float, ProcessTree]] = {}
_SEEN: dict[int, str] = {}  # the processes by kind seen in the tree during the current phase
_LOCK = threading.Lock()
_WATCHING: list[threading.Thread] = []


def _watch() -> None:
    while True:
        time.sleep(1.0)
        kinds = ProcessTree(os.getpid()).kinds
        with _LOCK:
            _SEEN.update(kinds)


def _seen_and_reset(now: ProcessTree) -> dict[int, str]:
    with _LOCK:
        seen = {**_SEEN, **now.kinds}
        _SEEN.clear()
        _SEEN.update(now.kinds)
    if not _WATCHING:
        _WATCHING.append(threading.Thread(target=_watch, name="suite-cost", daemon=True))
        _WATCHING[0].start()
    return seen


def _out() -> Any:
    if not _OUT:
        folder = Path(os.environ.get("SUITE_COST_OUT", "suite-cost"))
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _OUT.append((folder / f"{worker}.jsonl").open("a", encoding="utf-8"))
    return _OUT[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Mark the start of the test's first phase (setup)."""
    tree = ProcessTree(os.getpid())
    _seen_and_reset(tree)
    _PHASE_START[item.nodeid] = (time.monotonic(), tree)
    yield


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Write the phase that just ended, and start the next one's clock here."""
    start = _PHASE_START.get(report.nodeid)
    if start is None:
        return
    now, tree = time.monotonic(), ProcessTree(os.getpid())
    seen = _seen_and_reset(tree)
    t0, before = start
    line = {
        "nodeid": report.nodeid,
        "when": report.when,
        "outcome": report.outcome,
        "wall_s": round(now - t0, 3),
        "cpu_s": round(max(tree.cpu_s - before.cpu_s, 0.0), 3),
        "browsers": _started(seen, before, "chromium"),
        "pythons": _started(seen, before, "python"),
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
        "end": time.time(),
    }
    out = _out()
    out.write(json.dumps(line) + "\n")
    out.flush()
    _PHASE_START[report.nodeid] = (now, tree)
