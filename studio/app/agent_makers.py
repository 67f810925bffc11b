"""The studio's own agents, each a maker that the agent registries (`studio.app.agents`)
name by deferred import, so an agent's code loads only when that agent is made.

An episode agent's maker takes an `EpisodeAgentRequest` (mode, seed, actions, settings) and
returns a factory (task, position) -> a fresh agent; an item agent's maker takes an
`ItemAgentRequest` (kind "drag" or "qa", the items by id, seed, answers, temperature) and
returns the agent. What each needs that is missing raises StudioError naming the flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from studio.app.agents import (
    AgentFactory,
    EpisodeAgentRequest,
    ItemAgentRequest,
    load_actions,
    task_actions,
)
from studio.models.errors import StudioError

if TYPE_CHECKING:
    from studio.services.core.store import TaskFolder

__all__ = [
    "idle", "item_llm", "item_oracle", "item_random", "item_scripted", "llm", "oracle", "random",
    "scripted",
]  # fmt: skip


def oracle(_request: EpisodeAgentRequest) -> AgentFactory:
    """The oracle: rebuilds the task's golden program."""
    from studio.services.episodes.agents import OracleAgent

    return lambda task, _pos: OracleAgent(task)


def idle(_request: EpisodeAgentRequest) -> AgentFactory:
    """The idle agent: says done at once."""
    from studio.services.episodes.agents import IdleAgent

    return lambda _task, _pos: IdleAgent()


def random(request: EpisodeAgentRequest) -> AgentFactory:
    """The random agent of position `pos`, seeded `seed + pos`."""
    from studio.services.episodes.agents import RandomAgent

    seed = request.seed
    return lambda _task, pos: RandomAgent(seed=seed + pos)


def scripted(request: EpisodeAgentRequest) -> AgentFactory:
    """Replays `actions`: a JSON list or JSON lines file, or a folder of per-task scripts."""
    from studio.services.episodes.agents import ScriptedAgent

    actions = request.actions
    if actions is None:
        raise StudioError("--agent scripted needs --actions FILE (a JSON list of actions)")
    if actions.is_dir():
        folder = actions

        def per_task(task: TaskFolder, _pos: int) -> Any:
            return ScriptedAgent(task_actions(folder, task))

        return per_task
    listed = load_actions(actions)
    return lambda _task, _pos: ScriptedAgent(listed)


def llm(request: EpisodeAgentRequest) -> AgentFactory:
    """A language model (STUDIO_LLM_URL / STUDIO_LLM_MODEL / STUDIO_LLM_KEY) with the run's
    planner and memories from its protocol settings."""
    from studio.services.episodes.agents.llm import LlmSettings
    from studio.services.episodes.agents.llm_planning import AgentOptions, make_llm_agent

    given = request.settings or {}
    fields = ("planner", "action_memory", "observation_memory")
    options = AgentOptions(**{k: given[k] for k in fields if k in given})
    settings = LlmSettings.from_env()
    mode = request.mode
    turns = given.get("feedback_turns") or 0

    def per_task(task: TaskFolder, _pos: int) -> Any:
        agent = make_llm_agent(settings, mode, task.task.instruction, options)
        agent.feedback_turns = turns  # told in its prompt while turns are left
        return agent

    return per_task


def item_oracle(request: ItemAgentRequest) -> Any:
    """Answers from the items themselves (their regions or answers)."""
    from studio.services.diagnostics import agents as d

    drag = request.kind == "drag"
    return d.OracleDragAgent(request.items) if drag else d.OracleQaAgent(request.items)


def item_random(request: ItemAgentRequest) -> Any:
    """Seeded random answers."""
    from studio.services.diagnostics import agents as d

    drag = request.kind == "drag"
    return d.RandomDragAgent(request.seed) if drag else d.RandomQaAgent(request.seed)


def item_scripted(request: ItemAgentRequest) -> Any:
    """Reads its answers from `answers` (JSON lines)."""
    from studio.services.diagnostics import agents as d

    if request.answers is None:
        raise StudioError("--agent scripted needs --answers FILE (JSON lines)")
    script = d.read_script(request.answers)
    return d.ScriptedDragAgent(script) if request.kind == "drag" else d.ScriptedQaAgent(script)


def item_llm(request: ItemAgentRequest) -> Any:
    """A language model at STUDIO_LLM_URL, sampling at `temperature` when given."""
    from studio.services.diagnostics.llm_agent import LlmDragAgent, LlmQaAgent
    from studio.services.episodes.agents.llm import LlmSettings

    temperature = request.temperature
    settings = (
        LlmSettings.from_env()
        if temperature is None
        else LlmSettings.from_env(temperature=temperature)
    )
    return (LlmDragAgent if request.kind == "drag" else LlmQaAgent)(settings)
