"""Trajectories as text and JSON: one-line action summaries, the timeline, a comparison table."""

from __future__ import annotations

import json
from typing import Any

from studio.services.runs.trajectories.compare import Comparison
from studio.services.runs.trajectories.view import StepView, TrajectoryView

__all__ = ["describe_action", "format_comparison", "format_timeline", "timeline_json"]


def describe_action(action: dict[str, Any]) -> str:
    """A short human reading of an action: `click (120, 340)`, `type "abc"`, `add_block ...`."""
    api = str(action.get("api", "?"))
    args = action.get("args") or {}
    if not isinstance(args, dict):
        return api
    if api in ("click", "double_click"):
        button = f" {args['button']}" if args.get("button") not in (None, "left") else ""
        return f"{api}{button} {_where(args, 'x', 'y', 'index')}"
    if api == "drag_and_drop":
        start = _where(args, "start_x", "start_y", "start_index")
        end = _where(args, "end_x", "end_y", "end_index")
        return f"drag {start} -> {end}"
    if api == "stroke":
        points = args.get("points") or []
        ends = f" {_pair(points[0])} -> {_pair(points[-1])}" if points else ""
        return f"stroke {len(points)} points{ends}"
    if api == "scroll":
        at = f" at {_where(args, 'x', 'y', 'index')}" if _has_point(args) else ""
        return f"scroll {args.get('direction', '?')} {args.get('amount', 3)}{at}"
    if api == "type":
        return f"type {json.dumps(args.get('text', ''), ensure_ascii=False)}"
    if api == "key":
        return f"key {args.get('key', '?')}"
    if api == "hotkey":
        return "hotkey " + "+".join(str(k) for k in args.get("keys") or [])
    return _describe_composite(api, args)


def _describe_composite(api: str, args: dict[str, Any]) -> str:
    if api == "add_block":
        creation = args.get("creation") or {}
        name = creation.get("variableName") or creation.get("listName") if creation else None
        return f"add_block {args.get('blockType', '?')}" + (f" {name}" if name else "")
    if api == "connect_blocks":
        placement = args.get("placement") or {}
        how = f"{placement.get('kind', '?')} {placement.get('inputName') or ''}".rstrip()
        return f"connect #{args.get('sourceBlockIndex')} -> #{args.get('targetBlockIndex')} {how}"
    if api == "set_block_field":
        value = _short(args.get("value"))
        return f"set #{args.get('blockIndex')} {args.get('fieldName', '?')}={value}"
    if api in ("detach_blocks", "delete_block"):
        return f"{api} #{args.get('blockIndex')}"
    if api in ("select_sprite", "add_variable", "add_list") and "name" in args:
        scope = f" ({args['scope']})" if args.get("scope") not in (None, "all") else ""
        return f"{api} {args['name']}{scope}"
    if not args:
        return api
    return f"{api} " + " ".join(f"{k}={_short(v)}" for k, v in args.items())


def _where(args: dict[str, Any], xkey: str, ykey: str, ikey: str) -> str:
    if args.get(ikey) is not None:
        return f"#{args[ikey]}"
    x, y = args.get(xkey), args.get(ykey)
    return f"({x:g}, {y:g})" if isinstance(x, int | float) and isinstance(y, int | float) else "?"


def _has_point(args: dict[str, Any]) -> bool:
    return any(args.get(k) is not None for k in ("x", "y", "index"))


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 30 else text[:29] + "…"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def format_timeline(view: TrajectoryView) -> str:
    """The run header, one line per step, then what is missing and what could not be read."""
    lines = [str(view.folder)]
    run = view.run
    if run is not None:
        took = ""
        if run.ended_at is not None:
            took = f"  time {(run.ended_at - run.started_at).total_seconds():.1f} s"
        lines.append(
            f"task {run.task_id}  agent {run.agent}  mode {run.mode.value}  "
            f"status {run.status.value}  steps {len(view.steps)}{took}"
        )
        lines.append("verdict: " + (run.eval.summary_line() if run.eval else "not evaluated"))
    lines.append(f"{'#':>4}  {'action':<34}  {'target':<28}  {'time':>7}  {'result':<8}  flags")
    lines += [_step_line(step) for step in view.steps]
    lines += [f"missing: {m}" for m in view.missing]
    lines += [f"problem: {p}" for p in view.problems]
    return "\n".join(lines) + "\n"


def _step_line(step: StepView) -> str:
    r = step.record
    result = "ok" if r.ok else f"error: {r.error or '?'}"
    flags = ",".join(sorted(step.flags))
    if step.missing:
        flags += (" " if flags else "") + "missing " + ", ".join(step.missing)
    return (
        f"{r.index:>4}  {_clip(describe_action(r.action), 34):<34}  "
        f"{_clip(r.target or '', 28):<28}  {r.duration_ms / 1000:>6.1f}s  {result:<8}  {flags}"
    ).rstrip()


def timeline_json(view: TrajectoryView) -> dict[str, Any]:
    """The view as plain JSON (for `studio trajectory show --json`)."""
    return {
        "folder": str(view.folder),
        "run": view.run.model_dump(mode="json") if view.run else None,
        "steps": [
            {
                "index": s.index,
                "line": s.line,
                "action": s.record.action,
                "summary": describe_action(s.record.action),
                "target": s.record.target,
                "duration_ms": s.record.duration_ms,
                "ok": s.record.ok,
                "error": s.record.error,
                "flags": sorted(s.flags),
                "screenshot": str(s.screenshot) if s.screenshot else None,
                "observation": str(s.observation_path) if s.observation_path else None,
                "missing": s.missing,
            }
            for s in view.steps
        ],
        "final_png": str(view.final_png) if view.final_png else None,
        "final_sb3": str(view.final_sb3) if view.final_sb3 else None,
        "missing": view.missing,
        "problems": view.problems,
    }


def format_comparison(cmp: Comparison) -> str:
    """Both runs' verdicts, the aligned steps (`=` same action, `≠` different) and the tests."""
    lines = [
        f"A: {cmp.a.folder}",
        f"   {cmp.verdict_a}",
        f"B: {cmp.b.folder}",
        f"   {cmp.verdict_b}",
    ]
    lines += [f"warning: {w}" for w in cmp.warnings]
    lines.append(f"{'#':>4}  {'A':<36}    B")
    for row in cmp.rows:
        a = describe_action(row.step_a.record.action) if row.step_a else "-"
        b = describe_action(row.step_b.record.action) if row.step_b else "-"
        mark = "=" if row.same_action else "≠"
        lines.append(f"{row.index:>4}  {_clip(a, 36):<36}  {mark} {_clip(b, 36)}")
    divergence = cmp.first_divergence
    lines.append(
        "same actions throughout"
        if divergence is None
        else f"first difference at step {divergence}"
    )
    if cmp.tests:
        width = max(len(t.name) for t in cmp.tests)
        lines.append(f"{'test':<{width}}  {'A':<8}  B")
        for t in cmp.tests:
            lines.append(f"{t.name:<{width}}  {t.outcome_a or '-':<8}  {t.outcome_b or '-'}")
    return "\n".join(lines) + "\n"


def _pair(point: object) -> str:
    if isinstance(point, list | tuple) and len(point) == 2:
        return (
            f"({point[0]:g}, {point[1]:g})"
            if all(isinstance(v, int | float) for v in point)
            else str(point)
        )
    return "?"
