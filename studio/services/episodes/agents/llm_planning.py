"""How the LLM agent plans, as MageBench sets its agents up: a *global* planner or an *online*
one with action memory (AM) and observation memory (OM).

- online (the default): every step the model sees the task, its last AM actions with their
  outcomes, and the last OM observations (the current one included; OM = 1 is the current one
  alone), and answers with one action (`LlmAgent`; AM is `LlmSettings.history`, OM
  `LlmSettings.observations`).
- global (`GlobalLlmAgent`): the model sees the first observation only and answers once with
  the whole list of actions; the agent then plays the list in order without asking again
  (whatever the editor shows), and ends with `done` when the list is spent. A reply without a
  usable list is asked for once more, then the agent gives up with `failed`, as the online
  agent does.

`AgentOptions` is what a run records of these (studio.models.protocols calls them settings of
the `run` command): `planner`, `action_memory`, `observation_memory`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Mode, Observation
from studio.services.episodes.agents.llm import (
    LlmAgent,
    LlmSettings,
    ReplyError,
    system_prompt,
)
from studio.services.episodes.agents.llm_prompts import REPLY_FORMAT

__all__ = [
    "GLOBAL_REPLY_FORMAT", "PLANNERS", "AgentOptions", "GlobalLlmAgent", "make_llm_agent",
    "parse_plan",
]  # fmt: skip

PLANNERS = ("online", "global")

GLOBAL_REPLY_FORMAT = """\
You see the editor this once. Plan the whole program now: your actions are carried out in
order without you seeing the screen again, so every action must be right where the previous
ones leave the editor.
Reply format:
1. A few sentences of reasoning: what has to be built and how.
2. The complete list of actions as one JSON array in a fenced block, and nothing after it:
```json
[{"api": "<action name>", "args": {...}}, ...]
```
The program is judged by automatic tests once your list is done."""

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class AgentOptions:
    """The LLM agent's planner and memories (recorded with a run)."""

    planner: str = "online"
    action_memory: int = 8
    observation_memory: int = 1

    def settings(self, base: LlmSettings) -> LlmSettings:
        return replace(base, history=self.action_memory, observations=self.observation_memory)


def parse_plan(reply: str, mode: Mode) -> tuple[list[dict[str, Any]], str]:
    """The list of actions in a global planner's reply (the last fenced JSON array, else the
    last array in the text) and the reasoning before it; ReplyError says what is wrong."""
    found: tuple[Any, int] | None = None
    for match in reversed(list(_FENCE.finditer(reply))):
        try:
            value = json.loads(match.group(2))
        except ValueError:
            continue
        if isinstance(value, list):
            found = (value, match.start())
            break
    if found is None:
        decoder = json.JSONDecoder()
        for pos in reversed([m.start() for m in re.finditer(r"\[", reply)]):
            try:
                value, _ = decoder.raw_decode(reply, pos)
            except ValueError:
                continue
            if isinstance(value, list):
                found = (value, pos)
                break
    if found is None:
        raise ReplyError("it holds no JSON array of actions")
    raw, start = found
    if not raw:
        raise ReplyError("the list of actions is empty")
    plan = []
    for n, item in enumerate(raw, 1):
        if not isinstance(item, dict) or "api" not in item:
            raise ReplyError(f'item {n} of the list is not an action {{"api": ..., "args": ...}}')
        action = {"api": item["api"], "args": item.get("args") or {}}
        try:
            parse_action(action, mode)
        except ActionError as exc:
            raise ReplyError(f"action {n} of the list is invalid: {exc}") from None
        plan.append(action)
    return plan, reply[:start].strip()


@dataclass
class GlobalLlmAgent(LlmAgent):
    """The global planner: one call, the whole list of actions, played in order."""

    _plan: list[dict[str, Any]] | None = field(default=None)
    _planned: str = ""

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        if self._plan is None:
            self._plan, self._planned = await self._ask_plan(observation)
            reasoning = f"[global plan of {len(self._plan)} actions]\n{self._planned}"
        else:
            reasoning = "[global plan]"
        action = self._plan.pop(0) if self._plan else {"api": "done", "args": {}}
        if not self._plan and action["api"] not in ("done", "failed"):
            self._plan.append({"api": "done", "args": {}})  # the list is spent after this one
        return action, reasoning

    async def _ask_plan(self, observation: Observation) -> tuple[list[dict[str, Any]], str]:
        system = system_prompt(self.mode).replace(REPLY_FORMAT, GLOBAL_REPLY_FORMAT)
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": self._user_content(observation)},
        ]
        reply = await self._chat(messages)
        try:
            return parse_plan(reply, self.mode)
        except ReplyError as exc:
            self.usage.malformed_replies += 1
            messages += [
                {"role": "assistant", "content": reply},
                {
                    "role": "user",
                    "content": f"Your reply could not be used: {exc}\nAnswer again: brief "
                    "reasoning, then the whole list of actions as one JSON array in a ```json "
                    "fenced block.",
                },
            ]
            reply = await self._chat(messages)
            try:
                return parse_plan(reply, self.mode)
            except ReplyError as again:
                self.usage.malformed_replies += 1
                return [{"api": "failed", "args": {}}], (
                    f"[the model gave no valid plan twice: {again}]\n{reply}"
                )


def make_llm_agent(
    settings: LlmSettings, mode: Mode, instruction: str, options: AgentOptions | None = None
) -> LlmAgent:
    """The LLM agent for one task with `options` (default: online, AM 8, OM 1)."""
    options = options or AgentOptions()
    tuned = options.settings(settings)
    if options.planner == "global":
        return GlobalLlmAgent(tuned, mode, instruction)
    return LlmAgent(tuned, mode, instruction)
