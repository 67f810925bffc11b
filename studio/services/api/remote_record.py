"""What `studio run --api` keeps on this machine of an episode played on a server.

The server records the steps (in its own `--out` folder, if it has one). The client keeps, in
the episode's folder of the run (`record_to` of `RemoteEpisodeManager.create`), what the run's
reports and measures read, in the same places a local episode's recorder puts them:

- run.json `meta.feedback_turns` and `meta.feedback`: the budget and each feedback turn the
  agent took (`episodes.feedback.turn_record`: number, when, after which step, score, failing
  tests), written as each turn comes back;
- run.json `eval` and `meta.evaluations`: the evaluation that is the episode's result;
- `final.sb3`: the program as the episode ended, read over GET /episodes/{id}/program just
  before that evaluation, so a debug episode's d_edit and semantic drift are measured as a local
  one's are (studio.services.forge.episode_measures).

Every write is atomic and keeps what the file held; the run's batch then completes run.json
(`runs.batch`: the verdict, the protocol, the epoch).
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.evaluation import EvalResult
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, RunInfo
from studio.services.core import atomic

__all__ = ["LocalRecord"]


class LocalRecord:
    """The local record of one remote episode, in `folder`, headed by `run`."""

    def __init__(self, folder: Path, run: RunInfo) -> None:
        self.folder = Path(folder)
        self.run = run

    def turns(self, budget: int, turns: list[dict[str, Any]]) -> None:
        """The feedback budget and the turns taken so far."""
        self.run.meta["feedback_turns"] = budget
        self.run.meta["feedback"] = [dict(turn) for turn in turns]
        self._write()

    def program(self, sb3: bytes) -> None:
        """The program the episode ended with, as its `final.sb3`."""
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(self.folder / FINAL_PROJECT, sb3)

    def result(self, result: EvalResult, after_step: int, status: Any) -> None:
        """The evaluation that is the episode's result, with when it came."""
        self.run.eval = result
        self.run.status = status
        self.run.steps = after_step
        self.run.ended_at = datetime.now(UTC)
        self.run.meta.setdefault("evaluations", []).append(
            {
                "at": self.run.ended_at.isoformat(),
                "after_step": after_step,
                "passed": result.passed_tests,
                "total": result.total_tests,
            }
        )
        self._write()

    def _write(self) -> None:
        path = self.folder / RUN_FILE
        if path.is_file():  # what the file holds already (another writer's meta) is kept
            with contextlib.suppress(OSError, ValueError):
                kept = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
                self.run.meta = {**kept.meta, **self.run.meta}
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, self.run.model_dump_json(indent=2) + "\n")
