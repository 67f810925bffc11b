"""Published-style drag items whose regions are for the item's own grab point, made without the
studio's region code (`build.py`).

The committed fixture `tests/fixtures/scratchworld_grab/` (published layout:
`single_step_drag_benchmark/tasks/<id>.json`, `scratch-gui/static/<id>.sb3`) was written by

    PYTHONPATH=. .venv/bin/python -m tests.helpers.published_grab.build OUT [ID...]

on the classic editor (the published benchmark's scratch-gui 5.x). Each item's screen is
prepared as a person would (sprite tile and palette clicks, wheel scrolls, zoom clicks: the
record's `switch_sprite_actions` / `locate_target_actions`), then panned by the record's
`pan_canvas_actions` (a custom_js whose payload carries the pan; its function sets the canvas
transform itself), and `workspace_state` is read from the canvas afterwards. The regions are
then made as the seed paper's appendix J says, in the screen the published drag runner's
restore makes (SCRATCHWORLD_API.md section 11, transcribed here, not the studio's): the start
region is the 4-neighbour flood fill of grid points from which a drag moves the block; the
item's grab point (`drag_start_point`) is a point of the block chosen away from the left-edge
heuristic and off the 5 px grid in whole pixels, as published items have it (the published
drag_and_drop takes integers); the end region is the flood fill of grid release points that
connect for a drag held THERE, every point a real drag of the published runner's 15 mouse steps
judged on the VM as its connection check judges it.
"""

from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scratchworld_grab"

__all__ = ["FIXTURE"]
