"""Making agents: the one place that turns an agent's name into an agent, through the agent
registries.

- `EPISODE_AGENTS`: the agents that play episodes, by name ("oracle", "idle", "random",
  "scripted", "llm"), each a maker (`studio.app.agent_makers`, imported when that agent is
  made) taking an `EpisodeAgentRequest`. A new agent is a maker and one `add` line here (or
  `@EPISODE_AGENTS.register(NAME, help)` on the maker). Traits: `seeded` (uses the seed),
  `needs-file` (needs a file given: the scripted one), `needs-endpoint` (the LLM one),
  `baseline` (played by `studio run --baselines`: idle, then random), `priced` (its episodes
  cost money: `--max-cost` applies).
- `ITEM_AGENTS`: the agents that answer diagnostic items ("oracle", "random", "scripted",
  "llm"), makers taking an `ItemAgentRequest`; trait `reads-prompt`: takes the drag run's
  knowledge hints.
- `episode_agents(name, mode, seed, actions, settings)`: a factory (task, position) -> a fresh
  episode agent of kind `name`; the random agent of position `pos` is seeded `seed + pos`, the
  scripted one replays `actions` (a JSON list of actions, JSON lines, or a folder with
  `<task id>.json`, `<task id>.jsonl` or a recorded `<task id>/steps.jsonl` per task), the LLM
  agent takes its endpoint from STUDIO_LLM_URL / STUDIO_LLM_MODEL / STUDIO_LLM_KEY. `studio
  run` and the window's Run menu both use it.
- `window_agents()`: the episode agents the window offers (those that need nothing given).
- `item_agent(kind, name, items, seed, answers, temperature)`: the agent that answers labeling
  items of `kind` ("drag" or "qa"): the oracle reads its answers in `items` (item id -> item),
  the random one is seeded, the scripted one reads `answers` (JSON lines), the LLM one samples
  at `temperature` when given.

Bad input (an unknown agent, named with the choices; a scripted agent without actions, an
unreadable or malformed actions file, a task without a script in the actions folder) raises
StudioError naming the file or flag.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.services.core.jsonl import json_lines
from studio.services.core.registry import Registry
from studio.services.core.store import TaskFolder
from studio.services.core.untrusted_json import JsonInputError, loads

if TYPE_CHECKING:  # the agents load when one is made, not when the command line is parsed
    from studio.services.episodes.agents.base import Agent

__all__ = [
    "EPISODE_AGENTS", "ITEM_AGENTS", "NEEDS_INPUT", "AgentFactory", "EpisodeAgentMaker",
    "EpisodeAgentRequest", "ItemAgentMaker", "ItemAgentRequest", "episode_agents", "item_agent",
    "load_actions", "task_actions", "window_agents",
]  # fmt: skip

AgentFactory = Callable[[TaskFolder, int], "Agent"]


@dataclass(frozen=True)
class EpisodeAgentRequest:
    """What an episode agent's maker is given: the mode it plays in, the base seed, the
    scripted agent's actions (file or folder) and the run's protocol settings."""

    mode: Mode
    seed: int = 0
    actions: Path | None = None
    settings: dict[str, Any] | None = None


@dataclass(frozen=True)
class ItemAgentRequest:
    """What an item agent's maker is given: the kind of items ("drag" or "qa"), the items by
    id (the oracle's answers), the seed, the scripted agent's answers file, a temperature."""

    kind: str
    items: dict[str, Any]
    seed: int = 0
    answers: Path | None = None
    temperature: float | None = None


EpisodeAgentMaker = Callable[[EpisodeAgentRequest], AgentFactory]
ItemAgentMaker = Callable[[ItemAgentRequest], Any]

NEEDS_INPUT = frozenset({"needs-file", "needs-endpoint"})
_MAKERS = "studio.app.agent_makers"

EPISODE_AGENTS: Registry[EpisodeAgentMaker] = Registry("agent")
EPISODE_AGENTS.add("oracle", f"{_MAKERS}:oracle", "rebuilds the golden program (upper bound)")
EPISODE_AGENTS.add("idle", f"{_MAKERS}:idle", "says done at once", traits=["baseline"])
EPISODE_AGENTS.add(
    "random",
    f"{_MAKERS}:random",
    "random valid actions (a floor)",
    traits=["seeded", "baseline"],
)
EPISODE_AGENTS.add(
    "scripted",
    f"{_MAKERS}:scripted",
    "replays a script of actions (--actions FILE or folder)",
    traits=["needs-file"],
)
EPISODE_AGENTS.add(
    "llm",
    f"{_MAKERS}:llm",
    "a language model acts (STUDIO_LLM_URL, STUDIO_LLM_MODEL, STUDIO_LLM_KEY)",
    traits=["needs-endpoint", "priced"],
)

ITEM_AGENTS: Registry[ItemAgentMaker] = Registry("agent")
ITEM_AGENTS.add("oracle", f"{_MAKERS}:item_oracle", "answers from the items themselves")
ITEM_AGENTS.add("random", f"{_MAKERS}:item_random", "seeded random answers", traits=["seeded"])
ITEM_AGENTS.add(
    "scripted",
    f"{_MAKERS}:item_scripted",
    "reads its answers from --answers FILE (JSON lines)",
    traits=["needs-file"],
)
ITEM_AGENTS.add(
    "llm",
    f"{_MAKERS}:item_llm",
    "a language model answers (STUDIO_LLM_URL, STUDIO_LLM_MODEL)",
    traits=["needs-endpoint", "reads-prompt"],
)


def episode_agents(
    name: str,
    mode: Mode,
    seed: int = 0,
    actions: Path | None = None,
    settings: dict[str, Any] | None = None,
) -> AgentFactory:
    """A function (task, position) -> a fresh agent of kind `name` for that task. `settings`
    (a run's protocol settings) give the LLM agent its planner and memories."""
    maker = EPISODE_AGENTS.get(name)
    return maker(EpisodeAgentRequest(mode, seed, actions, settings))


def window_agents() -> tuple[str, ...]:
    """The episode agents the window's Run menu offers: those that need nothing given (no
    actions file, no model endpoint), in the registry's order."""
    return tuple(e.name for e in EPISODE_AGENTS.entries() if not e.traits & NEEDS_INPUT)


def task_actions(folder: Path, task: TaskFolder) -> list[dict[str, Any]]:
    """A task's script in a folder: <id>.json, <id>.jsonl, or a recorded <id>/steps.jsonl."""
    tid = task.task.id
    for path in (folder / f"{tid}.json", folder / f"{tid}.jsonl", folder / tid / "steps.jsonl"):
        if path.is_file():
            return load_actions(path)
    raise StudioError(f"{folder}: no script for task {tid} ({tid}.json or {tid}/steps.jsonl)")


def load_actions(path: Path) -> list[dict[str, Any]]:
    """A JSON list of actions, or JSON lines (one action, or one recorded step, per line)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudioError(f"{path}: cannot be read ({exc})") from None
    try:
        data = loads(text, path)
        items = data if isinstance(data, list) else [data]
    except JsonInputError:
        items = [value for _, value in json_lines(path)]
    found = [i.get("action", i) if isinstance(i, dict) else i for i in items]
    bad = [n for n, a in enumerate(found, 1) if not (isinstance(a, dict) and "api" in a)]
    if bad:
        raise StudioError(f'{path}: item {bad[0]} is not an action {{"api": ..., "args": ...}}')
    return found


def item_agent(
    kind: str,
    name: str,
    items: dict[str, Any],
    seed: int = 0,
    answers: Path | None = None,
    temperature: float | None = None,
) -> Any:
    """The agent `name` for diagnostic items of `kind` ("drag" or "qa"); `items` maps item ids
    to their items (the oracle reads its answers there)."""
    if kind not in ("drag", "qa"):
        raise StudioError(f"unknown kind of diagnostic item {kind!r} (drag or qa)")
    maker = ITEM_AGENTS.get(name)
    return maker(ItemAgentRequest(kind, items, seed, answers, temperature))
