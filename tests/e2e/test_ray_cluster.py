"""`--ray` on a real multi-node Ray cluster on this machine (ray.cluster_utils.Cluster).

One cluster for the module: a head without CPUs (the driver's node), two worker nodes and a
third whose environment points at an empty Scratch GUI bundle folder. A check, an oracle
run, a drag run and a forge give the verdicts (and files) of a local run; the broken node is
reported by name and gets no work; a node killed in the middle of a check loses nothing (the
last test: it removes that node).
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.cli.check import report_json
from studio.models.agent import Mode
from studio.models.evaluation import Clock
from studio.models.protocols import resolve_protocol
from studio.services.checking.checker import CheckOptions, check_tasks
from studio.services.core.store import TaskFolder, load_task
from studio.services.diagnostics.agents import OracleDragAgent
from studio.services.diagnostics.drag.item import scan_items
from studio.services.diagnostics.drag.run import run_drag
from studio.services.distributed.cluster import RayCluster
from studio.services.distributed.episodes import ClusterEpisodes
from studio.services.distributed.evaluations import ClusterEvaluator
from studio.services.episodes.agents import OracleAgent
from studio.services.episodes.manager import EpisodeManager
from studio.services.runs.batch import run_batch
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.clock_agreement import AgreementCache
from studio.services.runtime.evaluator import Evaluator
from tests.helpers.loop_thread import LoopThread
from tests.helpers.project_checks import sb3_members

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
TASK = REPO / "tasks" / "debug_score_reset"
MB = 1024 * 1024


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from ray.cluster_utils import Cluster

    env = {
        "PYTHONPATH": str(REPO),
        "XDG_CACHE_HOME": str(tmp_path_factory.mktemp("ray-cache")),
        "HOME": str(tmp_path_factory.mktemp("ray-home")),
    }
    fast_failure_detection = {
        "health_check_initial_delay_ms": 0,
        "health_check_period_ms": 500,
        "health_check_failure_threshold": 3,
    }
    c = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "include_dashboard": False,
            "object_store_memory": 80 * MB,
            "env_vars": env,
            "_system_config": fast_failure_detection,
        },
    )
    c.workers = [c.add_node(num_cpus=1, object_store_memory=80 * MB, env_vars=env) for _ in "ab"]
    empty = tmp_path_factory.mktemp("empty-bundle")
    c.broken = c.add_node(
        num_cpus=1, object_store_memory=80 * MB, env_vars={**env, "STUDIO_BUNDLE_DIR": str(empty)}
    )
    c.wait_for_nodes()
    yield c
    c.shutdown()


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """A check's JSON without what depends on time and machine load."""
    for task in data["tasks"]:
        task.pop("seconds")
        task.pop("phases", None)  # where time went: machine and page reuse, not verdicts
    for key in ("seconds", "evaluations_per_minute", "phases"):
        data["summary"].pop(key)
    return data


OPTIONS = CheckOptions(mutants=1, reruns=2, workers=2)  # 6 evaluations


@pytest.fixture(scope="module")
def local_check(
    loop_thread: LoopThread, browser_pool: BrowserPool, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The check's JSON from this process's browser, without a cluster."""
    cache = AgreementCache(tmp_path_factory.mktemp("agreement") / "a.json")
    evaluator = Evaluator(browser_pool)
    report = loop_thread.run(check_tasks(evaluator, [load_task(TASK)], (), OPTIONS, None, cache))
    return comparable(report_json(report))


def test_check_on_the_cluster_prints_the_local_json_and_names_the_broken_node(
    cluster: Any,
    local_check: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    args = ["check", str(TASK), "--mutants", "1", "--reruns", "2", "--workers", "2", "--no-record"]
    with caplog.at_level(logging.INFO, logger="studio.cluster"):
        code = main([*args, "--ray", cluster.address, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert comparable(json.loads(out)) == local_check
    broken_id = cluster.broken.node_id[:8]
    lines = [r.getMessage() for r in caplog.records]
    broken = [line for line in lines if broken_id in line]
    assert len(broken) == 1 and "not used" in broken[0]
    assert "Scratch GUI bundle" in broken[0] and "is missing" in broken[0]
    assert sum(line.endswith(": ready") for line in lines) == 2
    assert any("no CPU" in line for line in lines)  # the head


def test_an_oracle_run_on_the_cluster_equals_the_local_run(
    cluster: Any, loop_thread: LoopThread, browser_pool: BrowserPool, tmp_path: Path
) -> None:
    task = load_task(REPO / "tasks" / "compute_sum_to_n")

    def oracle(t: TaskFolder, _pos: int) -> OracleAgent:
        return OracleAgent(t)

    def batch_args(name: str) -> dict[str, Any]:
        return {
            "mode": Mode.COMPOSITE,
            "run_dir": tmp_path / name,
            "agent_name": "oracle",
            "clock_for": lambda _t: Clock.VIRTUAL,
        }

    async def on_cluster() -> Any:
        async with RayCluster(cluster.address, 1) as c:
            assert c.dispatcher is not None
            runner = ClusterEpisodes(c.dispatcher)
            return await run_batch(runner, [task], oracle, **batch_args("ray"))

    remote = asyncio.run(on_cluster())
    manager = EpisodeManager(server=browser_pool.server, pool=browser_pool)
    local = loop_thread.run(run_batch(manager, [task], oracle, **batch_args("local")))
    loop_thread.run(manager.close())
    (r,), (here,) = remote.outcomes, local.outcomes
    assert r.error is None and r.success and here.success
    assert r.result is not None and here.result is not None
    assert [(d.name, d.passed) for d in r.result.details] == [
        (d.name, d.passed) for d in here.result.details
    ]
    assert sorted(p.name for p in r.folder.iterdir()) == sorted(
        p.name for p in here.folder.iterdir()
    )
    run = json.loads((r.folder / "run.json").read_text())
    assert run["task_folder"] == str(task.folder) and run["eval"]["success"] is True


DRAG_ITEMS = ("t1_goto_below_flag", "t2_yposition_into_gt")


def test_a_drag_run_on_the_cluster_writes_what_a_local_run_writes(
    cluster: Any,
    loop_thread: LoopThread,
    browser_pool: BrowserPool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    items = tmp_path / "items"
    for name in DRAG_ITEMS:
        shutil.copytree(REPO / "diagnostics" / "drag" / name, items / name)
    entries = scan_items(items)
    oracle = OracleDragAgent({e.item.id: e.item for e in entries})
    pool = browser_pool
    protocol = resolve_protocol(None, "drag").model_dump()  # what `drag run` records by default
    local = loop_thread.run(
        run_drag(pool.context, pool.server, entries, oracle, tmp_path / "l", protocol=protocol)
    )
    args = ["drag", "run", str(items), "--agent", "oracle", "--out", str(tmp_path / "ray")]
    code = main([*args, "--json", "--ray", cluster.address])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out

    def timeless(summary: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in summary.items() if k not in ("seconds", "started_at", "run_dir")}

    assert out["pass@1"] == 100.0 and out["errors"] == []
    assert timeless(out) == timeless(local.summary()) | {"items_dir": str(items)}
    remote = Path(out["run_dir"])
    for name in ("predictions.jsonl", "summary.json", "attempts.jsonl"):
        assert (remote / name).is_file(), name

    def attempts(folder: Path) -> dict[str, Any]:
        rows = [json.loads(line) for line in (folder / "attempts.jsonl").read_text().splitlines()]
        for row in rows:
            row.pop("seconds")
            for attempt in row["attempts"]:
                attempt.pop("seconds")
        return {row["id"]: row for row in rows}

    assert attempts(remote) == attempts(tmp_path / "l")
    assert sorted(p.name for p in (remote / "screens").iterdir()) == [
        f"{name}.png" for name in DRAG_ITEMS
    ]


def test_a_forge_on_the_cluster_keeps_what_a_local_forge_keeps(
    cluster: Any,
    loop_thread: LoopThread,
    browser_pool: BrowserPool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`studio forge --ray`: every evaluation of the forge is a call to a worker actor, and the
    outcome (tried, kept, rejected, records) and the forged task equal a local forge's."""
    from studio.app import forging
    from studio.services.distributed.cluster import RaySlot
    from studio.services.forge.pipeline import ForgeOptions

    calls: list[str] = []
    real_call = RaySlot.call

    async def counted(self: RaySlot, method: str, payload: Any) -> Any:
        calls.append(method)
        return await real_call(self, method, payload)

    monkeypatch.setattr(RaySlot, "call", counted)
    flags = ["--reruns", "2", "--per-golden", "1", "--tries", "4", "--no-derive"]
    out = tmp_path / "ray"
    code = main(["forge", str(TASK), "--out", str(out), *flags, "--json", "--ray", cluster.address])
    printed = capsys.readouterr().out
    assert code == 0, printed
    (remote,) = json.loads(printed)
    options = ForgeOptions(reruns=2, per_golden=1, tries=4, derive=False)
    evaluator = Evaluator(browser_pool)
    (local,) = loop_thread.run(
        forging.forge_all(evaluator, [load_task(TASK)], tmp_path / "local", options)
    )
    assert remote["kept"] == 1 and remote["error"] is None, remote
    assert calls == ["evaluate"] * remote["evaluations"]  # all of them on the cluster
    here = local.model_dump(mode="json")
    for outcome in (remote, here):
        outcome.pop("seconds")
        outcome.pop("phases")
    assert remote == here
    (task_id,) = remote["records"]
    for name in ("task.json", "bug.json"):
        assert (out / task_id / name).read_bytes() == (
            tmp_path / "local" / task_id / name
        ).read_bytes()
    for name in ("initial.sb3", "golden.sb3"):  # the same members (zip times may differ)
        assert sb3_members(out / task_id / name) == sb3_members(tmp_path / "local" / task_id / name)


def test_a_node_killed_mid_check_loses_no_result(
    cluster: Any, local_check: dict[str, Any], tmp_path: Path
) -> None:
    victim = cluster.workers[0]
    killed = threading.Event()

    class KillAfterFirst(ClusterEvaluator):
        """Kills a worker node as soon as the first evaluation came back."""

        async def evaluate(self, *args: Any, **kw: Any) -> Any:
            result = await super().evaluate(*args, **kw)
            if not killed.is_set():
                killed.set()
                await asyncio.to_thread(cluster.remove_node, victim, False)
            return result

    async def on_cluster() -> tuple[Any, Any]:
        async with RayCluster(cluster.address, 2) as c:
            assert c.dispatcher is not None
            evaluator = KillAfterFirst(c.dispatcher)
            cache = AgreementCache(tmp_path / "r.json")
            report = await check_tasks(evaluator, [load_task(TASK)], (), OPTIONS, None, cache)
            return report, c.dispatcher.stats

    report, stats = asyncio.run(on_cluster())
    assert killed.is_set()
    assert comparable(report_json(report)) == local_check
    assert [victim.node_id[:8] in name for name in stats.lost] == [True]
    assert stats.done == report.summary.evaluations == 6
