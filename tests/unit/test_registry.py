"""The generic registry (studio.services.core.registry): names added by deferred import or by a
decorator, listed in order with their help, resolved on first use, refused with the choices."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from studio.services.core.registry import Registry, RegistryError, UnknownNameError


def test_a_deferred_entry_is_imported_on_first_use_only() -> None:
    reg: Registry[object] = Registry("widget")
    reg.add("dumps", "json:dumps", "JSON text of a value")
    entry = reg.entry("dumps")
    assert entry.target == "json:dumps" and entry.help == "JSON text of a value"
    import json

    assert reg.get("dumps") is json.dumps
    assert reg.get("dumps") is json.dumps  # kept


def test_a_deferred_import_is_not_made_before_get() -> None:
    code = (
        "import sys\n"
        "from studio.services.core.registry import Registry\n"
        "r = Registry('thing')\n"
        "r.add('x', 'xml.dom.minidom:parseString', 'parse')\n"
        "print('xml.dom.minidom' in sys.modules)\n"
        "r.get('x')\n"
        "print('xml.dom.minidom' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_decorator_order_help_and_traits() -> None:
    reg: Registry[object] = Registry("agent")

    @reg.register("b", "second in the alphabet", traits=["seeded"])
    def b() -> None: ...

    reg.add("a", "json:loads", "first in the alphabet")
    assert reg.names() == ("b", "a") and list(reg) == ["b", "a"] and len(reg) == 2
    assert reg.get("b") is b and "b" in reg and "c" not in reg
    assert reg.with_trait("seeded") == ("b",) and reg.with_trait("seeded", False) == ("a",)
    assert reg.describe() == "b: second in the alphabet; a: first in the alphabet"
    assert reg.describe(["a"], sep="\n") == "a: first in the alphabet"
    reg.remove("b")
    assert reg.names() == ("a",)


def test_unknown_names_are_refused_with_the_choices() -> None:
    reg: Registry[object] = Registry("episode mode")
    reg.add("composite", "json:dumps", "blocks")
    reg.add("primitive", "json:loads", "pixels")
    with pytest.raises(
        UnknownNameError,
        match=r"unknown episode mode 'x' \(one of composite, "
        r"primitive\)",
    ) as caught:
        reg.get("x")
    assert caught.value.choices == ("composite", "primitive")
    with pytest.raises(UnknownNameError, match="none registered"):
        Registry("metric").get("sr")


@pytest.mark.parametrize(
    ("name", "target", "help", "message"),
    [
        ("", "json:dumps", "h", "use letters"),
        ("two words", "json:dumps", "h", "use letters"),
        ("ok", "json.dumps", "h", "is not 'package.module:attribute'"),
        ("ok", "json:dumps", "", "one line"),
        ("ok", "json:dumps", "two\nlines", "one line"),
    ],
)
def test_bad_registrations_are_refused(name: str, target: str, help: str, message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        Registry("format").add(name, target, help)


def test_a_taken_name_is_refused_naming_where_it_is() -> None:
    reg: Registry[object] = Registry("format")
    reg.add("sw", "json:dumps", "h")
    with pytest.raises(RegistryError, match=r"format 'sw' is registered already \(json:dumps\)"):
        reg.add("sw", "json:loads", "h")


def test_a_moved_module_or_attribute_names_the_entry() -> None:
    reg: Registry[object] = Registry("agent")
    reg.add("gone", "studio.no_such_module:thing", "h")
    reg.add("renamed", "json:no_such_name", "h")
    with pytest.raises(RegistryError, match=r"agent 'gone': cannot import studio.no_such_module"):
        reg.get("gone")
    with pytest.raises(RegistryError, match=r"agent 'renamed': json has no 'no_such_name'"):
        reg.get("renamed")


def test_a_registry_serves_as_argparse_choices() -> None:
    reg: Registry[object] = Registry("agent")
    reg.add("oracle", "json:dumps", "h")
    parser = argparse.ArgumentParser(prog="p", exit_on_error=False)
    parser.add_argument("--agent", choices=reg)
    assert "{oracle}" in parser.format_help()
    reg.add("toy", "json:loads", "h")  # added later: accepted, the choices are read at parse
    assert parser.parse_args(["--agent", "toy"]).agent == "toy"
    with pytest.raises(argparse.ArgumentError, match="invalid choice: 'x'"):
        parser.parse_args(["--agent", "x"])
