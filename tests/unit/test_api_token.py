"""Where the API token comes from: a file, the command line, the environment, or a new one."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.errors import StudioError
from studio.services.api.server import find_token, read_token_file, resolve_token


def test_token_sources_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUDIO_TOKEN", raising=False)
    monkeypatch.delenv("STUDIO_TOKEN_FILE", raising=False)
    kept = tmp_path / "token"
    kept.write_text("from-file\n")
    assert find_token("given", kept) == "from-file"
    assert find_token("given") == "given"
    assert find_token() == ""
    monkeypatch.setenv("STUDIO_TOKEN_FILE", str(kept))
    assert find_token() == "from-file"
    monkeypatch.setenv("STUDIO_TOKEN", "from-env")
    assert find_token() == "from-env"
    assert resolve_token(None) == ("from-env", False)


@pytest.mark.parametrize(("content", "fragment"), [("", "empty"), ("x" * 5000, "one short line")])
def test_bad_token_files_are_named(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "token"
    path.write_text(content)
    with pytest.raises(StudioError, match=fragment) as err:
        read_token_file(path)
    assert str(path) in str(err.value)
    with pytest.raises(StudioError, match="cannot read"):
        read_token_file(tmp_path / "missing")
