"""Live runs in the window's own editor: a scripted agent paused, stepped and resumed, an
episode an external client drives through the API served from the window, and the page they
get: Playwright's page API built on Qt, real input, and no debugging endpoint anywhere (nothing
another local process could use to reach the page)."""

from __future__ import annotations

import asyncio
import os
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from PySide6.QtGui import QImage

from studio.models.agent import Mode
from studio.services.core import paths
from studio.services.episodes.agents import ScriptedAgent
from studio.services.episodes.editor_pages import EditorPages
from studio.services.episodes.live.controls import RunState
from studio.services.episodes.modes import VIEWPORT
from studio.services.episodes.recorder import read_trajectory
from studio.services.runtime import page_scripts
from studio.views.viewer.marks import mark_for
from tests.helpers.window_fit import page_fits_view
from tests.unit.trajectories.build import step, write_trajectory

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 120_000
MOVE_BLOCKS = (
    "Object.values(vm.editingTarget.blocks._blocks)"
    ".filter(b => b.opcode === 'motion_movesteps').length"
)
# Motion is the category shown after the episode's layout; "move (10) steps" is the first
# flyout block, at the top-left of the 1280x720 screen.
DRAG_MOVE_BLOCK = {
    "api": "drag_and_drop",
    "args": {"start_x": 84, "start_y": 136, "end_x": 520, "end_y": 300},
}
CLICK_LOOKS = {"api": "click", "args": {"x": 30, "y": 160}}


def test_scripted_agent_runs_live_then_its_run_opens_replays_compares_and_exports(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    assert window.library.select_task("create_cat_walk")
    entry = window.library.current_entry()
    before = js(window, MOVE_BLOCKS)
    agent = ScriptedAgent([(DRAG_MOVE_BLOCK, "put a move block out"), (CLICK_LOOKS, "look")])
    run = asyncio.ensure_future(window.runs.run_agent(entry, agent, Mode.PRIMITIVE, paused=True))
    panel, live = window.run_panel, window.runs.live

    # Paused before the first action: it is shown as pending and nothing has happened.
    qtbot.waitUntil(
        lambda: live.controls is not None and live.controls.pending is not None, timeout=WAIT_MS
    )
    assert live.controls.state is RunState.PAUSED
    assert live.controls.pending["api"] == "drag_and_drop"
    assert panel.model.rowCount() == 0
    assert "next: drag_and_drop" in panel.pending.text()
    assert js(window, "window.vm.editingTarget.getName()") == "Cat"  # the task's project

    # Step: exactly one action, in the window's own editor, then paused again.
    panel.step()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: live.controls.pending is not None, timeout=WAIT_MS)
    assert live.controls.state is RunState.PAUSED
    assert live.controls.pending["api"] == "click"
    assert js(window, MOVE_BLOCKS) == before + 1
    first = panel.model.steps[0]
    assert first.record.ok and first.record.change.added, first.record
    assert panel.detail.step is first and not panel.detail.image.pixmap.isNull()
    assert panel.detail.image.pixmap.width() == 1280  # the benchmark's screen, overlay on it
    assert "added" in panel.detail.change.toPlainText()

    # Resume: the rest runs, the episode ends, is evaluated, and the editor is the window's.
    panel.resume()
    qtbot.waitUntil(run.done, timeout=WAIT_MS)
    result = run.result()
    assert result is not None and not result.ok  # two actions do not solve the task
    assert [s.api for s in panel.model.steps] == ["drag_and_drop", "click", "done"]
    assert "Ended" in panel.title.text()
    assert not live.busy
    assert window.results.result is result
    folder = Path(panel.title.text().split(" in ")[-1].split("<")[0])
    trajectory = read_trajectory(folder)
    assert [s.action["api"] for s in trajectory.steps] == ["drag_and_drop", "click", "done"]
    assert (folder / "obs_0001.json").is_file() and (folder / "step_0001.png").is_file()
    # released: the page has the view's own size again
    qtbot.waitUntil(
        lambda: page_fits_view(js(window, "innerWidth"), window.editor.view), timeout=10_000
    )

    # Offline: the trajectory opens in the Run tab; the drag is drawn with both ends.
    opened = run_async(window.runs.open(folder))
    assert opened is not None and [s.api for s in panel.model.steps] == [
        "drag_and_drop",
        "click",
        "done",
    ]
    panel.select_row(0)
    mark = mark_for(panel.detail.step)
    assert mark.kind == "drag" and mark.points == [(84, 136), (520, 300)]
    assert mark.box is not None  # the flyout block under the press point
    assert panel.detail.highlighted is not None

    # Replay re-executes the actions live; the two runs compare step by step as the same.
    replayed = run_async(window.runs.replay(), timeout_ms=WAIT_MS)
    assert replayed is not None
    assert js(window, MOVE_BLOCKS) == before + 1  # a fresh initial project, one drag again
    second = live.last_folder
    assert second is not None and second != folder
    dialog = run_async(window.runs.compare(folder, second))
    assert dialog.comparison.first_divergence is None
    assert dialog.steps.rowCount() == 3 and not dialog.image_a.pixmap.isNull()
    dialog.close()

    # Export to one archive; it opens again (as on another machine) with the same steps.
    zipped = run_async(window.runs.export(tmp_path / "run.zip"))
    assert zipped is not None and zipped.is_file()
    reopened = run_async(window.runs.open(zipped))
    assert reopened is not None
    assert [s.record.action for s in reopened.steps] == [s.action for s in trajectory.steps]
    assert reopened.view.folder != second and reopened.view.final_sb3 is not None


def test_a_damaged_trajectory_opens_with_what_is_missing_marked(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    folder = write_trajectory(tmp_path / "run", [step(n) for n in range(1, 5)])
    (folder / "step_0002.png").unlink()
    steps = (folder / "steps.jsonl").read_text().splitlines()
    (folder / "steps.jsonl").write_text("\n".join(steps[:-1]) + "\n" + steps[-1][:25])
    window = boot_window(tmp_path / "empty-library", wait_ready=False)
    opened = run_async(window.runs.open(folder))
    assert opened is not None
    panel = window.run_panel
    assert panel.model.rowCount() == 3  # the torn last line is left out, the rest shown
    assert "steps.jsonl" in panel.title.text()  # ...and said so
    panel.select_row(1)
    assert "missing" in panel.detail.caption.text()
    assert "screenshot" in panel.detail.image.placeholder
    assert "missing" in panel.model.data(panel.model.index(1, 5))


def test_an_external_agent_drives_the_window_editor_over_the_api(
    qtbot: Any, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    from studio.services.api.client import ApiCallError, ApiClient

    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    live, panel = window.runs.live, window.run_panel
    live.start_paused = True
    url, token = run_async(live.serve_api(paths.BUNDLED_TASKS))
    client = ApiClient(url, token, timeout_s=120)

    created = run_async(client.call("POST", "/episodes", {"task": "create_cat_walk"}))
    episode_id = created["id"]
    assert live.episode is not None and live.episode.id == episode_id
    assert "over the API" in panel.title.text()
    assert js(window, "window.vm.editingTarget.getName()") == "Cat"  # in the window's editor
    run_async(client.call("GET", f"/episodes/{episode_id}/observation"))
    act = asyncio.ensure_future(
        client.call(
            "POST",
            f"/episodes/{episode_id}/actions",
            {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
        )
    )
    qtbot.waitUntil(lambda: live.controls.pending is not None, timeout=WAIT_MS)
    assert not act.done()  # held at the gate while paused
    panel.step()
    qtbot.waitUntil(act.done, timeout=WAIT_MS)
    assert act.result()["ok"] is True
    assert panel.model.rowCount() == 1 and panel.model.steps[0].record.change.added

    # The client closes its episode: the window says so and keeps what was recorded.
    run_async(client.call("DELETE", f"/episodes/{episode_id}"))
    qtbot.waitUntil(lambda: "closed by its client" in panel.title.text(), timeout=WAIT_MS)
    assert panel.model.rowCount() == 1 and not live.busy
    assert (live.last_folder / "steps.jsonl").is_file()
    try:
        run_async(client.call("GET", f"/episodes/{episode_id}"))
        raise AssertionError("the deleted episode still answers")
    except ApiCallError as exc:
        assert exc.status == 404


def test_the_window_serves_the_scratchworld_routes_when_asked(
    qtbot: Any,
    tmp_path: Path,
    boot_window: Callable[..., Any],
    run_async: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run ▸ Serve agent API here… with "Also serve the ScratchWorld routes" and a checkout:
    the window's server answers them without a token, and a session opened there plays in
    this editor (the Run tab shows it) until its client closes it."""
    import httpx
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.views.live.serve_api_dialog import ServeApiDialog
    from studio.views.window import run_menu
    from tests.helpers.scratchworld_fixture import build_set

    root = build_set(tmp_path / "sw").root
    shown: list[str] = []

    class Box:  # the modal message boxes, recorded instead of shown
        @staticmethod
        def information(_parent: Any, _title: str, text: str) -> None:
            shown.append(text)

        warning = information

    monkeypatch.setattr(run_menu, "QMessageBox", Box)
    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    live, panel = window.runs.live, window.run_panel

    def serve_from(folder: Path) -> Any:
        """Run ▸ Serve agent API here…, the routes on, from `folder`."""
        serving = asyncio.ensure_future(window.runs.serve_api())
        qtbot.waitUntil(lambda: window.findChild(ServeApiDialog) is not None, timeout=WAIT_MS)
        dialog = window.findChild(ServeApiDialog)
        serve = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        dialog.routes.setChecked(True)
        dialog.root.setText("")
        assert dialog.root.isEnabled() and not serve.isEnabled()  # on, but no checkout yet
        dialog.root.setText(str(folder))
        assert serve.isEnabled()
        serve.click()
        result = run_async(serving)
        qtbot.waitUntil(lambda: window.findChild(ServeApiDialog) is None, timeout=WAIT_MS)
        return result

    # the served API's own checks: a folder that is no checkout is named, nothing is served
    assert serve_from(tmp_path) is None and live.api is None
    assert f"is {tmp_path} a ScratchWorld checkout?" in shown[-1]
    url, token = serve_from(root)
    assert live.api is not None and live.api.sessions_url == f"{url}/sessions"
    assert f"ScratchWorld routes (no token): {url}/sessions" in shown[-1]

    async def session_calls() -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=120) as client:
            seen: dict[str, Any] = {"listing": (await client.get("/sessions")).json()}
            seen["episodes"] = (await client.get("/episodes")).status_code  # the API's token
            auth = {"Authorization": f"Bearer {token}"}
            seen["with_token"] = (await client.get("/episodes", headers=auth)).status_code
            created = await client.post("/sessions")
            seen["created"] = created.status_code
            sid = created.json()["session_id"]
            seen["busy"] = live.busy and live.episode is not None
            shot = (await client.get(f"/sessions/{sid}/screenshot")).json()
            seen["png"] = shot["screenshot"][:8]
            seen["closed"] = (await client.delete(f"/sessions/{sid}")).json()["status"]
            return seen

    seen = run_async(session_calls())
    assert seen["listing"] == {"sessions": [], "count": 0}
    assert seen["episodes"] == 401 and seen["with_token"] == 200
    assert seen["created"] == 200 and seen["busy"]  # the session took this window's editor
    assert seen["png"] == "iVBORw0K" and seen["closed"] == "closed"  # a PNG of the page
    qtbot.waitUntil(lambda: not live.busy, timeout=WAIT_MS)
    assert "scratchworld (over the API)" in panel.title.text()


# ---- the page live runs get -------------------------------------------------------------------
MOVE_FILTER = (
    "() => Object.values(vm.editingTarget.blocks._blocks)"
    ".filter(b => b.opcode === 'motion_movesteps')"
)
NUMBERS = (
    "() => Object.values(vm.editingTarget.blocks._blocks)"
    ".filter(b => b.opcode === 'math_number').map(b => String(b.fields.NUM.value))"
)
# the number slot of the newest "move (10) steps" on the canvas, in page coordinates
STEPS_SLOT = """() => {
  const moves = workspace.getTopBlocks(true).filter((b) => b.type === 'motion_movesteps');
  const slot = moves[moves.length - 1].getInput('STEPS').connection.targetBlock();
  const r = slot.getSvgRoot().getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
}"""
RECORD_INPUT = """() => {
  window.seen = [];
  const keep = (e) => window.seen.push({ type: e.type, detail: e.detail, dy: e.deltaY,
    dx: e.deltaX, key: e.key, code: e.code, x: e.clientX, y: e.clientY, trusted: e.isTrusted });
  for (const t of ['pointerdown', 'mousedown', 'click', 'dblclick', 'wheel', 'keydown'])
    window.addEventListener(t, keep, true);
  return true;
}"""


def listening_ports() -> set[int]:
    """TCP ports this process listens on (its own sockets in /proc/self/net/tcp{,6})."""
    inodes = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        match = re.fullmatch(r"socket:\[(\d+)\]", target)
        if match:
            inodes.add(match.group(1))
    ports = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN, one of ours
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def answers_as_devtools(port: int) -> bool:
    """Whether the port answers as a DevTools (remote debugging) endpoint. Call it off the
    GUI thread: QtWebEngine answers such requests on that thread."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"http://127.0.0.1:{port}/json/version", timeout=10) as reply:
            body = reply.read(65536).decode("utf-8", "replace")
    except (OSError, ValueError):
        return False  # not HTTP, or an error status: not DevTools
    return "webSocketDebuggerUrl" in body


async def devtools_ports(ports: set[int]) -> set[int]:
    """The ports among `ports` that answer as a DevTools endpoint."""
    answers = [await asyncio.to_thread(answers_as_devtools, port) for port in sorted(ports)]
    return {port for port, devtools in zip(sorted(ports), answers, strict=True) if devtools}


def test_the_window_opens_no_debugging_endpoint(
    boot_window: Callable[..., Any], gui_server: Any, run_async: Any
) -> None:
    assert "QTWEBENGINE_REMOTE_DEBUGGING" not in os.environ
    assert "--remote-debugging" not in os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
    before = listening_ports()
    window = boot_window(paths.BUNDLED_TASKS)
    assert window.editor.is_ready
    # The window listens on nothing of its own (the editor server is the session's), and
    # nothing this process listens on is a DevTools endpoint, also while a live run has the
    # page.
    assert listening_ports() <= before | {gui_server.port}
    assert not run_async(devtools_ports(listening_ports()))
    pages = window.runs.live.pages
    page, _owned = run_async(pages.acquire(lend=False))
    try:
        assert run_async(page.evaluate("() => innerWidth")) == VIEWPORT["width"]
        assert listening_ports() <= before | {gui_server.port}
        assert not run_async(devtools_ports(listening_ports()))
    finally:
        pages.release(page)
        run_async(pages.settled())


def test_live_runs_drive_the_window_page_with_real_input_through_qt(
    qtbot: Any, boot_window: Callable[..., Any], run_async: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    assert window.library.select_task("create_cat_walk")
    entry = window.library.current_entry()
    pages, view = window.runs.live.pages, window.editor.view
    assert view.width() < 1280  # the window gives the editor less room than the screen needs
    page, owned = run_async(pages.acquire(lend=False))
    try:
        assert not owned and pages.busy
        run_async(EditorPages(window.server, None, 0).load_task(page, entry))

        # The benchmark's screen, whatever room the window gives the editor.
        assert page.viewport_size == VIEWPORT
        assert run_async(page.evaluate("() => [innerWidth, innerHeight]")) == [1280, 720]
        assert (view.width(), view.height()) == (1280, 720)

        # Scripts: functions get their argument, promises are awaited, throws raise.
        assert run_async(page.evaluate("(a) => a.x * 2", {"x": 21})) == 42
        assert run_async(page.evaluate("() => new Promise((r) => setTimeout(() => r('ok'), 50))"))
        assert run_async(page.evaluate("1 + 2")) == 3
        assert run_async(page.evaluate("async function () { return [1, {a: null}]; }")) == [
            1,
            {"a": None},
        ]
        with pytest.raises(PlaywrightError, match="nope"):
            run_async(page.evaluate("() => { throw new Error('nope'); }"))
        run_async(page_scripts.install(page, page_scripts.INPUT))  # the studio's page scripts
        assert run_async(page_scripts.call(page, page_scripts.INPUT, "drain")) == []
        assert run_async(page.content()).startswith("<!DOCTYPE html><html")
        run_async(page.evaluate(RECORD_INPUT))

        # A drag from the palette to the code area, with intermediate moves: a new block.
        before = len(run_async(page.evaluate(MOVE_FILTER)))
        run_async(page.mouse.move(84, 136))
        run_async(page.mouse.down())
        run_async(page.mouse.move(520, 300, steps=10))
        run_async(page.mouse.up())
        qtbot.waitUntil(
            lambda: len(run_async(page.evaluate(MOVE_FILTER))) == before + 1, timeout=10_000
        )
        seen = run_async(page.evaluate("() => window.seen"))
        down = next(e for e in seen if e["type"] == "pointerdown")
        assert (down["x"], down["y"], down["trusted"]) == (84, 136, True)  # real input

        # Typing into the new block's number slot, then Enter.
        x, y = run_async(page.evaluate(STEPS_SLOT))
        run_async(page.mouse.click(x, y))
        qtbot.waitUntil(
            lambda: run_async(page.evaluate("() => document.activeElement.tagName")) == "INPUT",
            timeout=10_000,
        )
        run_async(page.keyboard.press("Control+a"))
        run_async(page.keyboard.type("25"))
        run_async(page.keyboard.press("Enter"))
        qtbot.waitUntil(lambda: "25" in run_async(page.evaluate(NUMBERS)), timeout=10_000)
        keys = [e for e in run_async(page.evaluate("() => window.seen")) if e["type"] == "keydown"]
        assert [k["key"] for k in keys][-3:] == ["2", "5", "Enter"]
        assert keys[-1]["code"] == "Enter"
        with pytest.raises(PlaywrightError, match="Unknown key"):
            run_async(page.keyboard.press("NoSuchKey"))

        # The wheel scrolls as many pixels as asked; two presses at once make a double click.
        run_async(page.evaluate("() => { window.seen.length = 0; }"))
        run_async(page.mouse.move(900, 400))
        run_async(page.mouse.wheel(0, 100))
        run_async(page.mouse.dblclick(900, 400))
        seen = run_async(page.evaluate("() => window.seen"))
        wheel = [e for e in seen if e["type"] == "wheel"]
        assert wheel and wheel[0]["dy"] == 100
        assert [e["detail"] for e in seen if e["type"] == "click"] == [1, 2]
        assert [e["type"] for e in seen].count("dblclick") == 1

        # The screenshot is the benchmark's screen, as the page shows it.
        png = run_async(page.screenshot(type="png"))
        image = QImage.fromData(png, "PNG")
        assert (image.width(), image.height()) == (1280, 720)
        assert len({image.pixel(x, 40) for x in range(0, 1280, 40)}) > 2  # not blank
        clip = run_async(page.screenshot(clip={"x": 10, "y": 20, "width": 300, "height": 200}))
        assert QImage.fromData(clip, "PNG").size().toTuple() == (300, 200)
    finally:
        pages.release(page)
        run_async(pages.settled())

    # Given back: the layout sizes the view again and the page follows it.
    assert not pages.busy and window.editor.shown_size is None
    qtbot.waitUntil(
        lambda: page_fits_view(
            run_async(window.editor.page.evaluate("[innerWidth, innerHeight]")), view, both=True
        ),
        timeout=10_000,
    )
