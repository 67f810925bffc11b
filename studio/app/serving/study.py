"""Serve a human baseline study's participant pages: the study server's start, checked.

`start_study(study, host, port)` refuses a port outside 0-65535 (a StudioError naming
`--port`), then reads the study (`StudyServer`: a StudioError naming the file or task at
fault), starts its evaluation browser and listens on host:port (a StudioError "cannot listen
on HOST:PORT (why)" otherwise). Unlike the agent API, any host may be given: each
participant's link carries the participant's own secret token. The server returned is
running; `links()` gives each participant's link and `close()` stops it.
"""

from __future__ import annotations

from pathlib import Path

from studio.app.serving.options import check_port
from studio.services.studies.server import StudyServer

__all__ = ["start_study"]


async def start_study(study: Path, host: str = "127.0.0.1", port: int = 0) -> StudyServer:
    """The running server of `study` on host:port (see the module doc)."""
    check_port(port)
    server = StudyServer(study, host=host, port=port)
    await server.start()
    return server
