"""Evaluation pages load the GUI bundle without its entry (runtime.lean_bundle): the GUI's own
modules never run there, and the Scratch classes scratch-classes.js finds in the module table
are the ones the editor of the same edition runs its VM with."""

from __future__ import annotations

from typing import Any

import pytest

from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition, info
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

# On the editor page (the whole bundle, its entry run and the editor mounted): the classes
# scratch-classes.js finds, against the editor's own VM and what it holds: the very class, or
# a copy of the same source (the classic bundle carries scratch-svg-renderer twice, and its
# editor's VM holds the other copy's bitmap adapter).
SAME_CLASSES_JS = """() => {
  const C = window.ScratchClasses, vm = window.vm, rt = vm.runtime;
  const text = (f) => Function.prototype.toString.call(f);
  const kin = (a, b) => (a === b ? 'same' : text(a) === text(b) ? 'copy' : 'other');
  const made = C.createVM(C.stageCanvas());
  const found = {
    vm: kin(vm.constructor, C.VirtualMachine),
    renderer: kin(vm.renderer.constructor, C.Renderer),
    audio: kin(rt.audioEngine.constructor, C.AudioEngine),
    bitmap: kin(rt.v2BitmapAdapter.constructor, C.BitmapAdapter),
    storage: rt.storage instanceof made.runtime.storage.constructor ? 'same' : 'other',
  };
  made.quit();
  return found;
}"""


def _pool(edition: Edition, browser_pool: BrowserPool, classic_pool: BrowserPool) -> BrowserPool:
    return classic_pool if edition is Edition.CLASSIC else browser_pool


@pytest.mark.parametrize("edition", [Edition.CURRENT, Edition.CLASSIC])
def test_the_evaluation_page_runs_no_gui_module_and_finds_the_editors_classes(
    edition: Edition, loop_thread: LoopThread, browser_pool: BrowserPool, classic_pool: BrowserPool
) -> None:
    pool = _pool(edition, browser_pool, classic_pool)
    assert pool.server is not None
    server = pool.server

    async def both() -> tuple[Any, Any]:
        ready = await pool.acquire_eval_page()
        try:  # the entry's exports are what the lean script returns: nothing
            exported = await ready.page.evaluate("() => Object.keys(window.GUI)")
        finally:
            await pool.release(ready.page)
        page = await pool.context.new_page()
        try:
            await page.goto(server.url(info(edition).editor_page), wait_until="domcontentloaded")
            await page.wait_for_function("window.studioEditorReady === true", timeout=120_000)
            await page.add_script_tag(url=server.url("studio-js/scratch-classes.js"))
            return exported, await page.evaluate(SAME_CLASSES_JS)
        finally:
            await page.close()

    exported, found = loop_thread.run(both())
    assert exported == []
    assert found["vm"] == found["renderer"] == found["audio"] == found["storage"] == "same", found
    assert found["bitmap"] == ("copy" if edition is Edition.CLASSIC else "same"), found
