"""`studio study serve` killed mid-task (SIGKILL): nothing recorded is lost, the run is marked
interrupted when the study is served again, and the participant resumes in a new attempt from
the last checkpoint. Driven over HTTP as the participant page drives it (no page: the editor
plays no part in what a killed server leaves behind)."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from studio.services.core import paths
from studio.services.studies.board import read_board
from studio.services.studies.plan import load_study, new_study, save_study
from tests.helpers.cli import ROOT

pytestmark = pytest.mark.browser

TAB = {"X-Study-Tab": "tab-kill-test-1"}


@contextmanager
def serving(study: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    """`studio study serve STUDY` in a subprocess; its links by code."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "studio", "study", "serve", str(study)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    stdout = proc.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    try:
        first = lines.get(timeout=120)
        assert first.startswith("serving study"), first
        links = {}
        for _ in load_study(study).participants:
            code, link = lines.get(timeout=30).split()
            links[code] = link
        yield proc, links
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)


def test_a_killed_server_loses_nothing_and_the_participant_resumes(tmp_path: Path) -> None:
    study = tmp_path / "study"
    plan = new_study(paths.BUNDLED_TASKS, study, 1, seed=1, task_ids=["create_cat_walk"])
    plan.practice = None
    save_study(study, plan)
    code = plan.participants[0].code
    checkpoint = (paths.BUNDLED_TASKS / "create_cat_walk" / "golden.sb3").read_bytes()
    with serving(study) as (proc, links):
        api = links[code] + "api/"
        assert httpx.post(api + "claim", json={"tab": TAB["X-Study-Tab"]}).status_code == 200
        httpx.post(api + "consent", headers=TAB)
        assert httpx.post(api + "start", headers=TAB, json={}).json()["screen"] == "task"
        now = time.time() * 1000
        events = [
            {"type": "down", "t": now - 900, "x": 100, "y": 100, "button": 0},
            {"type": "up", "t": now - 850, "x": 100, "y": 100, "button": 0},
            {"type": "keydown", "t": now - 300, "key": "Enter"},
        ]
        assert (
            httpx.post(api + "events", headers=TAB, json={"now": now, "events": events}).json()[
                "recorded"
            ]
            >= 1
        )
        assert httpx.post(api + "checkpoint", headers=TAB, content=checkpoint).status_code == 200
        wrong = httpx.get(links[code].replace(plan.participants[0].token, "x" * 24) + "api/state")
        assert wrong.status_code == 404
        proc.kill()  # SIGKILL: no clean-up of any kind
        proc.wait(timeout=30)
    run = study / "runs" / code / "01-create_cat_walk"
    header = json.loads((run / "run.json").read_text())
    assert header["status"] == "running" and header["ended_at"] is None
    assert len((run / "steps.jsonl").read_text().splitlines()) == 2  # click, key

    with serving(study) as (proc, links):
        cell = read_board(study, load_study(study)).rows[code][0]
        assert (cell.state, cell.actions) == ("interrupted", 2)
        header = json.loads((run / "run.json").read_text())
        assert header["meta"]["interrupted"] is True and header["status"] == "closed"
        assert (run / "final.sb3").read_bytes() == checkpoint
        api = links[code] + "api/"
        state = httpx.post(api + "claim", json={"tab": TAB["X-Study-Tab"]}).json()
        assert state["screen"] == "ready" and state["next"] == 1
        assert httpx.post(api + "start", headers=TAB, json={}).json()["screen"] == "task"
        assert httpx.get(api + "project", headers=TAB).content == checkpoint
        finished = httpx.post(api + "finish?outcome=done", headers=TAB, content=checkpoint)
        assert finished.json()["screen"] == "done"
    cell = read_board(study, load_study(study)).rows[code][0]
    assert (cell.state, cell.verdict, cell.attempts) == ("finished", "passed", 2)
    assert (study / "refusals.jsonl").read_text().count("token_start") == 1
