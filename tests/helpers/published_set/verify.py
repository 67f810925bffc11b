"""Check the set's verdicts with the studio: `python -m tests.helpers.published_set.verify OUT`.

Builds the set in a temporary folder, imports it with `studio import scratchworld`, then runs
`studio eval --timeout 120` one evaluation at a time: every golden (the reference solution for
tasks without golden) and every debug initial in real time (`--realtime`), and both again plus
every other initial on the virtual clock (the imported task asks for the virtual clock, so the
studio does not fall back to real time). Writes OUT (JSON) after each evaluation:
`{rows: [{id, category, project, clock, expected, success, passed, total, wall_s, program_s,
failed}], ...}`. Options: `--ids a,b` (a subset), `--real-only`, `--virtual-only`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.helpers.published_set import Expectation, build_published_set, reference_projects

REPO = Path(__file__).resolve().parents[3]
STUDIO = [sys.executable, "-m", "studio"]


def _import(root: Path, dest: Path) -> dict[str, Any]:
    cmd = [*STUDIO, "import", "scratchworld", str(root), str(dest), "--json"]
    report: dict[str, Any] = json.loads(
        subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, check=True).stdout
    )
    for path in dest.glob("*/task.json"):
        task = json.loads(path.read_text(encoding="utf-8"))
        task["evaluation"]["clock"] = "virtual"  # compare clocks: no fallback to real time
        path.write_text(json.dumps(task, indent=2), encoding="utf-8")
    return report


def _eval(folder: Path, project: Path, realtime: bool) -> tuple[dict[str, Any], float]:
    cmd = [*STUDIO, "eval", str(folder), "--project", str(project), "--timeout", "120", "--json"]
    cmd += ["--realtime"] if realtime else []
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    wall = time.monotonic() - started
    try:
        return json.loads(done.stdout), wall
    except json.JSONDecodeError:
        return {"success": None, "error": (done.stdout + done.stderr)[-800:]}, wall


def _failures(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in result.get("details") or [] if not d.get("passed")]


def _plan(tasks: dict[str, Expectation], real: bool, virtual: bool) -> list[tuple[str, str, bool]]:
    plan = []
    for task_id, t in tasks.items():
        for which in ("golden", "initial"):
            if real and (which == "golden" or t.category == "debug"):
                plan.append((task_id, which, True))
            if virtual:
                plan.append((task_id, which, False))
    return plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--ids", default="")
    parser.add_argument("--real-only", action="store_true")
    parser.add_argument("--virtual-only", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="published-set-"))
    ps = build_published_set(work / "set", args.ids.split(",") if args.ids else None)
    report = _import(ps.root, work / "lib")
    refs = work / "references"
    refs.mkdir()
    for task_id, data in reference_projects(ps.tasks).items():
        (refs / f"{task_id}.sb3").write_bytes(data)
    rows: list[dict[str, Any]] = []
    for task_id, which, realtime in _plan(ps.tasks, not args.virtual_only, not args.real_only):
        t = ps.tasks[task_id]
        folder = work / "lib" / task_id
        if which == "golden":
            project = folder / t.golden if t.golden else refs / f"{task_id}.sb3"
            expected = True
        else:
            project, expected = folder / t.initial, t.initial_passes
        result, wall = _eval(folder, project, realtime)
        timings = result.get("timings") or {}
        rows.append(
            {
                "id": task_id,
                "category": t.category,
                "project": which if t.golden or which == "initial" else "reference",
                "clock": "real" if realtime else "virtual",
                "expected": expected,
                "success": result.get("success"),
                "passed": result.get("passed_tests"),
                "total": result.get("total_tests"),
                "wall_s": round(wall, 1),
                "script_s": timings.get("script_s"),
                "program_s": timings.get("program_s"),
                "declared_program_s": t.program_s,
                "error": result.get("error"),
                "failed": [
                    [d["name"], d.get("error")]
                    for d in result.get("details") or []
                    if not d["passed"]
                ],
            }
        )
        summary = {"import": {k: report.get(k) for k in ("imported", "skipped", "warnings")}}
        args.out.write_text(json.dumps(summary | {"rows": rows}, indent=1), encoding="utf-8")
        mark = "ok " if result.get("success") == expected else "BAD"
        print(
            mark,
            task_id,
            which,
            rows[-1]["clock"],
            result.get("success"),
            f"{wall:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
