"""episodes.program_cache.ExportCache on a stand-in page whose change key the test sets."""

from __future__ import annotations

import asyncio
from typing import Any

from studio.services.episodes.program_cache import ExportCache
from studio.services.runtime import page_scripts


class KeyPage:
    """Answers `studioChanges.key()` with `key`; counts the exports made through it."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self.exports = 0

    async def evaluate(self, expression: str, arg: Any = None) -> Any:
        assert expression == page_scripts.CALL_JS
        name, _version, function, _args = arg
        assert (name, function) == (page_scripts.CHANGES.name, "key")
        return self.key

    async def export(self) -> bytes:
        self.exports += 1
        return f"sb3 #{self.exports} at {self.key}".encode()


def _sb3(cache: ExportCache, page: KeyPage) -> bytes:
    return asyncio.run(cache.sb3(page, page.export))


def test_an_unchanged_key_reuses_the_export_and_a_new_one_exports() -> None:
    page, cache = KeyPage("a:1"), ExportCache()
    first = _sb3(cache, page)
    assert _sb3(cache, page) == first and page.exports == 1
    page.key = "a:2"
    assert _sb3(cache, page) == b"sb3 #2 at a:2"
    assert (cache.exports, cache.reused) == (2, 1)


def test_forget_exports_again_even_with_the_same_key() -> None:
    page, cache = KeyPage("a:1"), ExportCache()
    _sb3(cache, page)
    cache.forget()
    assert _sb3(cache, page) == b"sb3 #2 at a:1"


def test_a_page_without_a_key_always_exports() -> None:
    page, cache = KeyPage(None), ExportCache()
    _sb3(cache, page)
    _sb3(cache, page)
    assert page.exports == 2 and cache.reused == 0


def test_the_key_is_read_before_the_export() -> None:
    """A change while exporting (the key moves during the export) makes the next call export."""
    page, cache = KeyPage("a:1"), ExportCache()

    async def export_while_changing() -> bytes:
        page.key = "a:2"  # the page counted a change while the export ran
        return await page.export()

    asyncio.run(cache.sb3(page, export_while_changing))
    _sb3(cache, page)
    assert page.exports == 2
