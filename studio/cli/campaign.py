"""The campaign flags of `studio run` (studio.cli.run) as a `CampaignRequest`, and back.

`campaign_for(args)` opens the campaign the flags name (studio.app.campaigns.open_campaign:
a new one, or the one --resume names), its warnings printed on stderr; `args` then holds the
campaign's settings, as the request does. `limits_for(args)`: the per-episode limits and the
price table the flags give. Bad input is a StudioError naming the flag or file.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from typing import Any

from studio.app.campaigns import Campaign, CampaignRequest, open_campaign
from studio.app.campaigns import limits_for as request_limits

__all__ = ["campaign_for", "limits_for", "request_for", "warn"]


def request_for(args: argparse.Namespace) -> CampaignRequest:
    """The request the parsed `studio run` flags make (flags a command lacks: left None)."""
    given: dict[str, Any] = {}
    for f in fields(CampaignRequest):
        if hasattr(args, f.name):
            given[f.name] = getattr(args, f.name)
    return CampaignRequest(**given)


def campaign_for(args: argparse.Namespace) -> Campaign:
    """The campaign the flags start or resume; `args` takes its settings."""
    request = request_for(args)
    opened = open_campaign(request, warn)
    for f in fields(CampaignRequest):
        setattr(args, f.name, getattr(request, f.name))
    args.campaign_dir = opened.run_dir  # named if the run is stopped
    return opened


def limits_for(args: argparse.Namespace) -> tuple[Any, Any]:
    """The per-episode limits and the price table the flags (or the manifest) give."""
    return request_limits(request_for(args))


def warn(line: str) -> None:
    """A warning of the campaign, on stderr."""
    print(line, file=sys.stderr)
