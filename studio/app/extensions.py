"""The studio's extension points, by name: where a new agent, episode mode, benchmark format
or report metric goes, and what the front ends list their choices from (`studio run --agent`
and `--mode`, `drag run`/`qa run --agent`, `studio import`/`export FORMAT`, `studio report
--help`, the window's Start agent run dialog).

Each registry (`studio.services.core.registry.Registry`) names its entries with a one-line
help, most by deferred import ("package.module:attribute"), so importing this module loads
none of them: `studio run --help` lists the agents without importing the browser.

- `EPISODE_AGENTS`: agents that play episodes; a maker (EpisodeAgentRequest) -> a factory
  (task, position) -> agent. Registered in `app/agents.py`, makers in `app/agent_makers.py`.
- `ITEM_AGENTS`: agents that answer drag and QA items; a maker (ItemAgentRequest) -> agent.
  Registered in `app/agents.py`.
- `MODES`: episode modes (their names are `studio.models.agent.Mode` values); a maker
  (HandlerOptions) -> ModeHandler. Registered in `services/episodes/mode_registry.py`.
- `IMPORT_FORMATS`, `EXPORT_FORMATS`: benchmark formats a library is imported from or exported
  to; the format's function (plain ones: (src, dest, *, overwrite) -> report). Registered in
  `app/formats.py`.
- `ITEM_SET_IMPORTS`, `ITEM_SET_EXPORTS`: per format, its drag and QA item sets alone, read or
  written (plain functions). Registered in `app/formats.py`.
- `RESULT_READERS`: per format, the reader of its runners' result folders for `studio report`
  (root) -> entries, diagnostics, problems. Registered in `services/runs/result_readers.py`.
- `METRICS`: the report's lines under each table, (report, mode) -> lines. Registered in
  `services/runs/report_metrics.py`, the studio's own in `services/runs/metric_lines.py`.

`REGISTRIES` lists them all; `unresolved()` imports every deferred entry and returns the
problems (an entry whose module moved or whose attribute is gone), for the test that keeps
the registries true.
"""

from __future__ import annotations

from typing import Any

from studio.app.agents import EPISODE_AGENTS, ITEM_AGENTS, window_agents
from studio.app.formats import EXPORT_FORMATS, IMPORT_FORMATS, ITEM_SET_EXPORTS, ITEM_SET_IMPORTS
from studio.services.core.registry import Registry, RegistryError
from studio.services.episodes.mode_registry import MODES
from studio.services.runs.report_metrics import METRICS
from studio.services.runs.result_readers import RESULT_READERS

__all__ = [
    "EPISODE_AGENTS", "EXPORT_FORMATS", "IMPORT_FORMATS", "ITEM_AGENTS", "ITEM_SET_EXPORTS",
    "ITEM_SET_IMPORTS", "METRICS", "MODES", "REGISTRIES", "RESULT_READERS", "unresolved",
    "window_agents",
]  # fmt: skip

REGISTRIES: tuple[Registry[Any], ...] = (
    EPISODE_AGENTS, ITEM_AGENTS, MODES, IMPORT_FORMATS, EXPORT_FORMATS, ITEM_SET_IMPORTS,
    ITEM_SET_EXPORTS, RESULT_READERS, METRICS,
)  # fmt: skip


def unresolved() -> list[str]:
    """Import every deferred entry of every registry; one line per entry that fails (its
    registry's kind, its name, its target and why), empty when all resolve."""
    problems = []
    for registry in REGISTRIES:
        for entry in registry.entries():
            try:
                registry.get(entry.name)
            except RegistryError as exc:
                problems.append(str(exc))
    return problems
