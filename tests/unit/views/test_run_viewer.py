"""The run viewer's pieces: the action drawn on a screenshot, the timeline rows and flags."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor, QImage

from studio.models.agent import Element, Mode, Observation
from studio.views.viewer import overlay
from studio.views.viewer.marks import hit_index, mark_for
from studio.views.viewer.steps import ViewerStep, flag_live
from studio.views.viewer.timeline import TimelineModel
from tests.unit.trajectories.build import png, step

ELEMENTS = [
    Element(index=0, type="canvas", x=0, y=0, w=1280, h=720),
    Element(index=1, type="blocks", text="move", x=60, y=120, w=80, h=30),
]


def _step(number: int, api: str = "click", ok: bool = True, **args: Any) -> ViewerStep:
    obs = Observation(mode=Mode.PRIMITIVE, step=number, elements=ELEMENTS)
    return ViewerStep(
        record=step(number, api, ok=ok, **args), png=png(number), load_observation=lambda: obs
    )


def test_a_drag_resolves_both_ends_and_the_element_under_the_press(qapp: Any) -> None:
    s = _step(1, "drag_and_drop", start_index=1, end_x=500, end_y=300)
    mark = mark_for(s)
    assert mark.kind == "drag"
    assert mark.points == [(100, 135), (500, 300)]  # the block's centre, then the drop point
    assert mark.box == (60, 120, 80, 30)
    assert hit_index(s) == 1


def test_a_click_by_point_highlights_the_smallest_element_there(qapp: Any) -> None:
    s = _step(2, "click", x=70, y=125)
    assert mark_for(s).kind == "click" and hit_index(s) == 1
    assert hit_index(_step(3, "click", x=900, y=600)) == 0  # only the canvas is there


def test_overlay_draws_on_a_copy_in_the_screenshot_pixels(qapp: Any) -> None:
    image = QImage(1280, 720, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    drawn = overlay.draw(
        image,
        mark_for(_step(1, "drag_and_drop", start_x=100, start_y=100, end_x=600, end_y=400)),
        failed=True,
    )
    assert drawn.size() == image.size()
    assert image.pixelColor(350, 250) == QColor("white")  # the original is untouched
    assert drawn.pixelColor(350, 250) != QColor("white")  # on the drag path
    assert drawn.pixelColor(2, 360).red() > 200 and drawn.pixelColor(2, 360).green() < 80


def test_unresolvable_points_become_a_caption(qapp: Any) -> None:
    obs_less = ViewerStep(record=step(1, "click", index=5))
    mark = mark_for(obs_less)
    assert mark.kind == "caption" and "click" in mark.text


def test_live_flags_mark_failures_repeats_and_no_ops(qapp: Any) -> None:
    steps: list[ViewerStep] = []
    model = TimelineModel()
    same = {"x": 5, "y": 5}
    for s in (_step(1, "click", **same), _step(2, "click", **same), _step(3, "click", ok=False)):
        flag_live(steps, s)
        steps.append(s)
        model.append(s)
    # identical screenshots before and after a click that changed nothing: a no-op
    quiet = ViewerStep(record=step(4, "click", x=9, y=9), png=png(3))
    flag_live(steps, quiet)
    steps.append(quiet)
    after = ViewerStep(record=step(5, "click", x=1, y=1), png=png(3))
    flag_live(steps, after)
    assert "no_op" in quiet.flags and "no_op" not in steps[2].flags
    assert "repeated" in steps[1].flags and "repeated" not in steps[0].flags
    assert "failed" in steps[2].flags
    assert model.rowCount() == 3
    assert "repeated" in model.data(model.index(1, 5))
    assert model.data(model.index(2, 4)).startswith("error")


def test_step_detail_shows_the_tokens_and_cost_of_the_step(qapp: Any) -> None:
    from studio.views.viewer.step_detail import StepDetail

    record = step(1)
    record.usage = {"prompt_tokens": 100, "completion_tokens": 20, "cost": 0.14}
    detail = StepDetail()
    try:
        detail.show_step(ViewerStep(record))
        assert "tokens 100 + 20, cost 0.1400" in detail.caption.text()
        detail.show_step(ViewerStep(step(2)))
        assert "tokens" not in detail.caption.text()
    finally:
        detail.deleteLater()


def test_a_recorded_run_title_shows_the_episode_tokens_and_cost(qapp: Any, tmp_path: Any) -> None:
    from studio.views.viewer.recorded import open_run
    from tests.unit.trajectories.build import run_info, write_trajectory

    usage = {"prompt_tokens": 300, "completion_tokens": 60, "cost": 0.42}
    folder = write_trajectory(tmp_path / "r", [step(1)], run=run_info(meta={"usage": usage}))
    assert "tokens 300 + 60, cost 0.4200" in open_run(folder).title
    plain = write_trajectory(tmp_path / "p", [step(1)])
    assert "tokens" not in open_run(plain).title
