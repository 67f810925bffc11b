"""The protocol a campaign runs under, and what a resume must keep of it.

The protocols and their settings are `studio.models.protocols`' (`studio` by default,
`scratchworld` for the published runners'). A new campaign's protocol fills in the settings
the request left out and refuses one that would break it (a fixed setting given another
value, a setting the mode or agent does not have); a resumed campaign keeps the protocol its
manifest records, and a protocol or setting asked for on the resume must agree with it. Either
way the request then holds the protocol's step limit and element-list setting, and its
`protocol_record` is what the campaign writes down (manifest and every run.json's
`meta.protocol`). Refusals are StudioErrors naming the flag.
"""

from __future__ import annotations

from typing import Any

from studio.models.errors import StudioError
from studio.models.protocols import MAX_FEEDBACK_TURNS, ProtocolRecord, resolve_protocol

from .request import CampaignRequest

__all__ = ["resolve_run_protocol", "resume_protocol"]


def resolve_run_protocol(request: CampaignRequest) -> ProtocolRecord:
    """The protocol record of a new campaign; request.steps and request.element_list then
    hold the protocol's values."""
    record = resolve_protocol(
        request.protocol, "run", _given(request), mode=request.mode, agent=request.agent
    )
    if record.settings.get("element_list") is False and (request.ray or request.api):
        raise StudioError(
            "--no-element-list plays in this process's browser only: leave out --ray and --api"
        )
    _apply(request, record)
    return record


def resume_protocol(request: CampaignRequest, settings: dict[str, Any]) -> ProtocolRecord:
    """The protocol record a resumed campaign's manifest `settings` hold (a campaign from
    before protocols were recorded: the studio's, with its step limit); a protocol or setting
    given on the resume must agree with it."""
    raw = settings.get("protocol")
    if isinstance(raw, dict):
        record = ProtocolRecord.model_validate(raw)
    else:
        record = resolve_protocol(None, "run", {"steps": settings.get("steps")}, mode=request.mode)
    if request.protocol is not None and request.protocol != record.name:
        raise StudioError(
            f"--protocol {request.protocol}: the campaign in {request.resume} runs under "
            f"protocol {record.name}"
        )
    defaults = resolve_protocol(record.name, "run", mode=request.mode, agent=request.agent)
    for key, value in _given(request).items():
        kept = record.settings.get(key, defaults.settings.get(key))
        if key != "steps" and value is not None and value != kept:
            flag = key.replace("_", "-")
            raise StudioError(
                f"--{flag} {value}: the campaign in {request.resume} was started with {kept}"
            )
    _apply(request, record)
    return record


def _given(request: CampaignRequest) -> dict[str, Any]:
    """The run settings the request gives (None: not given)."""
    for flag, value, least in (
        ("--action-memory", getattr(request, "action_memory", None), 0),
        ("--observation-memory", getattr(request, "observation_memory", None), 1),
        ("--feedback-turns", getattr(request, "feedback_turns", None), 0),
    ):
        if value is not None and value < least:
            raise StudioError(f"{flag} must be at least {least}")
    turns = getattr(request, "feedback_turns", None)
    if turns is not None and turns > MAX_FEEDBACK_TURNS:  # the API's bound, here and everywhere
        raise StudioError(f"--feedback-turns must be at most {MAX_FEEDBACK_TURNS}, not {turns}")
    return {
        "steps": request.steps,
        "element_list": getattr(request, "element_list", None),
        "planner": getattr(request, "planner", None),
        "action_memory": getattr(request, "action_memory", None),
        "observation_memory": getattr(request, "observation_memory", None),
        "feedback_turns": getattr(request, "feedback_turns", None),
    }


def _apply(request: CampaignRequest, record: ProtocolRecord) -> None:
    request.protocol = record.name
    request.protocol_record = record
    if "steps" in record.settings:
        request.steps = record.settings["steps"]
    request.element_list = record.settings.get("element_list", True)
