"""Where the Scratch GUI bundle is looked for, and what the error says when it is nowhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.services.core import paths
from tests.conftest import REPO


def _fake_bundle(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / paths.BUNDLE_ENTRY).write_text("// bundle")
    return folder


def test_checkout_then_user_data(monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> None:
    monkeypatch.delenv("STUDIO_BUNDLE_DIR", raising=False)
    user = isolated_home / ".local" / "share" / "scratch-bench-studio" / "scratch-gui" / "dist"
    assert paths.bundle_places() == [REPO / "resources" / "scratch-gui" / "dist", user]
    monkeypatch.setattr(paths, "PROJECT_ROOT", isolated_home / "no-checkout")
    _fake_bundle(user)
    assert paths.bundle_dir() == user


def test_the_environment_overrides_and_is_the_only_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_BUNDLE_DIR", str(tmp_path / "mine"))
    assert paths.bundle_places() == [tmp_path / "mine"]
    looked = "no scratch-gui-standalone.js in " + re.escape(str(tmp_path / "mine"))
    with pytest.raises(paths.SetupError, match=looked + r"\. In a checkout"):
        paths.bundle_dir()  # though the checkout has one
    mine = _fake_bundle(tmp_path / "mine")
    assert paths.bundle_dir() == mine


def test_missing_everywhere_names_the_places_and_the_fetch(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    monkeypatch.delenv("STUDIO_BUNDLE_DIR", raising=False)
    monkeypatch.setattr(paths, "PROJECT_ROOT", isolated_home / "checkout")
    with pytest.raises(paths.SetupError) as info:
        paths.bundle_dir()
    message = str(info.value)
    user = isolated_home / ".local" / "share" / "scratch-bench-studio" / "scratch-gui" / "dist"
    assert str(isolated_home / "checkout" / "resources" / "scratch-gui" / "dist") in message
    assert str(user) in message and "make bundle" in message
    assert f"npm pack @scratch/scratch-gui-standalone@{paths.BUNDLE_VERSION}" in message
    assert f"mv package/dist {user}" in message and "STUDIO_BUNDLE_DIR" in message


def test_the_makefile_fetches_the_version_the_message_names() -> None:
    makefile = (REPO / "Makefile").read_text()
    assert f"GUI_VERSION := {paths.BUNDLE_VERSION}\n" in makefile


def test_the_command_line_says_it_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from studio import cli

    monkeypatch.setenv("STUDIO_BUNDLE_DIR", str(tmp_path / "none"))
    assert cli.main(["eval", str(paths.BUNDLED_TASKS / "create_cat_walk")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: The Scratch GUI bundle") and "Traceback" not in err
