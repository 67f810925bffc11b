"""Scenarios from a project's event blocks; programs that read the time of day."""

from __future__ import annotations

from typing import Any

from studio.services.propose.scenarios import (
    answer_sets,
    build_scenarios,
    listeners,
    realtime_blocks,
)


def _project(sprites: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    targets: list[dict[str, Any]] = [{"isStage": True, "name": "Stage", "blocks": {}}]
    for name, blocks in sprites.items():
        targets.append(
            {"isStage": False, "name": name, "blocks": {f"b{i}": b for i, b in enumerate(blocks)}}
        )
    return {"targets": targets}


def _hat(opcode: str, **fields: str) -> dict[str, Any]:
    return {"opcode": opcode, "topLevel": True, "fields": {k: [v, None] for k, v in fields.items()}}


GAME = _project(
    {
        "Bug": [
            _hat("event_whenflagclicked"),
            _hat("event_whenthisspriteclicked"),
            _hat("event_whenkeypressed", KEY_OPTION="space"),
            _hat("event_whenbroadcastreceived", BROADCAST_OPTION="check lives"),
            {
                "opcode": "event_broadcast",
                "inputs": {"BROADCAST_INPUT": [1, [11, "check lives", "x"]]},
            },
        ],
        "Banner": [_hat("event_whenbroadcastreceived", BROADCAST_OPTION="game over")],
    }
)


def test_listeners_read_hats_and_compact_broadcasts() -> None:
    found = listeners(GAME)
    assert found.keys == {"space"}
    assert found.clicked == {"Bug"}
    assert found.received == {"check lives", "game over"}
    assert found.sent == {"check lives"}
    assert not found.asks


def test_scenarios_cover_each_input_once() -> None:
    scenarios = build_scenarios(GAME, None)
    assert [s.id for s in scenarios] == [
        "flag",
        "again:flag",
        "key:space",
        "click:Bug",
        "again:click:Bug",
        "broadcast:check lives",
        "broadcast:game over",
    ]
    key = scenarios[2]
    assert [s["do"] for s in key.steps] == ["flag", "key", "key"]
    assert all(s["at"] < key.duration for s in key.steps)


def test_a_message_the_program_sends_too_comes_later_and_is_watched_longer() -> None:
    """'check lives' is sent by the program as well (a win, a level up): coming from outside
    after the flag's timers ran, it shows what the message stops; 'game over' is only heard."""
    *_, own, heard = build_scenarios(GAME, None)
    assert own.steps[-1] == {"at": 2500, "do": "broadcast", "arg": "check lives"}
    assert own.words.endswith("a broadcast of check lives at 2.5 s")
    assert own.duration - 2500 > heard.duration - heard.steps[-1]["at"]
    assert heard.steps[-1] == {"at": 1000, "do": "broadcast", "arg": "game over"}


def test_again_scenarios_start_scrambled_and_play_twice() -> None:
    clicks, again = build_scenarios(GAME, None)[3:5]
    assert again.steps[0]["do"] == "scramble"
    assert [s["do"] for s in again.steps[1:]] == [s["do"] for s in clicks.steps] * 2
    second_flag = again.steps[1 + len(clicks.steps)]
    assert second_flag == {"at": clicks.duration + 1, "do": "flag", "arg": ""}
    assert again.duration > max(s["at"] for s in again.steps)
    assert again.words.startswith("after the green flag from anywhere and 6 clicks")


def test_keys_the_initial_listens_to_are_tried_too() -> None:
    initial = _project({"Bug": [_hat("event_whenkeypressed", KEY_OPTION="left arrow")]})
    ids = [s.id for s in build_scenarios(GAME, initial)]
    assert "key:left arrow" in ids


def test_a_program_that_asks_gets_answer_sets_from_the_instruction_first() -> None:
    asking = _project({"Robot": [_hat("event_whenflagclicked"), {"opcode": "sensing_askandwait"}]})
    text = "say how many vowels the answer has. For example, for banana it says 3."
    scenarios = build_scenarios(asking, None, text)
    assert scenarios[0].answers == ["banana"]
    assert all(s.id.startswith("answers:") for s in scenarios[:-1])
    assert scenarios[-1].answers == ["banana", "3", "3"]  # the first set, then the second
    assert ("3", "3") in answer_sets(text)
    assert len(answer_sets(text)) <= 10


def test_realtime_blocks_are_named_with_their_sprite() -> None:
    clock = _project({"Clock": [{"opcode": "sensing_current", "fields": {}}]})
    assert realtime_blocks(clock) == ["the current date or time (sensing_current) in Clock"]
    assert realtime_blocks(GAME) == []


def test_sprites_a_touching_condition_checks_get_put_on_each_other() -> None:
    """A ball checks for its paddle: no key press in a scenario brings them together, so a
    scenario puts the Ball on the Paddle; the edge and the mouse are no sprites to put it on."""

    def menu(other: str) -> dict[str, Any]:
        return _hat("sensing_touchingobjectmenu", TOUCHINGOBJECTMENU=other) | {"shadow": True}

    pong = _project(
        {
            "Ball": [_hat("event_whenflagclicked"), menu("Paddle"), menu("_edge_")],
            "Paddle": [menu("_mouse_")],
        }
    )
    assert listeners(pong).touches == {("Ball", "Paddle")}
    touch = build_scenarios(pong, None)[-1]
    assert touch.id == "touch:Ball>Paddle"
    assert touch.steps[-1] == {"at": 500, "do": "touch", "arg": ["Ball", "Paddle"]}
    assert touch.words == "after the green flag and the Ball put on the Paddle at 0.5 s"
    assert touch.duration > 500
