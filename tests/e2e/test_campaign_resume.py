"""A campaign stopped by Ctrl+C (SIGINT) and then killed (SIGKILL), resumed each time by
`studio run --resume`: no episode is played twice and the verdicts are those of the episodes
that finished. The idle agent on two bundled tasks, two epochs: four cheap episodes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from studio.services.runs.campaign import MANIFEST_FILE, RESULTS_FILE

ROOT = Path(__file__).resolve().parents[2]
TASKS = [str(ROOT / "tasks" / t) for t in ("create_cat_walk", "debug_score_reset")]


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "studio", "run", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its browser too can be ended with the group
        preexec_fn=_ctrl_c_as_a_terminal_gives_it,
    )


def _ctrl_c_as_a_terminal_gives_it() -> None:
    """The child takes SIGINT as Ctrl+C even when the suite runs as a background job (whose
    children inherit SIGINT ignored, and Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lines(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / RESULTS_FILE
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.endswith("}")]


def _wait_for_results(proc: subprocess.Popen[str], run_dir: Path, count: int) -> None:
    """Until `count` results are in the ledger (the process writes and syncs each one)."""
    deadline = time.monotonic() + 600
    while len(_lines(run_dir)) < count:
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, "no result in time"
        time.sleep(0.2)


def _end_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)


def test_resume_after_sigint_and_after_sigkill_plays_no_episode_twice(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    first = _start(*TASKS, "--agent", "idle", "--epochs", "2", "--out", str(out))
    try:
        deadline = time.monotonic() + 120
        while not list(out.glob(f"*/{MANIFEST_FILE}")):
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()[0]
            time.sleep(0.2)
        (run_dir,) = (p.parent for p in out.glob(f"*/{MANIFEST_FILE}"))
        _wait_for_results(first, run_dir, 1)
        first.send_signal(signal.SIGINT)  # Ctrl+C during the second episode
        stopped = first.communicate(timeout=120)[0]
        assert first.returncode == 130, stopped
        assert f"`studio run --resume {run_dir}` plays the rest" in stopped
    finally:
        _end_group(first)
    before = {(r["task"], r["epoch"]): r for r in _lines(run_dir)}
    stamps = {k: json.loads(Path(r["folder"], "run.json").read_text()) for k, r in before.items()}

    second = _start("--resume", str(run_dir))
    try:
        _wait_for_results(second, run_dir, len(before) + 1)
        os.killpg(second.pid, signal.SIGKILL)  # the run and its browser die at once
    finally:
        _end_group(second)

    third = _start(*TASKS, "--resume", str(run_dir))
    output = third.communicate(timeout=900)[0]
    assert third.returncode == 0, output
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
