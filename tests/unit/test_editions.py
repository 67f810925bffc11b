"""Editor editions: where an edition's bundle is looked for, what a missing one says, and the
edition a library records."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from studio.app.serving.options import serve_edition
from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.formats.scratchworld.tasks import export_scratchworld, import_scratchworld
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition
from studio.services.runtime.server import EditorServer
from tests.conftest import REPO
from tests.helpers.scratchworld_fixture import build_set

CLASSIC = editions.info(Edition.CLASSIC)


def _fake_classic(folder: Path, skip: str = "") -> Path:
    folder.mkdir(parents=True)
    for name in CLASSIC.files:
        (folder / name).write_text("" if name == skip else "// bundle")
    return folder


def test_classic_is_looked_for_in_the_checkout_then_user_data(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    monkeypatch.delenv(CLASSIC.env, raising=False)
    user = isolated_home / ".local" / "share" / "scratch-bench-studio" / "scratch-gui-classic"
    assert editions.bundle_places(Edition.CLASSIC) == [
        REPO / "resources" / "scratch-gui-classic" / "dist",
        user / "dist",
    ]
    monkeypatch.setattr(paths, "PROJECT_ROOT", isolated_home / "no-checkout")
    mine = _fake_classic(user / "dist")
    assert editions.bundle_dir(Edition.CLASSIC) == mine


def test_a_missing_or_corrupt_classic_bundle_names_edition_folder_and_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CLASSIC.env, str(tmp_path / "mine"))
    _fake_classic(tmp_path / "mine", skip="react-dom.production.min.js")  # an empty file
    with pytest.raises(paths.SetupError) as info:
        editions.bundle_dir(Edition.CLASSIC)
    message = str(info.value)
    assert "The classic editor edition's bundle (scratch-gui@5.1.89)" in message
    assert str(tmp_path / "mine") in message
    assert "`make bundle-classic`" in message
    with pytest.raises(paths.SetupError, match=r"^A set is recorded for the classic edition\."):
        editions.require_installed(Edition.CLASSIC, "A set")
    (tmp_path / "mine" / "react-dom.production.min.js").write_text("// react-dom")
    assert editions.bundle_dir(Edition.CLASSIC) == tmp_path / "mine"


def test_the_makefile_fetches_the_pinned_classic_version() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    version = re.search(r"^CLASSIC_VERSION := (\S+)$", makefile, re.M)
    assert version and CLASSIC.package == f"scratch-gui@{version.group(1)}"
    assert "setup: system venv bundle bundle-classic" in makefile


def test_a_library_records_its_edition(tmp_path: Path) -> None:
    assert editions.read_edition(tmp_path) is Edition.CURRENT  # nothing recorded
    written = editions.write_edition(tmp_path, Edition.CLASSIC)
    assert written == tmp_path / "edition.json"
    assert editions.read_edition(tmp_path) is Edition.CLASSIC
    written.write_text('{"edition": "newest"}')
    with pytest.raises(StudioError, match=r"edition\.json: unknown editor edition 'newest'"):
        editions.read_edition(tmp_path)
    written.write_text("[1]")
    with pytest.raises(StudioError, match=r"edition\.json: expected"):
        editions.read_edition(tmp_path)


def test_the_server_serves_each_edition_under_its_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    classic = _fake_classic(tmp_path / "classic")
    monkeypatch.setenv(CLASSIC.env, str(classic))
    server = EditorServer(preferred_port=None)
    assert server.resolve("/classic/scratch-gui.js") == classic / "scratch-gui.js"
    assert server.resolve("/classic/editor.html") == paths.WEB_DIR / "classic" / "editor.html"
    assert server.resolve("/classic/../classic/scratch-gui.js") == classic / "scratch-gui.js"
    assert server.resolve("/classic/../../etc/passwd") is None
    assert server.resolve("/react.production.min.js") is None  # only under the prefix
    assert server.is_bundle_file(classic / "scratch-gui.js")


def test_a_server_without_the_classic_bundle_still_serves_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CLASSIC.env, str(tmp_path / "absent"))
    server = EditorServer(preferred_port=None)
    assert server.resolve("/classic/scratch-gui.js") is None
    assert server.resolve("/editor.html") == paths.WEB_DIR / "editor.html"


def test_a_scratchworld_import_is_classic_and_export_keeps_a_current_library(
    tmp_path: Path,
) -> None:
    sw = build_set(tmp_path / "sw")
    assert import_scratchworld(sw.root, tmp_path / "lib").ok
    assert editions.read_edition(tmp_path / "lib") is Edition.CLASSIC
    assert editions.edition_for(next((tmp_path / "lib").glob("*/task.json")).parent) is (
        Edition.CLASSIC
    )
    export_scratchworld(tmp_path / "lib", tmp_path / "out")
    assert not (tmp_path / "out" / "edition.json").exists()  # the published layout, unchanged
    editions.write_edition(tmp_path / "lib", Edition.CURRENT)  # the author picks current
    export_scratchworld(tmp_path / "lib", tmp_path / "out2")
    report = import_scratchworld(tmp_path / "out2", tmp_path / "lib2")
    assert report.ok and editions.read_edition(tmp_path / "lib2") is Edition.CURRENT
    again = import_scratchworld(sw.root, tmp_path / "lib2")  # a classic set over it
    assert any("the library was current; it is now classic" in w for w in again.warnings)


def test_which_edition_a_command_runs_on(tmp_path: Path) -> None:
    classic, current = tmp_path / "classic", tmp_path / "current"
    classic.mkdir()
    current.mkdir()
    editions.write_edition(classic, Edition.CLASSIC)
    assert editions.choose(None, [classic]) is Edition.CLASSIC
    assert editions.choose("current", [classic]) is Edition.CURRENT
    assert editions.choose(None, [current]) is Edition.CURRENT
    with pytest.raises(StudioError, match="record different editor editions"):
        editions.choose(None, [classic, current])
    assert serve_edition(None, tmp_path / "root", current) is Edition.CLASSIC
    assert serve_edition("current", tmp_path / "root", current) is Edition.CURRENT
    assert serve_edition(None, None, classic) is Edition.CLASSIC
    assert serve_edition(None, None, current) is Edition.CURRENT


def test_a_set_on_a_missing_edition_says_so_before_any_browser_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from studio import cli

    lib = tmp_path / "lib"
    shutil.copytree(paths.BUNDLED_TASKS / "create_cat_walk", lib / "create_cat_walk")
    editions.write_edition(lib, Edition.CLASSIC)
    monkeypatch.setenv(CLASSIC.env, str(tmp_path / "none"))
    assert cli.main(["eval", str(lib / "create_cat_walk")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {lib / 'create_cat_walk'} is recorded for the classic edition.")
    assert "`make bundle-classic`" in err and "Traceback" not in err


def test_a_drag_item_runs_on_the_edition_of_its_set_or_library(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    item = library / "diagnostics" / "drag" / "T1_001"
    item.mkdir(parents=True)
    assert editions.edition_of_item(item) is Edition.CURRENT
    editions.write_edition(library, Edition.CLASSIC)  # three folders up: the library
    assert editions.edition_of_item(item) is Edition.CLASSIC
    editions.write_edition(item.parent, Edition.CURRENT)  # the item set says otherwise
    assert editions.edition_of_item(item) is Edition.CURRENT
    loose = tmp_path / "elsewhere" / "T1_001"
    loose.mkdir(parents=True)
    assert editions.choose_items(None, [loose]) is Edition.CURRENT
    assert editions.choose_items("classic", [item, loose]) is Edition.CLASSIC
    with pytest.raises(StudioError, match="different editor editions"):
        editions.choose_items(None, [item, library / "diagnostics" / "other"])


def test_a_diagnostics_import_runs_its_items_on_classic(tmp_path: Path) -> None:
    from studio.services.formats.scratchworld.items.sets import import_diagnostics

    root = REPO / "tests" / "fixtures" / "scratchworld_classic"
    library = tmp_path / "lib"
    import_diagnostics(root, library)
    item = library / "diagnostics" / "drag" / "T1_001"
    assert editions.edition_of_item(item) is Edition.CLASSIC
    assert not (library / editions.EDITION_FILE).exists()  # the library's tasks keep theirs
    classic = tmp_path / "classic"
    editions.write_edition(classic, Edition.CLASSIC)
    import_diagnostics(root, classic)  # a classic library needs no record of its own
    assert not (classic / "diagnostics" / editions.EDITION_FILE).exists()
