"""ScratchWorld, the published benchmark, under one roof (FORMATS.md, SCRATCHWORLD_API.md).

- `tasks`: a checkout's tasks imported into a library and exported back (import, export,
  layout, the record kept in task.json).
- `items`: the published single-step drag and perception QA sets, imported into item folders
  and exported back byte for byte when unchanged.
- `checkout`: a whole checkout both ways (tasks and items in one go).
- `results`: the result folders the published runners write, read for the report, the bundle
  and the trajectory viewer (`results.reader.FIELD_READER`, named in `runs.result_readers`).
- `submission`: a campaign as a leaderboard submission (one JSONL row per episode) and back.
- `server`: the ScratchWorld-compatible session routes served beside the agent API.
- `published_protocol`: the published evaluation protocol, run as a reference.

Each submodule is imported on its own; this package imports none of them.
"""

__all__: list[str] = []
