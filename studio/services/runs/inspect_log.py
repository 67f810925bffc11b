"""Campaigns as Inspect AI eval logs (`studio export inspect RUNS OUT`), written through the
`inspect_ai` package's own log API (`inspect_ai.log.write_eval_log`), so `inspect view` and
every tool that reads Inspect logs opens them. `inspect_ai` is an optional extra
(`pip install '.[inspect]'`); without it the command says how to install it.

One log per agent and mode (Inspect's eval is one task on one model): the task is
`scratch-bench/<mode>`, the model `studio/<agent>`. Each episode is a sample: `id` the task id,
`epoch` its n-th run in the campaign, `input` the task's instruction (task.json, or a
ScratchWorld task folder's task_config.json; else the id), the transcript one user message
(the instruction) and one assistant message per step (reasoning and the action as JSON; the
screenshots stay in the run folder named in the metadata), and two scores: `success` (1 when
every test passed) and `psr` (passed / total tests); an episode without a verdict carries its
reason as the sample's error and scores 0. The results give SR (`success`, accuracy) and PSR
(`psr`, mean) over all samples, the same figures as `studio report` when each task ran once.

OUT is a file ending in `.eval` when the campaign holds one agent and mode, else a folder
that gets `<agent>-<mode>.eval` per pair.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

from studio.models.errors import StudioError
from studio.models.report import RunEntry
from studio.models.trajectory import RunInfo

__all__ = ["EXTRA_HINT", "TASK_PREFIX", "InspectExport", "export_inspect"]

EXTRA_HINT = "pip install '.[inspect]' (the inspect_ai package)"
TASK_PREFIX = "scratch-bench"


@dataclass
class InspectExport:
    """The logs written: path, agent, mode and sample count of each."""

    logs: list[tuple[Path, str, str, int]] = field(default_factory=list)


def _inspect() -> Any:
    try:
        import inspect_ai.log as log
    except ImportError:
        raise StudioError(f"exporting to Inspect AI needs its package: {EXTRA_HINT}") from None
    return log


def export_inspect(root: Path, out: Path) -> InspectExport:
    """Write the Inspect logs of the episodes below `root` (see the module's docstring)."""
    from studio.services.runs.bundle.writer import collect_entries

    ilog = _inspect()
    entries = collect_entries(Path(root))
    if not entries:
        raise StudioError(f"{root}: no finished runs below it (run.json or result folders)")
    groups: dict[tuple[str, str], list[RunEntry]] = defaultdict(list)
    for entry in entries:
        groups[(entry.agent, entry.mode)].append(entry)
    targets = _targets(Path(out), sorted(groups))
    done = InspectExport()
    for key, path in targets.items():
        log = _eval_log(ilog, Path(root), key[0], key[1], groups[key])
        path.parent.mkdir(parents=True, exist_ok=True)
        ilog.write_eval_log(log, str(path), format="eval")
        done.logs.append((path, key[0], key[1], len(groups[key])))
    return done


def _targets(out: Path, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Path]:
    if out.suffix == ".eval":
        if len(keys) > 1:
            names = ", ".join(f"{a} ({m})" for a, m in keys)
            raise StudioError(f"{out}: the runs hold {len(keys)} agents and modes ({names}); "
                              "give a folder instead of a .eval file")  # fmt: skip
        return {keys[0]: out}
    if out.exists() and not out.is_dir():
        raise StudioError(f"{out}: exists and is not a folder (or give a name ending in .eval)")
    return {(a, m): out / f"{_safe(a)}-{m}.eval" for a, m in keys}


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "agent"


def _eval_log(ilog: Any, root: Path, agent: str, mode: str, entries: list[RunEntry]) -> Any:
    from studio.services.runs.trajectories.view import load_view

    epochs: dict[str, int] = defaultdict(int)
    samples = []
    for entry in sorted(entries, key=lambda e: e.folder):
        epochs[entry.task_id] += 1
        try:
            view = load_view(Path(entry.folder))
        except StudioError:
            view = None
        samples.append(_sample(ilog, entry, epochs[entry.task_id], view))
    created = min((s.started_at for s in samples if s.started_at), default=None)
    spec = ilog.EvalSpec(
        created=created or "1970-01-01T00:00:00+00:00",
        task=f"{TASK_PREFIX}/{mode}",
        dataset=ilog.EvalDataset(
            name=root.name,
            location=str(root),
            samples=len({e.task_id for e in entries}),
            sample_ids=sorted({e.task_id for e in entries}),
        ),
        model=f"studio/{agent}",
        config=ilog.EvalConfig(epochs=max(epochs.values())),
        metadata={"agent": agent, "mode": mode, "source": "scratch-bench-studio"},
    )
    successes = [1.0 if e.success else 0.0 for e in entries]
    results = ilog.EvalResults(
        total_samples=len(entries),
        completed_samples=len(entries),
        scores=[
            _score(ilog, "success", "accuracy", mean(successes)),
            _score(ilog, "psr", "mean", mean(e.psr for e in entries)),
        ],
    )
    stats = ilog.EvalStats(
        started_at=created or "", completed_at=max(s.completed_at or "" for s in samples)
    )
    return ilog.EvalLog(status="success", eval=spec, results=results, stats=stats, samples=samples)


def _score(ilog: Any, name: str, metric: str, value: float) -> Any:
    return ilog.EvalScore(
        name=name, scorer=name, metrics={metric: ilog.EvalMetric(name=metric, value=value)}
    )


def _sample(ilog: Any, entry: RunEntry, epoch: int, view: Any) -> Any:
    from inspect_ai.model import ChatMessageAssistant, ChatMessageUser
    from inspect_ai.scorer import Score

    run: RunInfo | None = view.run if view is not None else None
    instruction = _instruction(Path(entry.folder), run) or entry.task_id
    messages: list[Any] = [ChatMessageUser(content=instruction)]
    for step in view.steps if view is not None else []:
        action = json.dumps(step.record.action, ensure_ascii=False)
        text = f"{step.record.reasoning}\n\naction: {action}".strip()
        if not step.record.ok:
            text += f"\nerror: {step.record.error or 'the action failed'}"
        messages.append(ChatMessageAssistant(content=text))
    verdict = "every test passed" if entry.success else (entry.error or "a test failed")
    scores = {
        "success": Score(value=1.0 if entry.success else 0.0, explanation=verdict),
        "psr": Score(
            value=entry.psr, explanation=f"{entry.passed_tests}/{entry.total_tests} tests passed"
        ),
    }
    started = run.started_at.isoformat() if run is not None else None
    ended = run.ended_at.isoformat() if run is not None and run.ended_at else None
    error = None
    if entry.error is not None:
        error = ilog.EvalError(message=entry.error, traceback="", traceback_ansi="")
    return ilog.EvalSample(
        id=entry.task_id,
        epoch=epoch,
        input=instruction,
        target="every test of the task's evaluation script passes",
        messages=messages,
        scores=scores,
        metadata={"category": entry.category, "folder": entry.folder, "status": entry.status,
                  "passed_tests": entry.passed_tests, "total_tests": entry.total_tests},
        started_at=started,
        completed_at=ended,
        total_time=entry.seconds,
        error=error,
    )  # fmt: skip


def _instruction(folder: Path, run: RunInfo | None) -> str | None:
    candidates = [folder / "task_config.json"]
    if run is not None and run.task_folder:
        candidates.append(Path(run.task_folder) / "task.json")
    for path in candidates:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("instruction"), str):
            return str(data["instruction"])
    return None
