"""`studio propose` refuses, before any browser starts, what it must not do or cannot watch."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from studio.cli import main
from studio.models.errors import StudioError
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition
from tests.helpers.sample_task import project_json, sb3_bytes
from tests.helpers.tasks import make_task


def test_the_task_script_is_never_overwritten_without_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_task(tmp_path / "walk")
    before = (folder / "evaluate.js").read_text()
    code = main(["propose", str(folder), "--out", str(folder / "evaluate.js")])
    assert code == 2
    assert "pass --replace" in capsys.readouterr().err
    assert (folder / "evaluate.js").read_text() == before


def test_a_program_reading_the_time_of_day_gets_no_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_task(tmp_path / "clock")
    blocks = {
        "flag": {"opcode": "event_whenflagclicked", "next": "say", "parent": None, "inputs": {},
                 "fields": {}, "shadow": False, "topLevel": True, "x": 0, "y": 0},
        "say": {"opcode": "looks_say", "next": None, "parent": "flag",
                "inputs": {"MESSAGE": [3, "now", [10, ""]]}, "fields": {}, "shadow": False,
                "topLevel": False},
        "now": {"opcode": "sensing_current", "next": None, "parent": "say", "inputs": {},
                "fields": {"CURRENTMENU": ["HOUR", None]}, "shadow": False, "topLevel": False},
    }  # fmt: skip
    (folder / "golden.sb3").write_bytes(sb3_bytes(project_json(blocks)))
    assert main(["propose", str(folder), "--json"]) == 2
    err = capsys.readouterr().err
    assert "golden.sb3" in err and "real time of day" in err and "Cat" in err
    assert not (folder / "evaluate.proposed.js").exists()


def test_a_broken_golden_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_task(tmp_path / "broken")
    with zipfile.ZipFile(folder / "golden.sb3", "w") as zf:
        zf.writestr("project.json", json.dumps({"targets": "no"})[:-3])
    assert main(["propose", str(folder)]) == 2
    assert "golden.sb3" in capsys.readouterr().err


def test_a_classic_library_is_watched_on_classic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_task(tmp_path / "lib" / "walk")
    editions.write_edition(tmp_path / "lib", Edition.CLASSIC)
    monkeypatch.setenv(editions.info(Edition.CLASSIC).env, str(tmp_path / "no-bundle"))
    assert main(["propose", str(folder)]) == 2  # refused before a browser starts
    assert "is recorded for the classic edition" in capsys.readouterr().err
    seen: list[Edition] = []

    class Pool:
        def __init__(self, *args: object, edition: Edition, **kw: object) -> None:
            seen.append(edition)
            raise StudioError("no browser here")

    monkeypatch.setattr("studio.services.runtime.browser.BrowserPool", Pool)
    monkeypatch.setattr(editions, "require_installed", lambda *a: None)
    assert main(["propose", str(folder)]) == 2
    assert main(["propose", str(folder), "--edition", "current"]) == 2
    assert seen == [Edition.CLASSIC, Edition.CURRENT]


def test_a_script_the_initial_program_passes_is_said_plainly_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As for extend_frog_jump: every kept test also holds on the initial program."""
    import contextlib

    from studio.services.propose.model import Proposal
    from studio.services.propose.pipeline import INITIAL_PASSES, ProposalReport
    from studio.services.propose.selection import Selection

    folder = make_task(tmp_path / "walk")
    kept = Proposal(
        id="p1", kind="end", scenario="flag", key="Cat.x", expected=50, words="the Cat x ends at 50"
    )
    kept.kills = ["m1"]
    report = ProposalReport(
        task_id="walk", category="extend", scenarios=[], candidates=[kept],
        selection=Selection(kept=[kept], usable=1, mutants_total=2, mutants_killed=1,
                            initial_failed=False),
        golden_passed=True, script="// proposed\n", warnings=[INITIAL_PASSES],
    )  # fmt: skip

    async def fake_propose(*_: object, **__: object) -> ProposalReport:
        return report

    @contextlib.asynccontextmanager
    async def no_browser(*_: object, **__: object):  # type: ignore[no-untyped-def]
        yield None

    monkeypatch.setattr("studio.services.propose.pipeline.propose", fake_propose)
    monkeypatch.setattr("studio.services.runtime.browser.BrowserPool", no_browser)
    monkeypatch.setattr("studio.services.runtime.evaluator.Evaluator", lambda pool: None)
    monkeypatch.setattr(editions, "require_installed", lambda *a: None)
    assert main(["propose", str(folder)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"walk: WEAK SCRIPT: {INITIAL_PASSES}"
    assert "an agent that does nothing would score 100 %" in out[0]
    assert any(line.endswith("the initial program PASSES (weak: see above)") for line in out)
    assert not any("golden passes on every rerun" in line and "PASSES" not in line for line in out)
    assert main(["propose", str(folder), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["initial_failed"] is False and data["warnings"][0] == INITIAL_PASSES
