"""Limits and cost: the price table, the LLM agent's tokens per step and episode (from the fake
endpoint's `usage`), limits that end an episode, and a 5xx endpoint as an environment failure."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, cast

import pytest

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.agents.llm import LlmAgent, LlmSettings
from studio.services.episodes.limits import Limits, PriceTable, load_prices
from studio.services.runs.batch import run_batch
from studio.services.runs.campaign import Ledger
from studio.services.runs.reports import format_table, report_for
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.fake_llm_server import FakeLlmServer
from tests.helpers.tasks import make_task

ADD = '```json\n{"api": "add_block", "args": {"blockType": "looks_say"}}\n```'
# the fake endpoint reports 100 prompt and 20 completion tokens per reply
PRICES = {
    "currency": "EUR",
    "per_tokens": 1000,
    "models": {"m": {"prompt": 1.0, "completion": 2.0}},
}


def test_price_table_in_json_and_toml_and_errors_named(tmp_path: Path) -> None:
    js = tmp_path / "p.json"
    js.write_text(json.dumps(PRICES))
    toml = tmp_path / "p.toml"
    toml.write_text("per_tokens = 1000\n[models.m]\nprompt = 1.0\ncompletion = 2.0\n")
    for path in (js, toml):
        table = load_prices(path)
        assert table.cost("m", 100, 20) == pytest.approx(0.14)  # (100 * 1 + 20 * 2) / 1000
        assert table.cost("other", 100, 20) is None
    bad = tmp_path / "bad.json"
    bad.write_text('{"models": {"m": {"prompt": -1, "completion": 0}}}')
    with pytest.raises(StudioError, match=rf"{bad}: field 'models.m.prompt'"):
        load_prices(bad)
    bad.write_text("{")
    with pytest.raises(StudioError, match=rf"{bad}: not JSON"):
        load_prices(bad)


def test_limits_say_which_one_was_passed() -> None:
    limits = Limits(seconds=60, tokens=250, cost=1.0)
    assert limits.exceeded(10, 100, 0.5) is None
    assert limits.exceeded(61, 0, None) == "time limit: 61.0 s of 60 s"
    assert limits.exceeded(0, 360, None) == "token limit: 360 of 250"
    assert limits.exceeded(0, 0, 1.2) == "cost limit: 1.2000 of 1"


def _task(tmp_path: Path) -> TaskFolder:
    return load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))


def test_llm_tokens_and_cost_per_step_episode_and_campaign(tmp_path: Path) -> None:
    task = _task(tmp_path)
    manager: Any = FakeEpisodeManager()  # the episode manager's interface, faked
    run_dir = tmp_path / "run"
    with FakeLlmServer([ADD]) as llm:
        settings = LlmSettings(url=llm.url, model="m", retries=0)
        batch = asyncio.run(
            run_batch(
                manager, [task], lambda t, p: LlmAgent(settings, Mode.COMPOSITE, "say"),
                Mode.COMPOSITE, run_dir, agent_name="llm", epochs=2, ledger=Ledger(run_dir),
                limits=Limits(tokens=250), prices=PriceTable.model_validate(PRICES),
            )
        )  # fmt: skip
    # 120 tokens a reply: after three replies (360) the limit of 250 ends the episode
    for episode in manager.ended:
        assert [r.usage for r in episode.records] == [
            {"prompt_tokens": 100, "completion_tokens": 20, "cost": pytest.approx(0.14)}
        ] * 3
    run = json.loads((run_dir / "create_a" / "epoch-1" / "run.json").read_text())
    assert run["meta"]["limit"] == "token limit: 360 of 250"
    assert run["meta"]["usage"] == {
        "prompt_tokens": 300, "completion_tokens": 60, "cost": pytest.approx(0.42),
        "calls": 3, "currency": "EUR",
    }  # fmt: skip
    assert batch.spent() == {
        "prompt_tokens": 600, "completion_tokens": 120, "cost": pytest.approx(0.84)
    }  # fmt: skip
    cell = report_for(run_dir).rows[0].overall
    assert (cell.prompt_tokens, cell.completion_tokens) == (600, 120)
    assert cell.cost == pytest.approx(0.84)
    assert "tokens 600 in / 120 out; cost 0.8400" in format_table(report_for(run_dir))


def test_a_5xx_endpoint_is_an_environment_failure_retried(tmp_path: Path) -> None:
    task = _task(tmp_path)
    run_dir = tmp_path / "run"
    with FakeLlmServer([(503, "overloaded"), (503, "overloaded"), ADD, '{"api": "done"}']) as llm:
        settings = LlmSettings(url=llm.url, model="m", retries=0)
        batch = asyncio.run(
            run_batch(
                cast(Any, FakeEpisodeManager()), [task],
                lambda t, p: LlmAgent(settings, Mode.COMPOSITE, "say"), Mode.COMPOSITE, run_dir,
                agent_name="llm", ledger=Ledger(run_dir), retries=1,
            )
        )  # fmt: skip
    (outcome,) = batch.outcomes
    assert outcome.failure == "environment" and outcome.retries == 1
    assert "answered 503" in (outcome.error or "")
    run = json.loads((run_dir / "create_a" / "run.json").read_text())
    assert run["meta"]["failure"] == "environment"
    assert Ledger(run_dir).done == {}  # a resume plays it again
    assert report_for(run_dir).rows[0].overall.env_failures == 1
