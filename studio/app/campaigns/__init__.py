"""Campaigns: one agent on many tasks, each played `epochs` times, recorded and resumable.

The use case both front ends call (`studio run`, the window's Run ▸ Run campaign…, and bench/):

1. `open_campaign(CampaignRequest(...), warn)` starts a new campaign (its folder and manifest)
   or opens the one `resume` names (request.py, plan.py, protocol.py say what is checked);
2. `plan_episodes(campaign, request, warn)` makes its agents' factory, reads its results
   ledger and plans the episodes left;
3. `await play_campaign(campaign, request, on_event, cancel)` plays them, telling typed
   progress events (events.py) and stopping after the episodes under way once `cancel` is set,
   the folder left for a resume.

Nothing is printed here: warnings go to `warn`, progress to `on_event`; bad input is a
StudioError naming the flag or file, raised before any browser starts.
"""

from .events import (
    CampaignEvent,
    CampaignFailed,
    CampaignFinished,
    CampaignResult,
    CampaignStarted,
    EpisodeDone,
    OnEvent,
    TasksRefused,
)
from .plan import Campaign, Warn, collect_tasks, open_campaign, plan_episodes
from .play import check_tasks, episode_home, play_campaign
from .protocol import resolve_run_protocol, resume_protocol
from .request import CampaignRequest, apply_defaults, limits_for, manifest_settings

__all__ = [
    "Campaign", "CampaignEvent", "CampaignFailed", "CampaignFinished", "CampaignRequest",
    "CampaignResult", "CampaignStarted", "EpisodeDone", "OnEvent", "TasksRefused", "Warn",
    "apply_defaults", "check_tasks", "collect_tasks", "episode_home", "limits_for",
    "manifest_settings", "open_campaign", "plan_episodes", "play_campaign",
    "resolve_run_protocol", "resume_protocol",
]  # fmt: skip
