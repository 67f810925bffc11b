"""The Text tab in the real window: the pane follows the editor, Apply puts the text's blocks
into the real editor's VM as one undo step, and a line that cannot be placed changes nothing."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.services.runtime.editions import Edition, write_edition
from studio.views.live.page import QtEditorPage
from tests.helpers.sample_task import write_sample_task

pytestmark = [pytest.mark.gui, pytest.mark.browser]
WAIT_MS = 90_000

CAT = "vm.runtime.getSpriteTargetByName('Cat')"
CAT_OPCODES = f"Object.values({CAT}.blocks._blocks).map(b => b.opcode).sort().join(',')"
CAT_TOPS = f"{CAT}.blocks.getScripts().length"
HITS = "Boolean(vm.runtime.getTargetForStage().lookupVariableByNameAndType('hits', ''))"
APPLIED_OPCODES = sorted(
    [
        "control_repeat",
        "data_changevariableby",
        "event_whenflagclicked",
        "math_number",
        "math_whole_number",
    ]
)
NEW_TEXT = "when green flag clicked\nrepeat (3)\n    change [hits v] by (2)\nend\n"


def _type(pane: Any, text: str) -> None:
    """Replace the pane's text as typing or pasting does (an edit: the pane is dirty)."""
    pane.editor.selectAll()
    pane.editor.insertPlainText(text)


def _scripts(text: str) -> list[str]:
    return sorted(part.strip() for part in text.split("\n\n") if part.strip())


def _open_golden(qtbot: Any, window: Any) -> None:
    assert window.library.select_task("cat-hello")
    qtbot.waitUntil(window.commands.open_golden.isEnabled, timeout=WAIT_MS)
    window.commands.open_golden.trigger()
    qtbot.waitUntil(lambda: window.editor.project_name.endswith("golden.sb3"), timeout=WAIT_MS)


def test_apply_puts_the_text_into_the_editor_and_one_undo_takes_it_back(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    write_sample_task(tmp_path / "lib" / "cat-hello")
    window = boot_window(tmp_path / "lib")
    run_async(window.wait_library())
    _open_golden(qtbot, window)
    pane = window.text_pane
    before = js(window, CAT_OPCODES)
    assert js(window, CAT_TOPS) == 2

    window.commands.show_text.trigger()  # Ctrl+4: the tab, with the Cat's scripts
    assert window.tabs.currentWidget() is pane
    qtbot.waitUntil(lambda: "when this sprite clicked" in pane.text(), timeout=WAIT_MS)
    assert "Cat" in pane.target.text() and not pane.dirty
    shown = pane.text()

    # a line that cannot be placed: listed with its number, nothing applied
    _type(pane, "when green flag clicked\nmove (10) steps\nend\n")
    assert pane.dirty
    window.commands.apply_text.trigger()
    qtbot.waitUntil(lambda: pane.problems.count() > 0, timeout=WAIT_MS)
    assert "line 3" in pane.problems.item(0).text(), pane.problems.item(0).text()
    assert pane.status.text().startswith("Nothing applied")
    assert js(window, CAT_OPCODES) == before

    # Apply: the Cat's scripts are the text's, a new variable made, the editor unsaved
    _type(pane, NEW_TEXT)
    window.commands.apply_text.trigger()
    qtbot.waitUntil(lambda: pane.status.text().startswith("Applied"), timeout=WAIT_MS)
    assert "variable 'hits'" in pane.status.text() and "differ" not in pane.status.text()
    assert pane.problems.isHidden() and not pane.dirty
    assert js(window, CAT_TOPS) == 1
    assert js(window, CAT_OPCODES) == ",".join(APPLIED_OPCODES)
    assert js(window, HITS) is True
    assert run_async(window.editor.bridge_now("isDirty")) is True
    qtbot.waitUntil(lambda: window.current.dirty().get("golden") is True, timeout=WAIT_MS)

    shots = os.environ.get("STUDIO_SHOT_DIR")  # README's picture of the pane (opt-in)
    if shots:
        qtbot.waitUntil(lambda: window.details.pictures.changes is not None, timeout=WAIT_MS)
        window.grab().save(str(Path(shots) / "text-pane.png"))

    # the program runs as the text says: the flag makes hits 6
    js(window, "vm.greenFlag(), true")
    qtbot.waitUntil(
        lambda: js(window, "vm.runtime.getTargetForStage()"
                           ".lookupVariableByNameAndType('hits', '').value") == 6,
        timeout=WAIT_MS,
    )  # fmt: skip

    # one undo (the editor's own undo stack, one event group) brings the blocks back
    assert pane.undo_button.isEnabled()
    pane.undo_button.click()
    qtbot.waitUntil(lambda: pane.status.text().startswith("The apply was undone"), timeout=WAIT_MS)
    assert js(window, CAT_OPCODES) == before
    assert js(window, CAT_TOPS) == 2
    assert js(window, HITS) is False
    assert _scripts(pane.text()) == _scripts(shown) and not pane.dirty  # (in the VM's order)


def test_the_pane_follows_the_editor_and_keeps_typed_text(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    write_sample_task(tmp_path / "lib" / "cat-hello")
    window = boot_window(tmp_path / "lib")
    run_async(window.wait_library())
    _open_golden(qtbot, window)
    pane = window.text_pane
    window.commands.show_text.trigger()
    qtbot.waitUntil(lambda: "when this sprite clicked" in pane.text(), timeout=WAIT_MS)

    # a change in the editor (a script deleted there) reaches a pane nothing was typed in
    js(window, "workspace.getTopBlocks(false).find(b => b.type === 'event_whenthisspriteclicked')"
               ".dispose(false), true")  # fmt: skip
    qtbot.waitUntil(lambda: "when this sprite clicked" not in pane.text(), timeout=WAIT_MS)
    assert "when @greenFlag clicked" in pane.text() and not pane.dirty

    # typed text is kept when the editor changes; the pane says so; Reload takes the editor's
    _type(pane, "say [mine]\n")
    js(window, "workspace.getTopBlocks(false)[0].dispose(false), true")
    qtbot.waitUntil(pane.stale.isVisible, timeout=WAIT_MS)
    assert pane.text() == "say [mine]\n"
    pane.reload_button.click()
    qtbot.waitUntil(lambda: pane.text() == "" and not pane.dirty, timeout=WAIT_MS)
    assert pane.stale.isHidden()

    # text typed for the Cat is not applied to another target the editor switched to
    _type(pane, "when @greenFlag clicked\nshow\n")
    js(window, "vm.setEditingTarget(vm.runtime.getTargetForStage().id), true")
    qtbot.waitUntil(lambda: "shows Stage now" in pane.stale.text(), timeout=WAIT_MS)
    assert pane.stale.isVisible() and pane.text() == "when @greenFlag clicked\nshow\n"
    stage_blocks = "Object.keys(vm.runtime.getTargetForStage().blocks._blocks).length"
    stage_before = js(window, stage_blocks)
    window.commands.apply_text.trigger()
    qtbot.waitUntil(lambda: pane.status.text().startswith("Nothing applied"), timeout=WAIT_MS)
    assert "the text is Cat's" in pane.status.text()
    assert js(window, stage_blocks) == stage_before and js(window, CAT_TOPS) == 0
    pane.reload_button.click()
    qtbot.waitUntil(lambda: "Stage" in pane.target.text() and not pane.dirty, timeout=WAIT_MS)


RICH_TEXT = """\
define jump (height) <fast>
if <fast> then
    change y by (height)
else
    change y by ((height) / (2))
end
add (height) to [seen v]

when green flag clicked
delete all of [seen v]
set [score v] to (0)
repeat until <(score) > (3)>
    change [score v] by (1)
    jump (score) <(score) = (2)>
end
broadcast (finished v)

when I receive [finished v]
say (join [seen: ] (length of [seen v]))
"""


def test_custom_blocks_lists_and_messages_apply_exactly_and_run(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    write_sample_task(tmp_path / "lib" / "cat-hello")
    window = boot_window(tmp_path / "lib")
    run_async(window.wait_library())
    _open_golden(qtbot, window)
    pane = window.text_pane
    window.commands.show_text.trigger()
    qtbot.waitUntil(lambda: "when this sprite clicked" in pane.text(), timeout=WAIT_MS)
    _type(pane, RICH_TEXT)
    window.commands.apply_text.trigger()
    qtbot.waitUntil(lambda: pane.status.text().startswith("Applied"), timeout=WAIT_MS)
    status = pane.status.text()
    assert "Applied 3 script(s)" in status and "differ" not in status, status  # as planned
    for made in ("variable 'score'", "list 'seen'", "message 'finished'"):
        assert made in status
    run_async(window.text.reload())  # the editor's own text of what it holds
    assert _scripts(pane.text()) == _scripts(RICH_TEXT.replace("green flag", "@greenFlag"))

    js(window, "vm.greenFlag(), true")
    seen = "vm.runtime.getTargetForStage().lookupVariableByNameAndType('seen', 'list').value"
    qtbot.waitUntil(lambda: js(window, f"{seen}.length") == 4, timeout=WAIT_MS)
    assert js(window, f"{seen}.map(String).join(',')") == "1,2,3,4"
    assert js(window, f"{CAT}.y") == 50 + 0.5 + 2 + 1.5 + 2  # half a jump unless fast

    # Ctrl+Z pressed in the editor's code area (real Qt input) undoes the whole apply at once
    page = QtEditorPage(window.editor)
    corner = js(
        window,
        "(() => { const r = document.querySelector('.blocklyMainBackground')"
        ".getBoundingClientRect(); return [r.right - 120, r.bottom - 60]; })()",
    )
    zoom = window.editor.view.zoomFactor()  # the view's pixels are CSS pixels times the zoom
    run_async(page.mouse.click(corner[0] * zoom, corner[1] * zoom))
    run_async(page.keyboard.press("Control+z"))
    qtbot.waitUntil(lambda: js(window, CAT_TOPS) == 2, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "when this sprite clicked" in pane.text(), timeout=WAIT_MS)
    assert js(window, "Boolean(vm.runtime.getTargetForStage()"
                      ".lookupVariableByNameAndType('seen', 'list'))") is False  # fmt: skip


def test_apply_and_undo_on_the_classic_editor(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    library = tmp_path / "lib"
    write_sample_task(library / "cat-hello")
    write_edition(library, Edition.CLASSIC)
    window = boot_window(library)
    assert js(window, "window.studioEdition.name") == "classic"
    run_async(window.wait_library())
    _open_golden(qtbot, window)
    before = js(window, CAT_OPCODES)
    pane = window.text_pane
    window.commands.show_text.trigger()
    qtbot.waitUntil(lambda: "when this sprite clicked" in pane.text(), timeout=WAIT_MS)
    _type(pane, RICH_TEXT)
    window.commands.apply_text.trigger()
    qtbot.waitUntil(lambda: pane.status.text().startswith("Applied"), timeout=WAIT_MS)
    assert "differ" not in pane.status.text(), pane.status.text()
    assert js(window, CAT_TOPS) == 3
    pane.undo_button.click()
    qtbot.waitUntil(lambda: pane.status.text().startswith("The apply was undone"), timeout=WAIT_MS)
    assert js(window, CAT_OPCODES) == before and js(window, CAT_TOPS) == 2
