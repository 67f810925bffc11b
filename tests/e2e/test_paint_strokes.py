"""Strokes drawn by the primitive oracle in the real editor's paint editor, and replayed in the
viewer (issue 42, "Done when"): a task gives the drawing of its golden costume
(`metadata.drawing`); the oracle opens the Costumes tab, picks the Brush and draws the path
with one `stroke` action; the costume the VM keeps gets the drawing (a new shape in its SVG, as
wide and as tall as the path drawn, relative to each other); the trajectory records the stroke;
the viewer draws its path over the recorded screenshot. Runs with the window tests (PySide6)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from studio.models.agent import Mode
from studio.models.evaluation import Clock
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.episodes.agents import OracleAgent
from studio.services.episodes.agents.base import run_episode
from studio.services.episodes.manager import EpisodeManager
from studio.views.viewer import overlay
from studio.views.viewer.marks import mark_for
from studio.views.viewer.recorded import open_run
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser
# a wide zigzag across the middle of the paint canvas (fractions of it)
PATH = [[0.12, 0.62], [0.35, 0.40], [0.55, 0.62], [0.75, 0.40], [0.9, 0.55]]


def _costume_svg(sb3: bytes, sprite: str) -> str:
    with zipfile.ZipFile(io.BytesIO(sb3)) as z:
        project = json.loads(z.read("project.json"))
        target = next(t for t in project["targets"] if t["name"] == sprite)
        costume = target["costumes"][target["currentCostume"]]
        return z.read(costume["md5ext"]).decode("utf-8")


def _shapes(svg: str) -> int:
    return len(re.findall(r"<(path|circle|ellipse|rect|polyline|polygon)\b", svg))


def test_the_primitive_oracle_draws_a_stroke_that_the_costume_keeps_and_the_viewer_replays(
    loop_thread: LoopThread, browser_pool: Any, tmp_path: Path, qapp: Any
) -> None:
    folder = shutil.copytree(paths.BUNDLED_TASKS / "create_cat_walk", tmp_path / "paint_cat")
    shutil.copyfile(folder / "initial.sb3", folder / "golden.sb3")  # the code is already right
    data = json.loads((folder / "task.json").read_text())
    data["id"] = "paint_cat"
    data.setdefault("metadata", {})["drawing"] = {"Cat": [PATH]}
    (folder / "task.json").write_text(json.dumps(data, indent=2))
    task = load_task(folder)
    manager = EpisodeManager(server=browser_pool.server, pool=browser_pool)
    agent = OracleAgent(task)
    record = tmp_path / "run"
    try:
        loop_thread.run(run_episode(manager, task, Mode.PRIMITIVE, agent, record, Clock.VIRTUAL))
    finally:
        loop_thread.run(manager.close())
    assert agent.errors == []
    steps = [json.loads(line) for line in (record / "steps.jsonl").read_text().splitlines()]
    assert [s["action"]["api"] for s in steps] == ["click", "click", "stroke", "click", "done"]
    assert all(s["ok"] for s in steps), [s.get("error") for s in steps]
    stroke = steps[2]
    points = stroke["action"]["args"]["points"]
    assert len(points) == len(PATH)
    # the costume as the VM keeps it: one shape more than before, laid out as the path was
    before = _costume_svg((folder / "initial.sb3").read_bytes(), "Cat")
    after = _costume_svg((record / "final.sb3").read_bytes(), "Cat")
    assert after != before and _shapes(after) == _shapes(before) + 1
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    assert max(xs) - min(xs) > 2 * (max(ys) - min(ys))  # drawn wide: the saved shape is too
    widths = re.findall(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"', after)
    assert widths, after[:300]
    width, height = (float(v) for v in widths[0])
    assert width > height  # the costume grew sideways to hold the zigzag

    # the viewer replays it: the stroke step's mark is the whole path, drawn on its screenshot
    opened = open_run(record)
    (seen,) = [s for s in opened.steps if s.record.action.get("api") == "stroke"]
    mark = mark_for(seen)
    assert mark.kind == "drag" and mark.points == [(float(x), float(y)) for x, y in points]
    png = seen.screenshot_bytes()
    assert png is not None
    shot = QImage.fromData(png)
    drawn = overlay.draw(shot, mark)
    middle = points[2]
    colour = drawn.pixelColor(middle[0], middle[1])
    assert abs(colour.red() - overlay.DRAG.red()) < 40, colour.name()
    assert abs(colour.green() - overlay.DRAG.green()) < 40, colour.name()
    keep = os.environ.get("STUDIO_SHOT_DIR")
    if keep:  # to look at it
        drawn.save(str(Path(keep) / "paint-stroke-replay.png"))
