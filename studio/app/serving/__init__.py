"""Serving: the agent HTTP API (with, when asked, the ScratchWorld-compatible routes) and a
study's participant pages, started the same way from the command line and the window.

- `options`: `ServeOptions`, the one set of checks (`check_options`), the edition served;
- `agent_api`: `start_serving`, the one assembly of the API, returning a `Serving` handle
  (its URL, `close()`);
- `study`: `start_study`, a study's server started after its checks;
- `until_stopped`: `serve_until_stopped`, serving until SIGINT or SIGTERM.

Importing this package loads none of them (the HTTP stack and the browser driver are
heavy): import the submodule you use.
"""

__all__: list[str] = []
