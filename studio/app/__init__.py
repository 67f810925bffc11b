"""The use cases: what a user of the studio can do, each written once, for both front ends.

The command line (studio.cli) and the window (studio.views) call these rather than assembling
the services themselves:

- `campaigns`: plan, resume and play a campaign, with progress events and a cancel token;
- `serving`: one assembly of the agent API (and the ScratchWorld routes) with one set of checks;
- `task_checks` and `clocks`: check tasks and record the verdict beside each, under one clock
  policy; `equivalence`: mark a surviving mutant equivalent;
- `human_sessions`: the human session protocol, behind a port the window implements;
- `regions`: compute an item's drag regions and record them by one rule;
- `open_task`: the open task's state, which the window's panels read;
- `agents`, `agent_makers`, `formats`, `extensions`: the registries of agents and benchmark
  formats and the use cases over them; `runners`: where episodes, items or evaluations run
  (this machine, a served API, a Ray cluster).

What a front end needs of a service that is not a use case (a data type, a reader, a
formatter) it imports from the service itself. A use case may import `studio.services` and
`studio.models`, never Qt (PySide6, qasync), the views or the command line (import-linter
contracts in pyproject.toml hold this). Its errors are `StudioError`s whose text names the file
or flag at fault, for either front end to show as it shows errors.
"""

__all__: list[str] = []
