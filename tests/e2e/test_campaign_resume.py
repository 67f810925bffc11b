"""A campaign stopped by Ctrl+C (SIGINT) and then killed (SIGKILL), resumed each time by
`studio run --resume`: no episode is played twice and the verdicts are those of the episodes
that finished. The idle agent on two bundled tasks, two epochs: four cheap episodes."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from studio.services.runs.campaign import MANIFEST_FILE, RESULTS_FILE

ROOT = Path(__file__).resolve().parents[2]
TASKS = [str(ROOT / "tasks" / t) for t in ("create_cat_walk", "debug_score_reset")]
EPISODE_LINE = re.compile(r"^(PASS|FAIL|ERROR) ")  # an episode's line (EpisodeOutcome.line)


class _Run:
    """`studio run ARGS` as a user starts it; its output (stdout and stderr) read as it comes."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "studio", "run", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its browser too can be ended with the group
            preexec_fn=_ctrl_c_as_a_terminal_gives_it,
        )
        self.pid = self.proc.pid
        self.output: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._pump = threading.Thread(target=self._read, daemon=True)
        self._pump.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def wait_for_episodes(self, count: int) -> None:
        """Until the run has printed `count` episode lines; it prints each one once the
        episode's result is in the ledger (written and synced), so the ledger then holds it."""
        seen = 0
        while seen < count:
            try:
                line = self._lines.get(timeout=600)
            except queue.Empty:
                ended = "no episode ended in 600 s:\n" + "".join(self.output)
                raise AssertionError(ended) from None
            assert line is not None, "the run ended early:\n" + "".join(self.output)
            seen += bool(EPISODE_LINE.match(line))

    def finish(self, timeout: float) -> str:
        """The run's whole output once it has exited."""
        self.proc.wait(timeout=timeout)
        self._pump.join(timeout=60)
        return "".join(self.output)


def _ctrl_c_as_a_terminal_gives_it() -> None:
    """The child takes SIGINT as Ctrl+C even when the suite runs as a background job (whose
    children inherit SIGINT ignored, and Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lines(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / RESULTS_FILE
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.endswith("}")]


def _end_group(run: _Run) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(run.pid, signal.SIGKILL)
    run.finish(timeout=60)


def test_resume_after_sigint_and_after_sigkill_plays_no_episode_twice(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    first = _Run(*TASKS, "--agent", "idle", "--epochs", "2", "--out", str(out))
    try:
        first.wait_for_episodes(1)
        (run_dir,) = (p.parent for p in out.glob(f"*/{MANIFEST_FILE}"))
        assert len(_lines(run_dir)) >= 1, _lines(run_dir)  # in the ledger before it is printed
        first.proc.send_signal(signal.SIGINT)  # Ctrl+C during the second episode
        stopped = first.finish(timeout=120)
        assert first.proc.returncode == 130, stopped
        assert f"`studio run --resume {run_dir}` plays the rest" in stopped
    finally:
        _end_group(first)
    before = {(r["task"], r["epoch"]): r for r in _lines(run_dir)}
    stamps = {k: json.loads(Path(r["folder"], "run.json").read_text()) for k, r in before.items()}

    second = _Run("--resume", str(run_dir))
    try:
        second.wait_for_episodes(1)
        assert len(_lines(run_dir)) >= len(before) + 1, _lines(run_dir)
        os.killpg(second.pid, signal.SIGKILL)  # the run and its browser die at once
    finally:
        _end_group(second)

    third = _Run(*TASKS, "--resume", str(run_dir))
    output = third.finish(timeout=900)
    assert third.proc.returncode == 0, output
    assert "episode(s) finished" in output
    lines = _lines(run_dir)
    keys = [(r["task"], r["epoch"]) for r in lines]
    assert sorted(keys) == sorted({(t, e) for t in ("create_cat_walk", "debug_score_reset")
                                   for e in (1, 2)})  # fmt: skip
    for key, run in stamps.items():  # finished before the stop: never played again
        again = json.loads(Path(before[key]["folder"], "run.json").read_text())
        assert again["started_at"] == run["started_at"] and again["eval"] == run["eval"]
    by_task: dict[str, set[tuple[bool, int, int]]] = {}
    for r in lines:
        by_task.setdefault(r["task"], set()).add((r["success"], r["passed"], r["total"]))
    # the idle agent leaves the program as it was: the same verdict in every epoch
    assert all(len(v) == 1 for v in by_task.values()), by_task
    assert not any(ok for v in by_task.values() for ok, _, _ in v)
