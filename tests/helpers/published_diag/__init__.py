"""Drag items and perception questions of our own, in the exact published ScratchWorld layout.

The committed fixture `tests/fixtures/scratchworld_diag/` was written by `build.py`
(`PYTHONPATH=. .venv/bin/python -m tests.helpers.published_diag.build OUT`):

    single_step_drag_benchmark/tasks/<id>.json        one record per item, published keys
    scratch-gui/static/<id>.sb3                       each item's project (bitmap costumes)
    visual_perception_benchmark/tasks/<n>.json        one question per file, with provenance
    visual_perception_benchmark/screenshots_final/    1280x720 PNGs (shared by questions)

The builder prepares each item's screen the way a person does on a 1280x720 page in small
stage mode: real clicks on the sprite tile and on palette categories, real wheel scrolls on
the palette and on the code area, real clicks on the zoom button; it writes those clicks as
the record's `switch_sprite_actions` / `locate_target_actions` and reads `workspace_state`
(tx, ty, scale, scrollX, scrollY, transform) from the editor afterwards. The stored regions
are the seed paper's flood fill in that very screen: 4-neighbour, every grid point verified
by a real drag of 15 mouse steps (the published runner's `drag_and_drop`), the verdict read
from the VM as the published runner reads it. Nothing of the studio's region computation is
used, so an import that does not restore the screen exactly cannot reproduce the regions.
"""

from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scratchworld_diag"
