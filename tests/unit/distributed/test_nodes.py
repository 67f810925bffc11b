"""Reading `ray.nodes()`: which nodes may hold a worker, and how they are named."""

from __future__ import annotations

from studio.services.distributed.nodes import NodeCheck, alive_nodes, node_label, summary


def node(host: str, node_id: str, cpus: float, alive: bool = True) -> dict[str, object]:
    return {
        "NodeID": node_id,
        "Alive": alive,
        "NodeManagerHostname": host,
        "NodeManagerAddress": "10.0.0.7",
        "Resources": {"CPU": cpus, "memory": 1e9} if cpus else {"memory": 1e9},
    }


def test_dead_nodes_are_left_out_and_a_node_without_cpu_is_reported() -> None:
    checks = alive_nodes(
        [node("head", "aa" * 20, 0), node("w1", "bb" * 20, 4), node("w2", "cc" * 20, 2, False)]
    )
    labels = [c.label for c in checks]
    assert labels == ["head (10.0.0.7, node aaaaaaaa)", "w1 (10.0.0.7, node bbbbbbbb)"]
    head, w1 = checks
    assert not head.usable and "no CPU" in head.line()
    assert w1.usable and w1.cpus == 4 and w1.line().endswith("ready")
    assert summary(checks) == "1 of 2 nodes usable"


def test_a_node_with_problems_is_named_with_them() -> None:
    check = NodeCheck(node_label(node("gpu7", "dd" * 20, 8)), "dd" * 20, 8)
    check.problems.append("The Scratch GUI bundle is missing at /x")
    assert check.line() == (
        "node gpu7 (10.0.0.7, node dddddddd): not used: The Scratch GUI bundle is missing at /x"
    )
