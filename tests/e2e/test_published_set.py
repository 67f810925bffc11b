"""A task set in the published ScratchWorld layout, imported and checked as a new user would.

Tasks of our published-style set (tests/helpers/published_set: long sampling windows, several
cases per script, bitmap costumes, the set's own helper library, task timeouts smaller than
the scripts' own windows) are imported with `studio import scratchworld` and checked with
`studio check --mutants 0 --reruns 1`: the import records the classic editor edition (the
published benchmark's), so the check runs in the classic VM; every golden passes and every
debug initial fails, on the virtual clock, with nothing run in real time. The verdicts equal
those of the published protocol run in real time on the classic edition's editor page (small
stage mode, config {}, 120 s cap) on the cheapest task, test by test. Export writes the
checkout back byte for byte.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from studio.services.core.store import load_task
from studio.services.formats.scratchworld.published_protocol import PublishedProtocol
from studio.services.runtime import editions
from studio.services.runtime.clock_agreement import verdicts
from studio.services.runtime.editions import Edition
from tests.helpers.cli import studio
from tests.helpers.published_set import all_specs, build_published_set

pytestmark = pytest.mark.browser


def _cheapest_per_category() -> list[str]:
    chosen: dict[str, tuple[float, str]] = {}
    for spec in all_specs():
        if spec.golden and (
            spec.category not in chosen or spec.program_s < chosen[spec.category][0]
        ):
            chosen[spec.category] = (spec.program_s, spec.id)
    return [task_id for _, task_id in chosen.values()]


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_imported_set_checks_as_the_published_protocol_judges_it(
    tmp_path: Path,
    loop_thread,
    classic_pool,  # type: ignore[no-untyped-def]
) -> None:
    ids = _cheapest_per_category()
    published = build_published_set(tmp_path / "checkout", ids)
    lib = tmp_path / "lib"
    out = studio("import", "scratchworld", str(published.root), str(lib), "--json")
    assert out.returncode == 0, out.stderr
    assert sorted(json.loads(out.stdout)["imported"]) == sorted(ids)
    assert editions.read_edition(lib) is Edition.CLASSIC

    out = studio("check", str(lib), "--mutants", "0", "--reruns", "1", "--json", "--with-results")
    report = json.loads(out.stdout)
    assert out.returncode == 0, [(t["id"], t["errors"]) for t in report["tasks"]]
    checks = {t["id"]: t for t in report["tasks"]}
    assert all(t["clock"] == "virtual" and t["verdict"] == "valid" for t in checks.values())

    debug = next(i for i in ids if published.tasks[i].category == "debug")
    entry = load_task(lib / debug)
    labels = ("golden", "initial")

    async def both() -> list[Any]:  # real time: the two runs wait side by side
        paths = (entry.golden_path, entry.initial_path)
        protocol = PublishedProtocol(classic_pool)  # the session's classic browser
        return list(await asyncio.gather(*(protocol.evaluate(entry, p) for p in paths)))

    for label, reference in zip(labels, loop_thread.run(both()), strict=True):
        ours = checks[debug][label]
        kind = ours["error"]["kind"] if ours["error"] else None
        tests = tuple((d["name"], d["passed"]) for d in ours["details"])
        assert (kind, ours["success"], tests) == verdicts(reference), (label, reference.details)

    back = studio("export", "scratchworld", str(lib), str(tmp_path / "out"))
    assert back.returncode == 0, back.stderr
    assert _tree(tmp_path / "out") == _tree(published.root)
