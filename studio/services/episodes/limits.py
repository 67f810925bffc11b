"""Per-episode limits (steps, wall time, tokens, cost) and the price table that turns tokens
into cost.

Tokens are those the model's endpoint reports (`usage.prompt_tokens` and
`usage.completion_tokens` of each reply, summed by the LLM agent's `Usage`); an agent without a
`usage` spends none. The price table is a file the user gives (`--prices FILE`, JSON or TOML):

    {"currency": "USD", "per_tokens": 1000000,
     "models": {"my-model": {"prompt": 2.5, "completion": 10.0}}}

prices per `per_tokens` tokens (default one million). A model missing from the table has no
cost (None), unless a cost limit applies: then it is an error naming the file and the model.
`Limits.exceeded` says which limit an episode has passed, as a message for run.json.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from studio.models.errors import StudioError

__all__ = ["Limits", "Meter", "ModelPrice", "PriceTable", "load_prices", "usage_text"]


class ModelPrice(BaseModel):
    prompt: float = Field(ge=0)
    completion: float = Field(ge=0)


class PriceTable(BaseModel):
    currency: str = "USD"
    per_tokens: int = Field(default=1_000_000, gt=0)
    models: dict[str, ModelPrice] = Field(default_factory=dict)

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
        """What the tokens cost with `model`'s prices (None when the table has no such model)."""
        price = self.models.get(model)
        if price is None:
            return None
        return (
            price.prompt * prompt_tokens + price.completion * completion_tokens
        ) / self.per_tokens


def load_prices(path: Path) -> PriceTable:
    """The price table in `path` (.toml, else JSON); StudioError naming the file and field."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StudioError(f"{path}: cannot be read ({exc})") from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise StudioError(
            f"{path}: not {'TOML' if path.suffix == '.toml' else 'JSON'} ({exc})"
        ) from None
    try:
        return PriceTable.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise StudioError(f"{path}: field '{where}': {first['msg']}") from None


@dataclass(frozen=True)
class Limits:
    """What one episode may spend; None: no limit (steps are the episode manager's)."""

    seconds: float | None = None
    tokens: int | None = None
    cost: float | None = None

    def exceeded(self, seconds: float, tokens: int, cost: float | None) -> str | None:
        if self.seconds is not None and seconds >= self.seconds:
            return f"time limit: {seconds:.1f} s of {self.seconds:g} s"
        if self.tokens is not None and tokens >= self.tokens:
            return f"token limit: {tokens} of {self.tokens}"
        if self.cost is not None and cost is not None and cost >= self.cost:
            return f"cost limit: {cost:.4f} of {self.cost:g}"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "tokens": self.tokens, "cost": self.cost}


def usage_text(usage: dict[str, Any] | None) -> str:
    """A step's or episode's usage for people: 'tokens 100 + 20, cost 0.1400' ('' if none)."""
    if not usage:
        return ""
    text = f"tokens {usage.get('prompt_tokens', 0)} + {usage.get('completion_tokens', 0)}"
    cost = usage.get("cost")
    return text + (f", cost {cost:.4f}" if isinstance(cost, int | float) else "")


class Meter:
    """Tokens and cost of one agent through an episode, step by step."""

    def __init__(self, agent: Any, prices: PriceTable | None = None) -> None:
        self.agent = agent
        self.prices = prices
        self.model = str(
            getattr(getattr(agent, "settings", None), "model", "") or getattr(agent, "name", "")
        )
        self._last = self.totals()

    def totals(self) -> tuple[int, int]:
        usage = getattr(self.agent, "usage", None)
        return int(getattr(usage, "prompt_tokens", 0) or 0), int(
            getattr(usage, "completion_tokens", 0) or 0
        )

    @property
    def metered(self) -> bool:
        return getattr(self.agent, "usage", None) is not None

    def cost(self, prompt: int, completion: int) -> float | None:
        return self.prices.cost(self.model, prompt, completion) if self.prices else None

    def step(self) -> dict[str, Any]:
        """What was spent since the last call: prompt/completion tokens and cost."""
        now = self.totals()
        prompt, completion = now[0] - self._last[0], now[1] - self._last[1]
        self._last = now
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "cost": self.cost(prompt, completion),
        }

    def episode(self) -> dict[str, Any]:
        prompt, completion = self.totals()
        out: dict[str, Any] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "cost": self.cost(prompt, completion),
        }
        calls = getattr(getattr(self.agent, "usage", None), "calls", None)
        if isinstance(calls, int):
            out["calls"] = calls
        if self.prices is not None:
            out["currency"] = self.prices.currency
        return out
