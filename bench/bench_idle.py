"""CPU an idle studio window uses: share of one core over N seconds, nothing running.

Starts the real window as a fresh process (tests/helpers/window_harness.py, `--idle N`) on a
library; once the editor and the library are ready the harness prints "idle-start", sits still
for N seconds and prints "idle-end". Between the two lines this bench reads /proc for the
studio's own process and for all its descendants (QtWebEngine's browser, GPU and renderer
processes, the evaluation browser) and prints the CPU seconds each used per wall second.
`--minimised` minimises the window before it idles.

Target (issue 31, point 11): under 5 % of a core for the window: the studio's process and its
QtWebEngine processes (the headless evaluation browser the window prewarms is shown apart).
Usage: .venv/bin/python bench/bench_idle.py [--seconds 30] [--platform xcb] [--minimised]
(under `xvfb-run -a -s "-screen 0 1600x1000x24"` for --platform xcb)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.05
APP = [sys.executable, "-m", "tests.helpers.window_harness"]
TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, str, float] | None:
    """(parent pid, command name, CPU seconds used) of `pid`, None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), name, (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu(root: int) -> dict[int, tuple[str, float]]:
    """CPU seconds used so far by `root` and each of its living descendants."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None:
            stats[int(entry.name)] = st
    keep, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            keep[pid] = (stats[pid][1], stats[pid][2])
            todo.extend(p for p, (parent, _, _) in stats.items() if parent == pid)
    return keep


def measure(library: Path, home: Path, platform: str, seconds: float, minimised: bool) -> None:
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM=platform,
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
    )
    cmd = [*APP, "--library", str(library), "--idle", str(seconds)]
    if minimised:
        cmd.append("--minimised")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    assert proc.stdout is not None
    before: dict[int, tuple[str, float]] = {}
    t0 = 0.0
    for line in proc.stdout:
        if line.strip() == "idle-start":
            before, t0 = tree_cpu(proc.pid), time.perf_counter()
        elif line.strip() == "idle-end":
            after, wall = tree_cpu(proc.pid), time.perf_counter() - t0
            report(before, after, proc.pid, wall)
    if proc.wait(timeout=120) != 0 or not before:
        sys.exit(f"the window did not idle as asked (exit code {proc.returncode})")


Usage = dict[int, tuple[str, float]]  # pid: (command name, CPU seconds)


def report(before: Usage, after: Usage, root: int, wall: float) -> None:
    used = {pid: cpu - before.get(pid, (name, 0.0))[1] for pid, (name, cpu) in after.items()}
    print(f"over {wall:.1f} s idle (share of one core):")
    for pid, cpu in sorted(used.items(), key=lambda kv: -kv[1]):
        if cpu / wall >= 0.005 or pid == root:
            label = "studio (main process)" if pid == root else _label(pid, after[pid][0])
            print(f"  {label:<28} {cpu / wall:6.1%}")
    window = sum(cpu for pid, cpu in used.items() if pid == root or "QtWebEngine" in after[pid][0])
    total = sum(used.values()) / wall
    verdict = "OK" if window / wall < TARGET else "over"
    print(f"window (studio process and its QtWebEngine editor): {window / wall:.1%} of a core")
    print(f"  target < {TARGET:.0%}: {verdict}")
    print(f"whole tree, with the prewarmed evaluation browser: {total:.1%} of a core")


def _label(pid: int, name: str) -> str:
    """The command name with the Chromium process type (renderer, gpu-process...) if any."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return name
    kind = next((a[7:].decode() for a in args if a.startswith(b"--type=")), "")
    return f"{name} ({kind})" if kind else name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="idle time measured")
    parser.add_argument("--library", type=Path, default=ROOT / "tasks", help="task library")
    parser.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM to use")
    parser.add_argument("--minimised", action="store_true", help="minimise the window first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as tmp:
        measure(args.library, Path(tmp), args.platform, args.seconds, args.minimised)


if __name__ == "__main__":
    main()
