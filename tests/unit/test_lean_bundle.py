"""The evaluation pages' bundle without its entry call (runtime.lean_bundle) and its serving."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from studio.services.runtime.editions import Edition
from studio.services.runtime.lean_bundle import LeanBundleError, lean_path, lean_source
from studio.services.runtime.server import EditorServer

# The shape of each edition's webpack runtime around its entry call (the pinned builds'
# own text; the real bundles are loaded lean by every evaluation page of the e2e tests).
CURRENT = (
    b"(()=>{var __webpack_modules__={1(e){e.exports=1}};function __webpack_require__(t){}"
    b"let __webpack_exports__=__webpack_require__(85953);return __webpack_exports__})()"
)
CLASSIC = (
    b"(()=>{var __webpack_modules__={};var __webpack_exports__={};"
    b'return(()=>{"use strict";window.ran=1})(),__webpack_exports__})()'
)


def test_the_current_entry_call_is_left_out_and_nothing_else_changes() -> None:
    lean = lean_source(Edition.CURRENT, CURRENT, "gui.js")
    assert b"__webpack_require__(85953)" not in lean
    assert lean == CURRENT.replace(b"__webpack_require__(85953);", b"{};")


def test_the_classic_entry_function_is_returned_before() -> None:
    lean = lean_source(Edition.CLASSIC, CLASSIC, "gui.js")
    before, after = lean.split(b"return __webpack_exports__;", 1)
    assert before == b"(()=>{var __webpack_modules__={};var __webpack_exports__={};"
    assert after == b'(()=>{"use strict";window.ran=1})(),__webpack_exports__})()'


@pytest.mark.parametrize("times", [0, 2])
def test_another_build_is_refused_naming_the_file_and_edition(times: int) -> None:
    call = b"let __webpack_exports__=__webpack_require__(1);"
    source = b"var GUI={};" + call * times
    with pytest.raises(LeanBundleError, match=rf"dist/gui\.js: the current edition's .* {times} "):
        lean_source(Edition.CURRENT, source, "dist/gui.js")


def test_the_lean_script_is_made_once_per_entry_file(tmp_path: Path) -> None:
    entry = tmp_path / "scratch-gui-standalone.js"
    entry.write_bytes(CURRENT)
    first = lean_path(Edition.CURRENT, entry, tmp_path / "cache")
    assert first.read_bytes() == lean_source(Edition.CURRENT, CURRENT, "x")
    first.write_bytes(b"kept")  # not made again for the same file
    assert lean_path(Edition.CURRENT, entry, tmp_path / "cache").read_bytes() == b"kept"
    entry.write_bytes(CURRENT + b";")  # another entry file: another lean script
    assert lean_path(Edition.CURRENT, entry, tmp_path / "cache") != first


def test_the_server_serves_it_as_a_cached_bundle_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "scratch-gui-standalone.js").write_bytes(CURRENT)
    server = EditorServer(web_dir=tmp_path, bundle_dir=bundle, preferred_port=None).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/studio-lean/scratch-gui-standalone.js")
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200
        assert body == lean_source(Edition.CURRENT, CURRENT, "x")
        assert response.getheader("Cache-Control") == "public, max-age=86400"
        assert response.getheader("Content-Type") == "text/javascript"
        conn.request("GET", "/studio-lean/other.js")  # only the entry script has a lean one
        missing = conn.getresponse()
        missing.read()
        assert missing.status == 404
    finally:
        server.stop()
