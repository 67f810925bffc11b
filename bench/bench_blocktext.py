"""Speed and fidelity of block text: render then parse every script, in one run.

Sets: the bundled task library (golden and initial projects), the published-style corpus and
the whole test corpus (tests/corpus). For each: scripts, scripts per second of render + parse
+ rebuild + compare (the parser is one Node process per set), the round-trip share, and every
script that does not come back with why. With `--rows N`: the part of `studio import
nl2scratch` before any script is proposed, for N rows (the rows of
tests/fixtures/blocktext/nl2scratch_rows.jsonl repeated): reading every program in one parser
run and building each golden and initial project. (Proposing a script runs the programs in
the editor: about 40 s a row here, measured with `studio import nl2scratch` on that file.)
Timings are noisy on a shared machine.
Usage: .venv/bin/python bench/bench_blocktext.py [--json] [--rows 800]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.services.core.blocktext.project_text import build_into, build_project  # noqa: E402
from studio.services.core.blocktext.reading import read_texts  # noqa: E402
from studio.services.core.blocktext.roundtrip import round_trip  # noqa: E402
from studio.services.core.sb3 import load_sb3, read_project_json  # noqa: E402
from tests.corpus import ALL_CASES  # noqa: E402
from tests.corpus.published_style import PUBLISHED_STYLE_CASES  # noqa: E402


def _corpus(cases: tuple) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    return [
        (f"{c.id}-{v.name}", read_project_json(v.build().build()))
        for c in cases
        for v in c.variants
    ]


def import_rows(count: int) -> dict[str, float]:
    """Seconds to read `count` rows' programs and build their golden and initial projects."""
    source = ROOT / "tests" / "fixtures" / "blocktext" / "nl2scratch_rows.jsonl"
    rows = [json.loads(line) for line in source.read_text("utf-8").splitlines()]
    good = [r for r in rows if isinstance(r, dict) and "pseudocode" in r][:6]
    chosen = [good[i % len(good)] for i in range(count)]
    t0 = time.perf_counter()
    texts = [("\n".join(r["pseudocode"]), 1) for r in chosen]
    read = read_texts(texts)
    t1 = time.perf_counter()
    for (text, _), (scripts, problems) in zip(texts, read, strict=True):
        assert not problems
        golden = build_project(text, scripts=scripts)
        build_into(golden.data, "golden.sb3", "// sprite: Sprite1\n")
    t2 = time.perf_counter()
    return {
        "rows": count,
        "read_s": round(t1 - t0, 2),
        "build_s": round(t2 - t1, 2),
        "rows_per_s": round(count / (t2 - t0), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rows", type=int, default=0, help="also time the import of N rows")
    args = parser.parse_args()
    sets = {
        "bundled": [
            (f"{t.name}/{f.name}", load_sb3(f)[1])
            for t in sorted((ROOT / "tasks").iterdir())
            for f in sorted(t.glob("*.sb3"))
        ],
        "published_style": _corpus(PUBLISHED_STYLE_CASES),
        "corpus": _corpus(ALL_CASES),
    }
    out = {}
    for name, projects in sets.items():
        t0 = time.perf_counter()
        result = round_trip(projects)
        seconds = time.perf_counter() - t0
        out[name] = {
            "projects": len(projects),
            "scripts": result.scripts,
            "same": result.same,
            "share": round(result.share, 4),
            "seconds": round(seconds, 2),
            "scripts_per_s": round(result.scripts / seconds, 1) if seconds else None,
            "failures": result.failures,
        }
    if args.rows:
        out["import"] = import_rows(args.rows)  # type: ignore[assignment]
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, row in out.items():
        if name == "import":
            print(f"import (no scripts) {row}")
            continue
        print(
            f"{name:16} {row['same']}/{row['scripts']} scripts back ({row['share']:.1%}), "
            f"{row['scripts_per_s']} scripts/s ({row['seconds']} s, {row['projects']} projects)"
        )
        for failure in row["failures"]:
            print(f"    {failure}")


if __name__ == "__main__":
    main()
