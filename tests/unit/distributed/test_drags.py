"""The cluster's drag-item runner without a cluster: what a worker sends back becomes this
machine's item (its folder, its screen under the run folder, the agent's spending added)."""

from __future__ import annotations

import asyncio
import pickle
import shutil
from pathlib import Path
from typing import Any

from studio.services.core import paths
from studio.services.diagnostics.agents import DragDecision
from studio.services.diagnostics.drag.item import load_item
from studio.services.diagnostics.drag.run import SCREENS_DIR, AttemptRecord, ItemRun, run_drag
from studio.services.diagnostics.drag.scoring import Attempt, score_attempt
from studio.services.distributed.dispatch import Dispatcher
from studio.services.distributed.drags import ClusterDrags
from studio.services.distributed.worker import DragItemJob, DragItemReturn
from studio.services.episodes.agents.llm import Usage

ITEM = paths.PROJECT_ROOT / "diagnostics" / "drag" / "t1_goto_below_flag"
PNG = b"\x89PNG\r\n\x1a\nscreen"


class SpendingAgent:
    """A drag agent with an LLM agent's usage counters."""

    name = "spender"

    def __init__(self) -> None:
        self.usage = Usage()


class WorkerSlot:
    """Plays the item as a worker would, from the job's files alone (nothing of this machine)."""

    name = "node-a"
    capacity = 2

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.jobs: list[DragItemJob] = []

    async def call(self, method: str, payload: Any) -> Any:
        assert method == "drag_item"
        job: DragItemJob = pickle.loads(pickle.dumps(payload))  # as Ray would carry it
        self.jobs.append(job)
        there = self.scratch / job.folder_name
        for rel, data in job.item_files.items():
            (there / rel).parent.mkdir(parents=True, exist_ok=True)
            (there / rel).write_bytes(data)
        entry = load_item(there)
        decision = DragDecision((10.0, 20.0), (30.0, 40.0), "a guess")
        score = score_attempt(entry.item, Attempt(decision.start, decision.end))
        job.agent.usage.calls += 1
        job.agent.usage.prompt_tokens += 100
        run = ItemRun(entry, [AttemptRecord(decision, None, score)] * job.k, seconds=1.5)
        return DragItemReturn(run, PNG, job.agent.usage)


def test_an_item_played_by_a_worker_is_this_machines_item(tmp_path: Path) -> None:
    items = tmp_path / "items"
    shutil.copytree(ITEM, items / ITEM.name)
    entry = load_item(items / ITEM.name)
    slot = WorkerSlot(tmp_path / "worker")
    agent = SpendingAgent()
    run_dir = tmp_path / "run"

    async def go() -> Any:
        runner = ClusterDrags(Dispatcher([slot]))
        return await run_drag(None, None, [entry], agent, run_dir, k=2, runner=runner)  # type: ignore[arg-type]

    run = asyncio.run(go())
    (job,) = slot.jobs
    assert job.k == 2 and sorted(job.item_files) == sorted(p.name for p in ITEM.iterdir())
    (item,) = run.items
    assert item.entry is entry and len(item.attempts) == 2
    assert (run_dir / SCREENS_DIR / f"{entry.item.id}.png").read_bytes() == PNG
    assert agent.usage.calls == 1 and agent.usage.prompt_tokens == 100
    assert run.summary()["usage"]["calls"] == 1
    assert (run_dir / "attempts.jsonl").read_text().count("\n") == 1
