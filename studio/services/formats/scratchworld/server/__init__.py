"""The published ScratchWorld server's routes, served by the studio (`studio serve --scratchworld`).

`checkout` finds projects and tasks by name in a checkout, `handler` runs a session's actions
as a studio episode's steps, `sessions` keeps the sessions, `routes` adds the HTTP routes to
the agent API's app, `schemas` holds the published request bodies. The contract followed is
../shared/SCRATCHWORLD_API.md; docs/api.md shows a curl session.
"""

__all__: list[str] = []
