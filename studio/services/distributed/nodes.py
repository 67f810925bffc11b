"""The nodes of a cluster: which can hold a studio worker, named so a person finds them.

A node is usable when it has CPUs to give and its worker's probe finds Chromium, the Scratch
GUI bundle and a browser that starts (see `worker.StudioWorker.probe`). Every other node is
reported with its name and the reason, and gets no work.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["NodeCheck", "alive_nodes", "node_label", "summary"]


@dataclass
class NodeCheck:
    """One node: its label, Ray id, CPUs, and the problems that keep it out (none: usable)."""

    label: str
    node_id: str
    cpus: float
    problems: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return not self.problems

    def line(self) -> str:
        """One line for the user."""
        if self.usable:
            return f"node {self.label}: ready"
        return f"node {self.label}: not used: {'; '.join(self.problems)}"


def node_label(node: Mapping[str, Any]) -> str:
    """`host (address, node 1a2b3c4d)` from an entry of `ray.nodes()`."""
    host = str(node.get("NodeManagerHostname") or "?")
    address = str(node.get("NodeManagerAddress") or node.get("NodeName") or "?")
    return f"{host} ({address}, node {str(node.get('NodeID', ''))[:8]})"


def alive_nodes(nodes: Iterable[Mapping[str, Any]]) -> list[NodeCheck]:
    """The live nodes of `ray.nodes()`; one without CPUs is kept out, with that reason."""
    checks = []
    for node in nodes:
        if not node.get("Alive"):
            continue
        cpus = float((node.get("Resources") or {}).get("CPU", 0))
        check = NodeCheck(node_label(node), str(node.get("NodeID", "")), cpus)
        if cpus < 1:
            check.problems.append("it offers no CPU to workers (started with --num-cpus 0)")
        checks.append(check)
    return checks


def summary(checks: Iterable[NodeCheck]) -> str:
    """`2 of 3 nodes usable`."""
    checks = list(checks)
    return f"{sum(c.usable for c in checks)} of {len(checks)} nodes usable"
