"""The `Server-Timing` header of the API's observation routes."""

from __future__ import annotations

__all__ = ["server_timing"]


def server_timing(work_s: float) -> dict[str, str]:
    """A `Server-Timing` header naming the time the editor work of a request took, so that a
    client can tell the HTTP overhead of each request (its round trip minus this)."""
    return {"Server-Timing": f"work;dur={work_s * 1000:.3f}"}
