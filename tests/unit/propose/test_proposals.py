"""Proposals from recorded traces (no browser): what differs becomes tests in plain words."""

from __future__ import annotations

from studio.services.propose.model import Proposal, Recording
from studio.services.propose.proposals import describe_observable, propose_tests
from studio.services.propose.scenarios import Scenario

FLAG = Scenario("flag", "after the green flag", [{"at": 0, "do": "flag", "arg": ""}], 2000)


def _walk(step_ms: int = 100, y: float = 0.0) -> Recording:
    xs = [(0, -100.0)] + [(step_ms * (i + 1), -100.0 + 15 * (i + 1)) for i in range(10)]
    return Recording(
        changes={"Cat.x": xs, "Cat.y": [(0, y)], "Cat.size": [(0, 100.0)], "var:n": [(0, 0.0)]},
        end={"Cat.x": 50.0, "Cat.y": y, "Cat.size": 100.0, "var:n": 0.0},
        says=[(1100, "Cat", "done")],
        broadcasts=[(1100, "walked")],
    )


def _idle() -> Recording:
    return Recording(
        changes={
            "Cat.x": [(0, -100.0)],
            "Cat.y": [(0, 0.0)],
            "Cat.size": [(0, 100.0)],
            "var:n": [(0, 0.0)],
        },
        end={"Cat.x": -100.0, "Cat.y": 0.0, "Cat.size": 100.0, "var:n": 0.0},
    )


def _by_kind(props: list[Proposal]) -> dict[str, list[Proposal]]:
    out: dict[str, list[Proposal]] = {}
    for p in props:
        out.setdefault(p.kind, []).append(p)
    return out


def test_a_walk_gives_end_sequence_timing_period_and_what_stays() -> None:
    props = propose_tests([FLAG], [{"flag": _walk()}, {"flag": _walk()}], {"flag": _idle()},
                          "The Cat should end at x: 50")  # fmt: skip
    kinds = _by_kind(props)
    end = kinds["end"][0]
    assert (end.key, end.expected, end.words) == (
        "Cat.x",
        50.0,
        "after the green flag, the Cat's x ends at 50",
    )
    assert end.mentioned
    assert kinds["sequence"][0].expected[:2] == [-100.0, -85.0]
    assert "→ … → 50" in kinds["sequence"][0].words
    reach = kinds["reach_time"][0]
    assert reach.value == 50.0 and reach.expected[0] < 1000 < reach.expected[1]
    assert kinds["period"][0].count >= 4
    steady = {p.key for p in kinds["steady"]}
    assert steady == {"Cat.y", "Cat.size"}  # the variable does not belong to the moving sprite
    assert kinds["says"][0].expected == ["done"]
    assert kinds["broadcasts"][0].expected == ["walked"]
    assert len({p.words for p in props}) == len(props)
    assert all(p.excerpt for p in props)


def test_random_behaviour_gives_a_range_not_an_exact_value() -> None:
    props = propose_tests(
        [FLAG], [{"flag": _walk(y=10.0)}, {"flag": _walk(y=-20.0)}], {"flag": _idle()}
    )
    ranges = [p for p in props if p.key == "Cat.y"]
    assert [p.kind for p in ranges] == ["range"]
    assert ranges[0].expected == [-20.0, 10.0]


def test_irregular_changes_give_no_period() -> None:
    walk = _walk()
    walk.changes["Cat.x"][3] = (350, walk.changes["Cat.x"][3][1])
    props = propose_tests([FLAG], [{"flag": walk}, {"flag": walk}], {"flag": _idle()})
    assert "period" not in _by_kind(props)


def test_nothing_is_proposed_for_what_neither_program_changes() -> None:
    assert propose_tests([FLAG], [{"flag": _idle()}, {"flag": _idle()}], {"flag": _idle()}) == []


def test_a_value_the_initial_program_changes_but_the_golden_keeps_is_steady() -> None:
    initial = _walk()
    props = propose_tests([FLAG], [{"flag": _idle()}, {"flag": _idle()}], {"flag": initial})
    assert [(p.kind, p.key, p.expected) for p in props] == [("steady", "Cat.x", -100.0)]
    assert props[0].words == "after the green flag, the Cat's x stays -100"


def test_observables_read_as_plain_words() -> None:
    assert describe_observable("var:score") == "the variable score"
    assert describe_observable("Cat.var:my.speed") == "the Cat's variable my.speed"
    assert describe_observable("Drop.clones") == "the number of Drop clones"
    assert describe_observable("Drop.clones:min y") == "the lowest y a Drop clone reached"
    assert describe_observable("Cat.effect:ghost") == "the Cat's ghost effect"
    assert describe_observable("Sprite.1.says") == "the Sprite.1's speech bubble"
