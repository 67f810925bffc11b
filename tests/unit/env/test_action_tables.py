"""Every action kind of the models has a typed handler in its mode's table, each taking the
model's own arguments, and an unknown kind gets the error it always got (no browser)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, get_args

import pytest

from studio.models.agent import (
    COMPOSITE_APIS,
    PRIMITIVE_APIS,
    ActionError,
    ClickArgs,
    CompositeAction,
    KeyArgs,
    Mode,
    PrimitiveAction,
)
from studio.services.episodes.action_table import ENDS_EPISODE, ActionTable, handles
from studio.services.episodes.composite import COMPOSITE_ACTIONS, CompositeMode
from studio.services.episodes.episode import Episode
from studio.services.episodes.modes import ActionOutcome, ModeHandler
from studio.services.episodes.primitive import PRIMITIVE_ACTIONS, PrimitiveMode
from tests.helpers.primitive_fakes import FakePage

ENDING = {"done", "failed"}


def _members(union: Any) -> dict[str, Any]:
    """The action models of a mode's union, by their `api` literal."""
    members = get_args(get_args(union)[0])
    return {get_args(m.model_fields["api"].annotation)[0]: m for m in members}


def test_every_primitive_kind_has_a_handler_taking_its_models_arguments() -> None:
    models = _members(PrimitiveAction)
    assert PRIMITIVE_ACTIONS.kinds == set(PRIMITIVE_APIS) == set(models)
    for kind, model in models.items():
        handler = PRIMITIVE_ACTIONS.handler(kind)
        if kind in ENDING:
            assert handler is None and PRIMITIVE_ACTIONS.ends(kind)
        else:
            assert handler is not None, kind
            assert handler.args is model.model_fields["args"].annotation, kind


def test_every_composite_kind_has_a_handler_taking_its_action() -> None:
    models = _members(CompositeAction)
    assert COMPOSITE_ACTIONS.kinds == set(COMPOSITE_APIS) == set(models)
    for kind, model in models.items():
        handler = COMPOSITE_ACTIONS.handler(kind)
        if kind in ENDING:
            assert handler is None
        else:
            assert handler is not None and handler.args is model, kind


async def _click(mode: object, page: Any, args: ClickArgs) -> ActionOutcome:
    return ActionOutcome(target=f"clicked {args.x:g}")


def test_a_table_that_does_not_match_the_models_is_refused_naming_the_kinds() -> None:
    table: ActionTable[object] = ActionTable(
        {"click": handles(ClickArgs, _click), "fly": ENDS_EPISODE, "done": ENDS_EPISODE}
    )
    with pytest.raises(TypeError, match=r"no handler for \['key'\].*unknown kinds \['fly'\]"):
        table.check(["click", "key", "done"], "toy")
    table.check(["click", "fly", "done"], "toy")  # exactly its kinds: accepted


def test_a_handler_runs_only_with_its_own_arguments_model() -> None:
    table: ActionTable[object] = ActionTable({"click": handles(ClickArgs, _click)})
    page: Any = FakePage()
    outcome = asyncio.run(table.perform(object(), page, "click", ClickArgs(x=3, y=4)))
    assert outcome.target == "clicked 3"
    with pytest.raises(TypeError, match="KeyArgs, the table's handler takes ClickArgs"):
        asyncio.run(table.perform(object(), page, "click", KeyArgs(key="a")))
    with pytest.raises(LookupError, match="no action 'fly'"):
        asyncio.run(table.perform(object(), page, "fly", None))


class _Page(FakePage):
    """A primitive fake page that also reads the (empty) program, as the episode does."""

    async def answer(self, script: str, name: str, args: list[Any]) -> Any:
        if script == "studioEditor":
            return {"targets": []}
        return await super().answer(script, name, args)


def _episode(mode: Mode, handler: ModeHandler, page: Any) -> Episode:
    nothing: Any = None  # neither the manager nor the task is reached by these steps
    return Episode("e1", nothing, nothing, mode, page, handler, 10, None)


@pytest.mark.parametrize(
    ("mode", "handler", "kinds"),
    [
        (Mode.PRIMITIVE, lambda: PrimitiveMode(ocr=False), PRIMITIVE_APIS),
        (Mode.COMPOSITE, CompositeMode, COMPOSITE_APIS),
    ],
)
def test_an_unknown_kind_gets_the_same_clear_error_and_the_episode_goes_on(
    mode: Mode, handler: Any, kinds: tuple[str, ...]
) -> None:
    page = _Page()
    episode = _episode(mode, handler(), page)
    expected = f"unknown api 'fly' in {mode.value} mode; use one of " + ", ".join(kinds)
    with pytest.raises(ActionError) as refused:
        asyncio.run(episode.step({"api": "fly", "args": {}}))
    assert str(refused.value) == expected
    assert episode.step_count == 1 and episode.running and page.input() == []
    if mode is Mode.PRIMITIVE:  # a known kind still goes through the table to the page
        record = asyncio.run(episode.step({"api": "click", "args": {"x": 10, "y": 20}}))
        assert record.ok and record.target == "hit: 10,20"
        assert page.input() == [("click", 10.0, 20.0, "left")]


def test_a_mode_given_a_kind_its_table_lacks_says_so() -> None:
    page: Any = FakePage()
    fly = SimpleNamespace(api="fly", args=None)
    with pytest.raises(LookupError, match="no action 'fly' in this mode's table"):
        asyncio.run(PrimitiveMode(ocr=False).execute(page, fly))
    with pytest.raises(LookupError, match="no action 'fly' in this mode's table"):
        asyncio.run(CompositeMode().execute(page, fly))
