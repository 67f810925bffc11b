"""Making agents: the one place that turns an agent's name into an agent.

- `episode_agents(name, mode, seed, actions)`: a factory (task, position) -> a fresh episode
  agent of kind `name` ("scripted", "idle", "random", "oracle", "llm"); the random agent of
  position `pos` is seeded `seed + pos`, the scripted one replays `actions` (a JSON list of
  actions, JSON lines, or a folder with `<task id>.json`, `<task id>.jsonl` or a recorded
  `<task id>/steps.jsonl` per task), the LLM agent takes its endpoint from STUDIO_LLM_URL /
  STUDIO_LLM_MODEL / STUDIO_LLM_KEY. `studio run` and the window's Run menu both use it.
- `item_agent(kind, name, items, seed, answers, temperature)`: the agent that answers labeling
  items of `kind` ("drag" or "qa"): the oracle reads its answers in `items` (item id -> item),
  the random one is seeded, the scripted one reads `answers` (JSON lines), the LLM one samples
  at `temperature` when given.

Bad input (a scripted agent without actions, an unreadable or malformed actions file, a task
without a script in the actions folder) raises StudioError naming the file or flag.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.services.core.jsonl import json_lines
from studio.services.core.store import TaskFolder
from studio.services.core.untrusted_json import JsonInputError, loads

if TYPE_CHECKING:  # the agents load when one is made, not when the command line is parsed
    from studio.services.episodes.agents.base import Agent

__all__ = [
    "EPISODE_AGENTS", "ITEM_AGENTS", "AgentFactory", "episode_agents", "item_agent", "load_actions",
    "task_actions",
]  # fmt: skip

EPISODE_AGENTS = ("scripted", "idle", "random", "oracle", "llm")
ITEM_AGENTS = ("oracle", "random", "scripted", "llm")

AgentFactory = Callable[[TaskFolder, int], "Agent"]


def episode_agents(
    name: str,
    mode: Mode,
    seed: int = 0,
    actions: Path | None = None,
    settings: dict[str, Any] | None = None,
) -> AgentFactory:
    """A function (task, position) -> a fresh agent of kind `name` for that task. `settings`
    (a run's protocol settings) give the LLM agent its planner and memories."""
    from studio.services.episodes import agents

    if name not in EPISODE_AGENTS:
        raise StudioError(f"unknown agent {name!r} (one of {', '.join(EPISODE_AGENTS)})")
    if name == "llm":
        from studio.services.episodes.agents.llm import LlmSettings
        from studio.services.episodes.agents.llm_planning import AgentOptions, make_llm_agent

        given = settings or {}
        fields = ("planner", "action_memory", "observation_memory")
        options = AgentOptions(**{k: given[k] for k in fields if k in given})
        llm = LlmSettings.from_env()
        return lambda task, _pos: make_llm_agent(llm, mode, task.task.instruction, options)
    if name == "oracle":
        return lambda task, _pos: agents.OracleAgent(task)
    if name == "idle":
        return lambda _task, _pos: agents.IdleAgent()
    if name == "random":
        return lambda _task, pos: agents.RandomAgent(seed=seed + pos)
    if actions is None:
        raise StudioError("--agent scripted needs --actions FILE (a JSON list of actions)")
    if actions.is_dir():
        folder = actions
        return lambda task, _pos: agents.ScriptedAgent(task_actions(folder, task))
    listed = load_actions(actions)
    return lambda _task, _pos: agents.ScriptedAgent(listed)


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
    """The agent `name` for labeling items of `kind` ("drag" or "qa"); `items` maps item ids
    to their items (the oracle reads its answers there)."""
    from studio.services.labeling import agents as d

    if kind not in ("drag", "qa"):
        raise StudioError(f"unknown kind of labeling item {kind!r} (drag or qa)")
    if name not in ITEM_AGENTS:
        raise StudioError(f"unknown agent {name!r} (one of {', '.join(ITEM_AGENTS)})")
    drag = kind == "drag"
    if name == "oracle":
        return d.OracleDragAgent(items) if drag else d.OracleQaAgent(items)
    if name == "random":
        return d.RandomDragAgent(seed) if drag else d.RandomQaAgent(seed)
    if name == "scripted":
        if answers is None:
            raise StudioError("--agent scripted needs --answers FILE (JSON lines)")
        script = d.read_script(answers)
        return d.ScriptedDragAgent(script) if drag else d.ScriptedQaAgent(script)
    from studio.services.episodes.agents.llm import LlmSettings
    from studio.services.labeling.llm_agent import LlmDragAgent, LlmQaAgent

    settings = (
        LlmSettings.from_env()
        if temperature is None
        else LlmSettings.from_env(temperature=temperature)
    )
    return (LlmDragAgent if drag else LlmQaAgent)(settings)
