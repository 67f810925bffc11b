"""ScratchWorld's drag runner protocol against `studio serve --scratchworld ROOT`, every item.

Serves a checkout in the published layout (default: tests/fixtures/scratchworld_classic, the
drag items built on the classic edition by tools/build_classic_drag_items.py) on its default
edition (classic for a ROOT; `--edition` overrides), then plays each drag item in the order of
the published drag runner (tests/helpers/sw_client.run_drag_item: session, load, small stage,
pre-actions, workspace restore, one drag_and_drop, the VM check, restore, observe, export,
delete) with the item's published oracle answer, `drag_start_point` -> `first_valid_point` (a
drop that connects in the editor the item was built on). Prints one line per item and the
number that connect, palette items (`use_flyout`) apart, and the seconds per item.

`--border N` plays each item N more times, from its grab point to N points spread along the
inner border of its stored end region (points of the region with a 4-neighbour outside it:
the drops a slightly different editor would miss first), each a run of its own, and counts
the ones that connect.

    PYTHONPATH=. .venv/bin/python bench/bench_sw_drag.py [CHECKOUT] [--edition E] [--border N]
        [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.sw_client import SwClient, run_drag_item  # noqa: E402

CLASSIC = ROOT / "tests" / "fixtures" / "scratchworld_classic"


def serve(root: Path, runs: Path, edition: str | None) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "studio", "serve", "--scratchworld", str(root), "--port", "0"]
    cmd += ["--out", str(runs)] + (["--edition", edition] if edition else [])
    env = {**os.environ, "STUDIO_OCR": "off"}
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if not first.startswith("serving the agent API on "):
        proc.kill()
        raise SystemExit(f"studio serve did not start: {first}{proc.stdout.read()}")
    for line in proc.stdout:  # the start-up lines, up to the one naming the edition
        print(line.rstrip(), file=sys.stderr)
        if "ScratchWorld routes" in line:
            break
    return proc, first.split(" on ")[1].split()[0]


def border(points: list[list[int]], grid: int, most: int) -> list[list[int]]:
    """At most `most` points of the region with a 4-neighbour outside it, spread along it."""
    region = {(int(p[0]), int(p[1])) for p in points}
    steps = ((grid, 0), (-grid, 0), (0, grid), (0, -grid))
    edge = sorted(p for p in region if any((p[0] + a, p[1] + b) not in region for a, b in steps))
    return [list(p) for p in edge[:: max(1, len(edge) // most)][:most]] if most > 0 else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", type=Path, default=CLASSIC)
    parser.add_argument("--edition", help="serve on this edition (default: the ROOT's, classic)")
    parser.add_argument("--border", type=int, default=0, help="drops on N border points too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-sw-drag-") as tmp:
        root = Path(tmp) / "ScratchWorld"
        for part in ("single_step_drag_benchmark", "scratch-gui"):
            shutil.copytree(args.checkout / part, root / part)
        proc, url = serve(root, Path(tmp) / "runs", args.edition)
        client = SwClient(url, timeout=180)
        try:
            for path in sorted((root / "single_step_drag_benchmark" / "tasks").glob("*.json")):
                item = json.loads(path.read_text())
                cfg = item["evaluation_config"]
                t0 = time.perf_counter()
                run = run_drag_item(client, item, cfg["drag_start_point"], cfg["first_valid_point"])
                row = {
                    "id": item["id"],
                    "palette": bool(cfg.get("use_flyout")),
                    "connected": run.passed,
                    "why": run.details.get("why"),
                    "seconds": round(time.perf_counter() - t0, 1),
                }
                edge = border(cfg.get("feasible_points") or [], 5, args.border)
                if edge:
                    ok = []
                    for end in edge:
                        drop = run_drag_item(
                            client, item, cfg["drag_start_point"], (end[0], end[1])
                        )
                        ok.append(drop.passed)
                        if not drop.passed:
                            row.setdefault("border_missed", []).append(end)
                    row["border_connected"] = f"{sum(ok)} of {len(ok)}"
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
        finally:
            client.close()
            proc.terminate()
            proc.wait(timeout=60)
    palette = [r for r in rows if r["palette"]]
    summary = {
        "items": len(rows),
        "connected": sum(r["connected"] for r in rows),
        "palette_items": len(palette),
        "palette_connected": sum(r["connected"] for r in palette),
        "seconds_mean": round(sum(r["seconds"] for r in rows) / max(1, len(rows)), 1),
    }
    tried = [r["border_connected"].split(" of ") for r in rows if "border_connected" in r]
    if tried:
        summary["border"] = f"{sum(int(a) for a, _ in tried)} of {sum(int(b) for _, b in tried)}"
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
        return
    print(
        f"drag runner protocol, oracle answers: {summary['connected']} of {summary['items']} "
        f"items connect ({summary['palette_connected']} of {summary['palette_items']} palette "
        f"items), {summary['seconds_mean']} s per item"
        + (f"; border drops connecting: {summary['border']}" if "border" in summary else "")
    )


if __name__ == "__main__":
    main()
