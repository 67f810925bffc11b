"""The optional LLM step renames kept tests through a stand-in endpoint; checks never change."""

from __future__ import annotations

import asyncio

from studio.services.episodes.agents.llm import LlmSettings, Usage
from studio.services.propose.llm_words import names_from_reply, rename
from studio.services.propose.model import Proposal
from tests.helpers.fake_llm_server import FakeLlmServer


def _kept() -> list[Proposal]:
    return [
        Proposal(
            "t001", "end", "flag", "Cat.x", 50.0, "after the green flag, the Cat's x ends at 50"
        ),
        Proposal("t004", "says", "flag", "Cat", ["hi"], "after the green flag, the Cat says hi"),
    ]


def test_the_model_renames_and_only_names_change() -> None:
    names = '{"t001": "The Cat walks to x 50", "t004": "  The Cat\\n says hi"}'
    reply = f"Here you are:\n```json\n{names}\n```"
    kept = _kept()
    with FakeLlmServer([reply]) as llm:
        settings = LlmSettings(url=llm.url, model="fake", retries=0)
        changed = asyncio.run(rename(settings, "Make the Cat walk.", kept, Usage()))
        sent = llm.requests[0]["messages"][1]["content"]
    assert changed == 2
    assert [p.words for p in kept] == ["The Cat walks to x 50", "The Cat says hi"]
    assert (kept[0].kind, kept[0].key, kept[0].expected) == ("end", "Cat.x", 50.0)
    assert "Make the Cat walk." in sent and "t004: after the green flag, the Cat says hi" in sent


def test_unusable_names_keep_the_tests_own_words() -> None:
    kept = _kept()
    assert names_from_reply("no JSON here", kept) == {}
    assert names_from_reply('{"t001": ""}', kept) == {}
    assert names_from_reply('{"t001": "same", "t004": "same", "t999": "other"}', kept) == {}
    assert names_from_reply('{"t001": "' + "x" * 200 + '"}', kept) == {}
    assert names_from_reply('{"t004": "Says hi", "t001": 3}', kept) == {"t004": "Says hi"}
