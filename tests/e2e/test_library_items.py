"""An item of Scratch's library picked in the studio's offline editor (resources/js/editor-bridge.js
`saveShown`).

The library's asset files live on Scratch's asset server, which an editor page of the studio
never reaches: the VM shows such a costume as its placeholder and, saved as the VM saves it, the
project names an asset it does not carry, which the evaluator and a study's desk refuse (found
by tests/e2e/test_action_fuzz.py, whose random clicks can pick Abby, the library's first
sprite). The page's export saves the placeholder it shows.
"""

from __future__ import annotations

import base64
import io
import json
import zipfile
from typing import Any

import pytest

from studio.services.core.sb3 import check_sb3
from studio.services.episodes.editor_pages import EditorPages
from studio.services.runtime import page_scripts
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

ABBY_A = "34a175600dc009a521eb46fdbbbeeb67.svg"  # an Abby costume of the library's sprites.json
SPRITE = {
    "isStage": False, "name": "Abby", "variables": {}, "lists": {}, "broadcasts": {},
    "blocks": {}, "comments": {}, "currentCostume": 0, "sounds": [], "volume": 100,
    "visible": True, "x": 0, "y": 0, "size": 100, "direction": 90, "draggable": False,
    "rotationStyle": "all around", "layerOrder": 2,
    "costumes": [{
        "name": "Abby-a", "bitmapResolution": 1, "dataFormat": "svg",
        "assetId": ABBY_A.split(".")[0], "md5ext": ABBY_A,
        "rotationCenterX": 31, "rotationCenterY": 100,
    }],
}  # fmt: skip
ADD = "(sprite) => window.vm.addSprite(sprite).then(() => true)"
BROKEN = """() => {
  const abby = window.vm.runtime.targets.find((t) => t.isOriginal && t.sprite.name === 'Abby');
  const costume = abby.sprite.costumes[0];
  return { broken: Boolean(costume.broken), md5: costume.broken ? costume.broken.md5 : null };
}"""


def test_a_library_sprite_the_page_could_not_load_is_exported_as_shown(
    browser_pool: Any, loop_thread: LoopThread
) -> None:
    async def scenario() -> tuple[bytes, dict[str, Any], dict[str, Any]]:
        pages = EditorPages(browser_pool.server, browser_pool.context, spares=0)
        page = await pages.acquire()
        try:
            await page.evaluate(ADD, json.dumps(SPRITE))  # as the GUI's sprite library adds it
            before = await page.evaluate(BROKEN)
            b64 = await page_scripts.bridge(page, "saveProjectBase64")
            after = await page.evaluate(BROKEN)
            return base64.b64decode(b64), before, after
        finally:
            await page.close()

    data, before, after = loop_thread.run(scenario())
    # the VM could not load the asset: a placeholder it keeps the library's name for
    assert before == {"broken": True, "md5": ABBY_A}
    assert after == before  # the export changed nothing in the VM
    project = check_sb3(data, "final.sb3")  # carries every asset it names
    abby = next(t for t in project["targets"] if t["name"] == "Abby")
    (costume,) = abby["costumes"]
    assert costume["name"] == "Abby-a" and costume["md5ext"] != ABBY_A
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert costume["md5ext"] in zf.namelist() and ABBY_A not in zf.namelist()
