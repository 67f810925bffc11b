"""`studio.app.runners.episode_runner`: the one choice of where `studio run` plays its episodes
(this machine, a served API, a Ray cluster), checked without starting any of them. Played for
real elsewhere: drag items and check evaluations on a cluster in
tests/e2e/test_ray_cluster.py, episodes through the API and on this machine in
tests/e2e/test_api_e2e.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.app.runners import episode_runner
from studio.models.errors import StudioError
from studio.services import distributed
from studio.services.api.client import RemoteEpisodeManager
from studio.services.episodes.manager import EpisodeManager


def test_each_flag_gives_its_own_home_for_the_episodes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    joined: list[tuple[Any, ...]] = []
    monkeypatch.setattr(distributed, "cluster_episodes", lambda *a: joined.append(a) or "cluster")
    limits, prices = object(), object()
    found = episode_runner(
        ray="local", workers=3, steps=7, limits=limits, prices=prices, feedback_turns=2
    )
    assert found == "cluster" and joined == [("local", 3, 7, limits, prices, 2)]

    with pytest.raises(StudioError, match="--ray and --api exclude each other"):
        episode_runner(api="http://127.0.0.1:1", token="t", ray="local")
    monkeypatch.delenv("STUDIO_TOKEN", raising=False)
    monkeypatch.delenv("STUDIO_TOKEN_FILE", raising=False)
    with pytest.raises(StudioError, match="--api needs the server's token"):
        episode_runner(api="http://127.0.0.1:1")
    token_file = tmp_path / "token"
    token_file.write_text("secret\n")
    remote = episode_runner(api="http://127.0.0.1:1", token_file=token_file, steps=9)
    assert isinstance(remote, RemoteEpisodeManager) and remote.step_limit == 9
    remote.client.close()

    local = episode_runner(steps=5)
    assert isinstance(local, EpisodeManager) and local.step_limit == 5 and local.eval_spares == 1
    default = episode_runner()
    assert isinstance(default, EpisodeManager) and default.step_limit > 0
