"""`studio export inspect`: campaigns as Inspect AI eval logs, read back with inspect_ai's own
reader. inspect_ai is an optional extra (`pip install '.[inspect]'`): the round trip is
skipped where it is not installed; the message without it is checked everywhere."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio.models.errors import StudioError
from studio.services.runs.inspect_log import export_inspect
from tests.unit.trajectories.build import result, run_info, step, write_trajectory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sw_results"


def two_epochs(root: Path) -> Path:
    """The oracle on task_a twice (passing, then 1 of 2 tests) and on task_b once."""
    for n, (task, outcome) in enumerate(
        [("task_a", {"t1": True, "t2": True}), ("task_a", {"t1": True, "t2": False}),
         ("task_b", {"t1": False})]
    ):  # fmt: skip
        run = run_info(task, agent="oracle", eval=result(task, outcome), episode_id=f"e{n}")
        steps = [step(1, "click", x=5, y=6), step(2, "done")]
        steps[0].reasoning = "press the green flag"
        write_trajectory(root / "oracle-primitive-1" / f"{task}-{n}", steps, run=run)
    return root


def test_without_the_package_the_error_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "inspect_ai", None)
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)
    with pytest.raises(StudioError, match=r"pip install '\.\[inspect\]'"):
        export_inspect(two_epochs(tmp_path / "runs"), tmp_path / "out.eval")


def test_campaigns_round_trip_through_inspects_own_log_reader(tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    out = tmp_path / "oracle.eval"
    done = export_inspect(two_epochs(tmp_path / "runs"), out)
    assert [(p, agent, mode, n) for p, agent, mode, n in done.logs] == [
        (out, "oracle", "primitive", 3)
    ]
    log = read_eval_log(str(out))
    assert log.status == "success" and log.eval.model == "studio/oracle"
    assert log.eval.task == "scratch-bench/primitive" and log.eval.config.epochs == 2
    metrics = {s.name: next(iter(s.metrics.values())).value for s in log.results.scores}
    assert metrics == pytest.approx({"success": 1 / 3, "psr": (1 + 0.5 + 0) / 3})
    assert log.samples is not None
    ids = sorted(
        (s.id, s.epoch, s.scores["success"].value, s.scores["psr"].value) for s in log.samples
    )
    assert ids == [("task_a", 1, 1.0, 1.0), ("task_a", 2, 0.0, 0.5), ("task_b", 1, 0.0, 0.0)]
    first = next(s for s in log.samples if (s.id, s.epoch) == ("task_a", 1))
    assert first.messages[1].text.startswith("press the green flag\n\naction: ")
    assert '"x": 5' in first.messages[1].text and len(first.messages) == 3


def test_scratchworld_folders_export_one_log_per_agent_and_mode(tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    with pytest.raises(StudioError, match="give a folder instead"):
        export_inspect(FIXTURE, tmp_path / "one.eval")
    done = export_inspect(FIXTURE, tmp_path / "logs")
    assert [p.name for p, *_ in done.logs] == [
        "gpt-4o_scratch_agent-composite.eval", "gpt-4o_scratch_agent-primitive.eval",
    ]  # fmt: skip
    log = read_eval_log(str(done.logs[1][0]))
    assert log.samples is not None
    extend = next(s for s in log.samples if s.id == "extend_rain_clones")
    assert extend.error is not None and "Read timed out" in extend.error.message
    create = next(s for s in log.samples if s.id == "create_balloon_score")
    assert create.input == "Instruction of create_balloon_score"  # from task_config.json
