"""Agents on the diagnostics, end to end: real drags in the editor, QA through the command line.

The oracle's drag on a shipped item connects (Pass@1 100%) and a random drag gets a verdict
(one item, one attempt each: the suite has a time budget). QA needs no browser: `studio qa
run` with the oracle is right on every question and the random agent's summary is complete;
`studio report` then lists the drag and QA runs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from studio import cli
from studio.services.core import paths
from studio.services.diagnostics.agents import OracleDragAgent, RandomDragAgent
from studio.services.diagnostics.drag.item import scan_items
from studio.services.diagnostics.drag.page import open_window
from studio.services.diagnostics.drag.run import run_drag
from studio.services.diagnostics.drag.scoring import read_predictions
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

ITEM = paths.PROJECT_ROOT / "diagnostics" / "drag" / "t2_yposition_into_gt"
QA_SET = paths.PROJECT_ROOT / "diagnostics" / "qa"


def test_drag_runs_with_real_drags(
    tmp_path: Path, browser_pool: Any, loop_thread: LoopThread
) -> None:
    items = tmp_path / "items"
    shutil.copytree(ITEM, items / ITEM.name)
    entries = scan_items(items)
    pool = browser_pool
    runs = tmp_path / "runs"
    oracle = OracleDragAgent({e.item.id: e.item for e in entries})
    seen: list[tuple[int, int, str]] = []
    window = loop_thread.run(open_window(pool.context, pool.server))  # both agents use it
    done = loop_thread.run(
        run_drag(
            pool.context,
            pool.server,
            entries,
            oracle,
            runs / "oracle-drag",
            on_done=lambda d, t, r: seen.append((d, t, r.line())),
            windows=[window],
        )
    )
    out = done.summary()
    assert out["pass@1"] == 100.0, done.items[0].line()
    assert out["start_acc"] == 100.0 and out["end_acc"] == 100.0 and out["errors"] == []
    assert out["T2"]["pass@1"] == 100.0 and out["T1"]["items"] == 0
    assert seen[0][:2] == (1, 1) and seen[0][2].startswith("PASS")
    attempt = done.items[0].attempts[0]
    assert attempt.verdict is not None and attempt.verdict.moved and attempt.verdict.connected
    folder = runs / "oracle-drag"
    png = (folder / "screens" / f"{ITEM.name}.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        read_predictions(folder / "predictions.jsonl")[0].attempts[0].start
        == attempt.decision.start
    )
    assert json.loads((folder / "summary.json").read_text())["pass@1"] == 100.0

    rnd = loop_thread.run(
        run_drag(
            pool.context,
            pool.server,
            entries,
            RandomDragAgent(0),
            runs / "random-drag",
            windows=[window],
        )
    )
    loop_thread.run(window.close())
    attempt = rnd.items[0].attempts[0]
    assert rnd.items[0].problem is None and attempt.verdict is not None
    assert rnd.summary()["pass@1"] in (0.0, 100.0)

    # the QA runs through the command line, then the report lists all four
    qa = tmp_path / "qa"
    shutil.copytree(QA_SET, qa)
    for agent in ("oracle", "random"):
        code = cli.main(["qa", "run", str(qa), "--agent", agent, "--out", str(runs), "--json"])
        assert code == 0
    oracle_qa = json.loads(next(runs.glob("oracle-qa-*/summary.json")).read_text())
    assert oracle_qa["overall"] == 100.0 and oracle_qa["field_exact"] == 100.0
    random_qa = json.loads(next(runs.glob("random-qa-*/summary.json")).read_text())
    assert random_qa["items"] == oracle_qa["items"] > 0 and random_qa["errors"] == []
    assert all(random_qa[t] is not None for t in ("connection", "existence", "field"))
    assert cli.main(["report", str(runs)]) == 0


def test_report_json_lists_diagnostics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qa = tmp_path / "qa"
    shutil.copytree(QA_SET, qa)
    runs = tmp_path / "runs"
    assert cli.main(["qa", "run", str(qa), "--agent", "oracle", "--out", str(runs)]) == 0
    text = capsys.readouterr().out
    assert "accuracy 100.00%" in text and "recorded in" in text
    assert cli.main(["report", str(runs), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(d["kind"], d["agent"]) for d in report["diagnostics"]] == [("qa", "oracle")]
    assert report["diagnostics"][0]["scores"]["overall"] == 100.0
