"""What a campaign is asked to be: `CampaignRequest`, the settings both front ends fill in.

A request names the tasks (task folders or libraries), the agent, mode, epochs (reruns of each
task), seed, protocol and its settings, the per-episode limits and price table, and where the
episodes play (this process's browser, a served API at `api`, a Ray cluster at `ray`), or the
folder of a campaign to resume (`resume`). Fields left None take the protocol's or the
studio's defaults when the campaign is opened (`apply_defaults`): mode composite, 1 epoch,
seed 0, 2 retries, accelerated clock.

- `apply_defaults(request)`: fills those in; StudioError when workers, steps or epochs are
  below 1 or retries below 0 (naming the flags).
- `manifest_settings(request)`: what a resume must reuse, as recorded in the manifest.
- `limits_for(request)`: the per-episode limits (None when none is set) and the price table
  (None without `prices`); StudioError for a cost limit without prices, a limit not above 0,
  or (llm agent) a model missing from the price table.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.app.agents import EPISODE_AGENTS
from studio.models.errors import StudioError
from studio.models.protocols import ProtocolRecord
from studio.services.episodes.limits import Limits, PriceTable, load_prices

__all__ = ["CampaignRequest", "apply_defaults", "limits_for", "manifest_settings"]


@dataclass
class CampaignRequest:
    """The settings of a campaign to start (or, with `resume`, to go on with); opening it
    (studio.app.campaigns.plan) fills the fields left None and `protocol_record`."""

    tasks: list[Path] = field(default_factory=list)
    agent: str | None = None
    mode: str | None = None
    epochs: int | None = None
    resume: Path | None = None
    retries: int | None = None
    workers: int = 1
    out: Path = Path("runs")
    steps: int | None = None
    seed: int | None = None
    realtime: bool | None = None
    actions: Path | None = None
    api: str | None = None
    token: str | None = None
    token_file: Path | None = None
    max_seconds: float | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Path | None = None
    ray: str | None = None
    protocol: str | None = None
    element_list: bool | None = None
    planner: str | None = None
    action_memory: int | None = None
    observation_memory: int | None = None
    feedback_turns: int | None = None  # mid-episode evaluations granted (episodes.feedback)
    protocol_record: ProtocolRecord | None = None


def apply_defaults(request: CampaignRequest) -> None:
    """Fill in the defaults of the fields left None; refuse counts out of range."""
    defaults = (
        ("mode", "composite"),
        ("epochs", 1),
        ("seed", 0),
        ("retries", 2),
        ("realtime", False),
    )
    for name, value in defaults:
        if getattr(request, name) is None:
            setattr(request, name, value)
    steps, epochs = request.steps, request.epochs or 1
    if request.workers < 1 or (steps is not None and steps < 1) or epochs < 1:
        raise StudioError("--workers, --steps and --epochs must be at least 1")
    if (request.retries or 0) < 0:
        raise StudioError("--retries must be 0 or more")


def manifest_settings(request: CampaignRequest) -> dict[str, Any]:
    """What a resume must reuse: recorded in the manifest."""
    record = request.protocol_record
    return {
        "steps": request.steps,
        "realtime": request.realtime,
        "retries": request.retries,
        "actions": str(request.actions) if request.actions else None,
        "max_seconds": request.max_seconds,
        "max_tokens": request.max_tokens,
        "max_cost": request.max_cost,
        "prices": str(request.prices) if request.prices else None,
        "protocol": record.model_dump() if record is not None else None,
    }


def limits_for(request: CampaignRequest) -> tuple[Limits | None, PriceTable | None]:
    """The per-episode limits and the price table the request (or the manifest) gives."""
    prices = load_prices(Path(request.prices)) if request.prices else None
    if request.max_cost is not None and prices is None:
        raise StudioError("--max-cost needs --prices FILE (prices per model)")
    for flag, value in (
        ("--max-seconds", request.max_seconds),
        ("--max-tokens", request.max_tokens),
    ):
        if value is not None and value <= 0:
            raise StudioError(f"{flag} must be more than 0")
    if (
        request.max_cost is not None
        and prices is not None
        and request.agent is not None
        and request.agent in EPISODE_AGENTS
        and "priced" in EPISODE_AGENTS.entry(request.agent).traits
    ):
        from studio.services.episodes.agents.llm import ENV_MODEL  # httpx: the LLM agent's

        model = os.environ.get(ENV_MODEL, "")
        if model and model not in prices.models:
            raise StudioError(
                f"{request.prices}: no prices for model '{model}' (needed by --max-cost)"
            )
    if request.max_seconds is None and request.max_tokens is None and request.max_cost is None:
        return None, prices
    return Limits(request.max_seconds, request.max_tokens, request.max_cost), prices
