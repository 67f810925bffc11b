"""page_scripts on a fake page: order, idempotent installs, reinstall after a reload, errors."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from studio.models.errors import StudioError
from studio.services.runtime import page_scripts
from studio.services.runtime.page_lists import PAGE_LISTS
from studio.services.runtime.page_scripts import COMPOSITE, DRAG, HELPERS, INPUT, QA, PageScript
from tests.helpers.script_page import ScriptHost

ALL = page_scripts.SCRIPTS


class EchoPage(ScriptHost):
    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        return {"name": name, "function": function, "args": args}


def test_scripts_come_after_what_they_need_each_once() -> None:
    assert page_scripts.in_order([DRAG, QA, COMPOSITE]) == [HELPERS, DRAG, QA, COMPOSITE]
    assert page_scripts.in_order([INPUT]) == [INPUT]


def test_every_script_defines_its_global_and_names_its_file() -> None:
    page = EchoPage()
    asyncio.run(page_scripts.install(page, *ALL))  # the fake checks `window.<name> =`
    assert sorted(page.installs) == sorted(s.name for s in ALL)
    for script in ALL:
        assert page_scripts.source(script).endswith(f"sourceURL=studio-js/{script.file}\n")


def test_the_helpers_carry_the_lists_python_uses() -> None:
    text = page_scripts.source(HELPERS)
    assert f"window.studioPageHelpers.lists = {json.dumps(PAGE_LISTS, sort_keys=True)};" in text


def test_install_is_idempotent_and_a_reload_installs_again() -> None:
    page = EchoPage()
    asyncio.run(page_scripts.install(page, COMPOSITE, DRAG))
    asyncio.run(page_scripts.install(page, DRAG, COMPOSITE))
    assert page.installs == ["studioPageHelpers", "studioComposite", "studioDrag"]
    page.reload()
    reply = asyncio.run(page_scripts.call(page, DRAG, "ready", {"a": 1}, None))
    assert reply == {"name": "studioDrag", "function": "ready", "args": [{"a": 1}, None]}
    assert page.installs[3:] == ["studioPageHelpers", "studioDrag"]


def test_another_version_in_the_page_is_replaced() -> None:
    page = EchoPage()
    page.held["studioInput"] = "an older one"
    asyncio.run(page_scripts.install(page, INPUT))
    assert page.installs == ["studioInput"]
    assert page.held["studioInput"] == page_scripts.version(INPUT)


def test_bridge_calls_reach_the_editor_bridge() -> None:
    reply = asyncio.run(page_scripts.bridge(EchoPage(), "loadProjectBase64", "QUJD", "a", "a"))
    assert reply == {
        "name": "studioBridge",
        "function": "loadProjectBase64",
        "args": ["QUJD", "a", "a"],
    }


def test_a_missing_script_file_is_named() -> None:
    with pytest.raises(StudioError, match=r"no-such\.js: cannot read the page script"):
        asyncio.run(page_scripts.install(EchoPage(), PageScript("no-such.js", "studioNothing")))


def test_window_expressions_carry_their_arguments_as_json() -> None:
    text = page_scripts.qt_bridge_call(7, "load'); alert(1); ('", ['a"b', {"k": 1}])
    assert text == (
        """window.studioBridge ? (studioBridge.call(7, "load'); alert(1); ('", """
        """["a\\"b", {"k": 1}]), 'sent') : 'no-bridge'"""
    )
    assert page_scripts.own_call("studioRest", "allow", False) == (
        '(window.studioRest ? window.studioRest["allow"](...[false]) : null)'
    )


def test_only_the_page_s_own_scripts_are_called_without_installing() -> None:
    with pytest.raises(StudioError, match="studioEditor: not one of the editor page's own"):
        page_scripts.own_call("studioEditor", "program")
