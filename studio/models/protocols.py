"""Run protocols: named settings that make the studio's runs comparable with a paper's tables.

A protocol says, per command (`run`, `drag`, `qa`), which settings its runs use. Each setting
is either *fixed* (the protocol's value; a flag giving another value is refused: the run would
no longer be that protocol's) or an *option* (a setting the paper itself varies, such as
ScratchWorld's primitive mode without the element list or its drag benchmark's ground-truth
start: the flag may change it, and the run records it).

- `studio` (the default): the studio's own settings, every one free: 100 steps per episode,
  primitive mode with the element list, one drag attempt, one answer per question.
- `scratchworld`: the published ScratchWorld runners' settings (../shared/SCRATCHWORLD_API.md
  section 13; the paper's Tables 1 and 2): at most 50 steps per task; primitive mode observes
  a screenshot with the element list (option `element_list`, off = the paper's "screenshots
  only" ablation), composite mode a screenshot with the program's pseudocode; the program is
  evaluated once, at the end; drag items get 3 attempts (Pass@1..3) with the options
  `ground_truth_start` and `knowledge` (the Table 2 settings); a perception question is
  answered once.

Feedback turns (`feedback_turns`, an option of the studio's `run`, 0 by default): how many
times an agent may ask for an evaluation of its program mid-episode (DrawingBench's structured
feedback turn; studio.services.episodes.feedback). ScratchWorld's runners evaluate once, at the
end, so that protocol has no such setting.

The llm agent's planner and memories (`planner` online or global, `action_memory`,
`observation_memory`; studio.services.episodes.agents.llm_planning) are options of both
protocols' `run`, recorded for the llm agent's runs only.

`resolve_protocol(name, command, given)` gives the settings a run uses and records, from the
protocol and the flags given (`None` = not given); `protocol_label(record)` is the short text
that tells a run's settings apart in a report (`scratchworld, no element list`). An unknown
protocol, or a fixed setting given another value, is a `ProtocolError` naming it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError

from studio.models.errors import StudioError

__all__ = [
    "AGENT_SETTINGS", "COMMANDS", "DEFAULT_PROTOCOL", "MAX_FEEDBACK_TURNS", "MODE_SETTINGS",
    "PROMPT_AGENT", "PROTOCOLS",
    "ProtocolError", "ProtocolRecord", "ProtocolSpec", "label_suffix", "protocol_label",
    "protocol_of", "resolve_protocol",
]  # fmt: skip

COMMANDS = ("run", "drag", "qa")
MAX_FEEDBACK_TURNS = 20  # the most feedback turns a run or an API episode may grant
DEFAULT_PROTOCOL = "studio"


class ProtocolError(StudioError, ValueError):
    """An unknown protocol, or a setting that the protocol or the mode does not have."""


class ProtocolSpec(BaseModel):
    """One protocol: per command, its fixed settings and its options (with their defaults)."""

    name: str
    title: str
    fixed: dict[str, dict[str, Any]] = Field(default_factory=dict)
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def defaults(self, command: str) -> dict[str, Any]:
        return {**self.fixed.get(command, {}), **self.options.get(command, {})}


class ProtocolRecord(BaseModel):
    """What a run records of its protocol: the name and the settings it used."""

    name: str = DEFAULT_PROTOCOL
    settings: dict[str, Any] = Field(default_factory=dict)


# the LLM agent's planner and memories (MageBench's settings; studio.services.episodes.agents.
# llm_planning): settings of the llm agent's runs only
_AGENT_DEFAULTS: dict[str, Any] = {"planner": "online", "action_memory": 8, "observation_memory": 1}
AGENT_SETTINGS = tuple(_AGENT_DEFAULTS)
PROMPT_AGENT = "llm"

_STUDIO = ProtocolSpec(
    name="studio",
    title="the studio's own settings",
    options={
        "run": {"steps": 100, "element_list": True, "feedback_turns": 0, **_AGENT_DEFAULTS},
        "drag": {"k": 1, "ground_truth_start": False, "knowledge": False},
        "qa": {"answers_per_question": 1},
    },
)
_SCRATCHWORLD = ProtocolSpec(
    name="scratchworld",
    title="ScratchWorld's published runners (50 steps, element list, drag Pass@1..3)",
    fixed={
        "run": {"steps": 50, "evaluation": "once, at the end of the episode"},
        "drag": {"k": 3},
        "qa": {"answers_per_question": 1},
    },
    options={
        "run": {"element_list": True, **_AGENT_DEFAULTS},
        "drag": {"ground_truth_start": False, "knowledge": False},
    },
)
PROTOCOLS: dict[str, ProtocolSpec] = {p.name: p for p in (_STUDIO, _SCRATCHWORLD)}

_FLAGS = {
    "steps": "--steps",
    "k": "--k",
    "element_list": "--no-element-list",
    "ground_truth_start": "--ground-truth-start",
    "knowledge": "--knowledge",
    "feedback_turns": "--feedback-turns",
}


def _flag(name: str) -> str:
    return _FLAGS.get(name, f"--{name.replace('_', '-')}")


# settings only one interaction mode has (composite mode observes pseudocode, not elements)
MODE_SETTINGS = {"element_list": "primitive"}


def resolve_protocol(
    name: str | None,
    command: str,
    given: dict[str, Any] | None = None,
    mode: str | None = None,
    agent: str | None = None,
) -> ProtocolRecord:
    """The settings of a `command` run under protocol `name` (None: the default) with the
    flags `given` (a value of None is a flag not given), in interaction `mode` and for `agent`
    for `run` (the planner and memories are the llm agent's only). ProtocolError for an
    unknown protocol or command, a flag the command, the mode or the agent does not have, or a
    fixed setting given another value."""
    name = name or DEFAULT_PROTOCOL
    spec = PROTOCOLS.get(name)
    if spec is None:
        known = ", ".join(sorted(PROTOCOLS))
        raise ProtocolError(f"--protocol {name}: unknown protocol (known: {known})")
    if command not in COMMANDS:
        raise ProtocolError(f"protocols know no command '{command}'")
    settings = spec.defaults(command)
    fixed = spec.fixed.get(command, {})
    for key, value in (given or {}).items():
        if value is None:
            continue
        if key not in settings:
            raise ProtocolError(
                f"{_flag(key)}: the {command} runs of protocol {name} have no such setting"
            )
        if mode is not None and MODE_SETTINGS.get(key, mode) != mode:
            raise ProtocolError(
                f"{_flag(key)}: {mode} mode has no {key.replace('_', ' ')} "
                f"(only {MODE_SETTINGS[key]} mode has)"
            )
        if agent is not None and key in AGENT_SETTINGS and agent != PROMPT_AGENT:
            raise ProtocolError(
                f"{_flag(key)}: the {agent} agent has no {key.replace('_', ' ')} "
                f"(only the {PROMPT_AGENT} agent has)"
            )
        if key in fixed and value != fixed[key]:
            raise ProtocolError(
                f"{_flag(key)} {_show(value)}: protocol {name} fixes {key} at "
                f"{_show(fixed[key])} ({spec.title}); leave the flag out or use another "
                "protocol"
            )
        settings[key] = value
    if mode is not None:
        settings = {k: v for k, v in settings.items() if MODE_SETTINGS.get(k, mode) == mode}
    if agent is not None and agent != PROMPT_AGENT:
        settings = {k: v for k, v in settings.items() if k not in AGENT_SETTINGS}
    return ProtocolRecord(name=name, settings=settings)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


_WORDS = {
    ("element_list", False): "no element list",
    ("ground_truth_start", True): "ground-truth start",
    ("knowledge", True): "knowledge",
    ("planner", "global"): "global planner",
}


def protocol_label(record: ProtocolRecord | None, command: str = "run") -> str:
    """Short text telling a run's protocol and settings apart ('' for the studio's defaults):
    the protocol's name (unless it is the default) and each setting that differs from its
    default, e.g. 'scratchworld, no element list' or 'steps 50'."""
    if record is None:
        return ""
    spec = PROTOCOLS.get(record.name)
    parts = [] if record.name == DEFAULT_PROTOCOL else [record.name]
    defaults = spec.defaults(command) if spec is not None else {}
    for key, value in sorted(record.settings.items()):
        if key in defaults and defaults[key] == value:
            continue
        if key not in defaults and spec is not None:
            continue  # a setting of another command
        parts.append(_WORDS.get((key, value), f"{key.replace('_', ' ')} {_show(value)}"))
    return ", ".join(parts)


def protocol_of(raw: Any) -> ProtocolRecord | None:
    """The protocol record in a run's `meta.protocol` (or a summary's `protocol`); None when
    there is none or it is not one."""
    if not isinstance(raw, dict):
        return None
    try:
        return ProtocolRecord.model_validate(raw)
    except ValidationError:
        return None


def label_suffix(record: ProtocolRecord | None, command: str = "run") -> str:
    """' [label]' to append to an agent's name; '' for the studio's defaults."""
    label = protocol_label(record, command)
    return f" [{label}]" if label else ""
