"""CPU by process kind under a process, sampled from /proc (a helper of the benches).

`ProcessSampler(pid)` samples, every PERIOD_S in a thread of its own, the user+sys CPU of every
process under `pid` and keeps the last figure seen per process, with its kind from its command
line (Chromium's `--type=renderer`, `gpu-process`, `utility` and its sub-type, the browser,
Playwright's node driver, Python). `stop()` gives seconds per kind. A process that ends between
two samples loses at most PERIOD_S of CPU; one that lives less than PERIOD_S may be missed, so
the sum is a little under what `os.wait4` counts (which says nothing of the kinds). A process
keeps the kind it had while it ran (a zombie has no command line).
"""

from __future__ import annotations

import collections
import os
import threading
from pathlib import Path

__all__ = ["PERIOD_S", "ProcessSampler", "kind_of", "process_table"]

PERIOD_S = 0.2


def process_table() -> tuple[dict[int, list[int]], dict[int, list[str]]]:
    """Every process now: the children of each parent pid, and each pid's /proc stat fields
    after its command name (field 1 is the parent, 11 and 12 its user and sys clock ticks)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(entry))
        stats[int(entry)] = fields
    return children, stats


def kind_of(cmdline: list[str]) -> str:
    """What a process is, from its command line."""
    text = " ".join(cmdline)
    for arg in cmdline:
        if arg.startswith("--type="):
            kind = arg.split("=", 1)[1]
            if kind == "utility":
                subs = [a for a in cmdline if a.startswith("--utility-sub-type=")]
                return f"utility {subs[0].rsplit('.', 1)[-1]}" if subs else kind
            return "renderer" if kind == "zygote" else kind
    first = Path(cmdline[0]).name if cmdline else ""
    if "chrom" in first or "headless_shell" in first or "--remote-debugging-pipe" in text:
        return "browser"
    if first == "node":
        return "node (Playwright's driver)"
    if first.startswith("python"):
        return "python (studio)"
    return first or "?"


class ProcessSampler:
    """CPU by kind of the processes under `pid` (see the module docstring)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._last: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._hz = os.sysconf("SC_CLK_TCK")

    def start(self) -> ProcessSampler:
        self._thread.start()
        return self

    def stop(self) -> dict[str, float]:
        """Seconds of CPU per kind, the largest first."""
        self._stop.set()
        self._thread.join()
        totals: collections.Counter[str] = collections.Counter()
        for kind, cpu in self._last.values():
            totals[kind] += cpu
        return dict(totals.most_common())

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(PERIOD_S)

    def _sample(self) -> None:
        children, stats = process_table()
        todo = list(children.get(self.pid, []))
        while todo:
            pid = todo.pop()
            todo += children.get(pid, [])
            try:
                # (Chromium's children rewrite theirs as one string: split on spaces too)
                cmdline = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ").split()
            except OSError:
                continue
            fields = stats[pid]
            cpu = (int(fields[11]) + int(fields[12])) / self._hz
            kind = kind_of(cmdline)
            if not cmdline and pid in self._last:  # ended (a zombie has no command line)
                kind = self._last[pid][0]
            self._last[pid] = (kind, cpu)
