"""The end-region prediction replays scratch-blocks' snapping over the drag's mouse steps."""

from __future__ import annotations

from typing import Any

from studio.services.diagnostics.drag.regions import owner_matches, predict_end, simulate_drop


def snap(targets: list[list[float]]) -> dict[str, Any]:
    # one dragged connection at (100, 100) on screen; radii as in the bundle at zoom 0.675
    return {
        "connections": [{"x": 100.0, "y": 100.0, "targets": targets}],
        "snap": 48 * 0.675,
        "connecting": 68 * 0.675,
        "preference": 20 * 0.675,
    }


def test_drop_on_the_intended_connection() -> None:
    s = snap([[300.0, 100.0, 1]])
    assert simulate_drop(s, (110, 110), (310, 110))  # the connections meet exactly
    assert simulate_drop(s, (110, 110), (335, 110))  # 25 px off: within the snap radius
    assert not simulate_drop(s, (110, 110), (360, 110))  # 50 px: beyond both radii
    assert not simulate_drop(s, (110, 110), (310, 150))  # 40 px below, never closer
    assert not simulate_drop(snap([]), (110, 110), (310, 110))


def test_a_competing_connection_wins_when_closer() -> None:
    s = snap([[300.0, 100.0, 1], [300.0, 130.0, 0]])
    assert simulate_drop(s, (110, 110), (310, 112))
    assert not simulate_drop(s, (110, 110), (310, 138))


def test_the_connecting_radius_keeps_a_candidate_found_on_the_way() -> None:
    s = snap([[300.0, 100.0, 1]])
    # 38 px past the target: outside the snap radius, but the path passed over the target
    assert simulate_drop(s, (110, 110), (348, 110))
    assert not simulate_drop(s, (110, 110), (310, 148))  # 38 px below, never closer


def test_predicted_region_leaves_out_the_palette() -> None:
    geometry = {
        "aim_point": {"x": 330.0, "y": 100.0},
        "dragged_point": {"x": 500.0, "y": 100.0},
        "snap_radius": 48,
        "scale": 0.675,
        "flyout_box": {"x": 60, "y": 90, "w": 253, "h": 600},
    }
    s = {
        "connections": [{"x": 500.0, "y": 100.0, "targets": [[330.0, 100.0, 1]]}],
        "snap": 32.4,
        "connecting": 45.9,
        "preference": 13.5,
    }
    region, centre = predict_end(geometry, s, (510, 110), 5)
    assert centre == (340, 110)
    assert region and all(x > 313 for x, _ in region)
    assert (340, 110) in region


def test_owner_matching() -> None:
    canvas = {"source": "canvas", "target_id": "a", "target_opcode": "x", "flyout_index": 0}
    assert owner_matches({"kind": "canvas", "id": "a"}, canvas)
    assert not owner_matches({"kind": "canvas", "id": "b"}, canvas)
    palette = {"source": "flyout", "target_id": None, "target_opcode": "x", "flyout_index": 1}
    assert owner_matches({"kind": "flyout", "opcode": "x", "index": 1}, palette)
    assert not owner_matches({"kind": "flyout", "opcode": "x", "index": 0}, palette)
