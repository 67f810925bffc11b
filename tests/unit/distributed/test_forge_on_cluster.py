"""`studio forge --ray ADDRESS`: every evaluation of the forge goes to the cluster's workers
(as `check --ray` sends them), and the forge keeps what a local forge keeps. No cluster, no
browser: the cluster is a stand-in for `RayCluster` whose one worker slot receives each
prepared evaluation as a copy (as Ray serializes it) and judges the project by its blocks with
the rule of tests/unit/test_forge.py; one slot is lost after its first result, as a node that
goes away, and its evaluation runs again on the other. The real cluster:
tests/e2e/test_ray_cluster.py.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from studio.models.evaluation import EvalResult, TestDetail
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task
from studio.services.distributed import cluster as cluster_module
from studio.services.distributed.dispatch import Dispatcher, WorkerLost
from studio.services.forge.pipeline import ForgeOptions, forge_golden
from studio.services.runtime.evaluator import Prepared
from tests.helpers.project_checks import sb3_members
from tests.helpers.tasks import make_task
from tests.unit.test_forge import FakeEvaluator, cat_rule


class RuleSlot:
    """A worker slot judging each prepared evaluation by `cat_rule`; `lose_first` loses the
    first result it computed (its node went away before it was fetched)."""

    capacity = 1

    def __init__(self, name: str, lose_first: bool = False) -> None:
        self.name, self.lose_first, self.calls = name, lose_first, 0

    async def call(self, method: str, payload: Any) -> EvalResult:
        assert method == "evaluate"
        prepared = copy.deepcopy(payload)
        assert isinstance(prepared, Prepared)
        self.calls += 1
        await asyncio.sleep(0)
        if self.lose_first and self.calls == 1:
            raise WorkerLost("the node went away")
        data = base64.b64decode(prepared.args["projectB64"])
        verdicts = cat_rule(read_project_json(data, "p.sb3"), int(prepared.result.seed or 0))
        result = prepared.result.model_copy(deep=True)
        result.details = [  # as FakeEvaluator words them
            TestDetail(name=n, passed=ok, error=None if ok else f"{n} failed")
            for n, ok in verdicts.items()
        ]
        result.success = all(verdicts.values())
        return result


def test_forge_with_ray_evaluates_on_the_cluster_and_keeps_what_a_local_forge_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = make_task(tmp_path / "golden")
    # the dispatcher gives a job to the freest slot, the last name on a tie: node-z first
    slots = [RuleSlot("node-z", lose_first=True), RuleSlot("node-a")]
    joined: list[tuple[str, int]] = []

    class StandIn:
        def __init__(self, address: str, capacity: int) -> None:
            joined.append((address, capacity))
            self.dispatcher: Dispatcher | None = None

        async def __aenter__(self) -> StandIn:
            self.dispatcher = Dispatcher(slots)
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

    monkeypatch.setattr(cluster_module, "RayCluster", StandIn)
    out = tmp_path / "forged"
    flags = ["--reruns", "3", "--no-derive", "--workers", "2", "--json"]
    code = main(["forge", str(golden), "--out", str(out), *flags, "--ray", "10.0.0.1:6379"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    (remote,) = json.loads(printed)
    assert joined == [("10.0.0.1:6379", 2)]
    # every evaluation went to a worker; the lost one ran again on the other
    assert sum(s.calls for s in slots) == remote["evaluations"] + 1, [s.calls for s in slots]
    assert [s.calls for s in slots] == [1, remote["evaluations"]]
    local = asyncio.run(
        forge_golden(
            FakeEvaluator(cat_rule),  # type: ignore[arg-type]
            load_task(golden),
            tmp_path / "local",
            ForgeOptions(reruns=3, derive=False, workers=2),
        )
    ).model_dump(mode="json")
    for outcome in (remote, local):
        outcome.pop("seconds")
        outcome.pop("phases")
    assert remote == local and remote["kept"] == 2
    for task_id in remote["records"]:
        for name in ("task.json", "bug.json"):
            here = (tmp_path / "local" / task_id / name).read_bytes()
            assert (out / task_id / name).read_bytes() == here, name
        here_sb3 = sb3_members(tmp_path / "local" / task_id / "initial.sb3")
        assert sb3_members(out / task_id / "initial.sb3") == here_sb3
