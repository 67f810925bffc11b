"""Editor pages that perform trial drags for one drag item.

Each trial page is the real editor of the item's edition (resources/web/editor.html, or
resources/web/classic/editor.html for an item of a classic library: `editions.edition_of_item`;
a caller may name the edition instead) in a window of its own: tabs of
one window share its frame clock and a background tab runs at a few frames per second, while
windows each get the full rate, so several trial pages can drag in parallel. A page loads the
item's project, restores the stored screen (target, palette, zoom, scroll), pauses the VM's
frame loop (no script runs during labeling; the workspace listener that keeps the VM's blocks
in step with the editor is not part of that loop), and remembers that state as its baseline.

A trial is a real drag with Playwright's mouse (move to the start, press, move to the end in
10 steps, release), as in primitive mode; the verdict is read from the VM; then the page goes
back to the baseline by undoing the drag, or by loading the project again when undo cannot.
A trial may be given the steps it must make (`replay.needed_steps`): the steps left out are
ones that cannot change what the drag does, and each costs a frame of the editor. The undo
is started right after the verdict and checked before the next press (the frame its events
need to reach the VM passes while the mouse goes to the next start): no press happens unless
program, screen and drawing order are at the baseline.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studio.services.diagnostics.drag.item import DragItemError, ItemFolder
from studio.services.diagnostics.drag.replay import DRAG_STEPS, PUBLISHED_DRAG_STEPS
from studio.services.diagnostics.drag.setup import published_setup, run_setup
from studio.services.runtime import editions, page_guard, page_scripts
from studio.services.runtime.editions import Edition
from studio.services.runtime.page_scripts import COMPOSITE, DRAG, EDITOR, TRIAL_PAINT
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.server import EditorServer
from studio.services.runtime.windows import open_page

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = [
    "BOX_TOLERANCE_PX", "READY_TIMEOUT_MS", "Job", "TrialPage", "TrialPages", "Verdict",
    "drag_steps", "item_edition", "open_window", "page_edition",
]  # fmt: skip

READY_TIMEOUT_MS = 60_000
BOX_TOLERANCE_PX = 3.0


Job = (
    tuple[tuple[float, float], tuple[float, float]]
    | tuple[tuple[float, float], tuple[float, float], Sequence[int] | None]
)


@dataclass
class Verdict:
    """What one trial drag did: the intended block moved; the intended relation exists."""

    moved: bool
    connected: bool


def page_edition(page: EditorPage) -> Edition:
    """The edition of the editor page `page` shows (by its URL)."""
    path = str(getattr(page, "url", "") or "").split("://", 1)[-1].partition("/")[2]
    return editions.edition_of_page(path.split("?")[0])[0]


async def _open_editor(page: Page, server: EditorServer, edition: Edition) -> None:
    url = server.url(editions.info(edition).editor_page)
    await page_guard.open_editor(page, url, timeout_ms=READY_TIMEOUT_MS)  # no page to go back to
    await page_scripts.wait_bridge(page, "isReady", timeout_ms=READY_TIMEOUT_MS)
    await page_scripts.install(page, COMPOSITE, DRAG)


async def open_window(
    context: Any, server: EditorServer, edition: Edition = Edition.CURRENT
) -> Page:
    """A ready editor page of `edition` in a new window of the browser (not a background
    tab: `runtime.windows`)."""
    page = await open_page(context)
    try:
        await page.set_viewport_size({"width": 1280, "height": 720})
        await _open_editor(page, server, edition)
    except BaseException:
        with contextlib.suppress(Exception):
            await page.close()
        raise
    return page


def drag_steps(entry: ItemFolder) -> int:
    """Mouse steps of a trial drag: a published item's are the published runner's (its
    drag_and_drop of 0.5 s), an item made in the studio's are primitive mode's."""
    return PUBLISHED_DRAG_STEPS if published_setup(entry.item) is not None else DRAG_STEPS


def item_edition(entry: ItemFolder, edition: Edition | None = None) -> Edition:
    """`edition` when given, else the one the item's folder or library records."""
    return edition if edition is not None else editions.edition_of_item(entry.path)


class TrialPage:
    """One editor page set up for an item; `trial(start, end)` performs one real drag.

    A page showing another edition's editor than the item's (a window kept from an item of
    another library) is first taken to the item's edition (`server` is needed then)."""

    def __init__(
        self,
        page: Any,  # an EditorPage; a Playwright Page when `server` takes it to another edition
        entry: ItemFolder,
        edition: Edition | None = None,
        server: EditorServer | None = None,
    ) -> None:
        self.page = page
        self.entry = entry
        self.edition = item_edition(entry, edition)
        self.server = server
        self.spec = entry.item.spec
        self.view = entry.item.evaluation_config.workspace_state.model_dump(mode="json")
        self.published = published_setup(entry.item)
        self.steps = drag_steps(entry)
        self._project_b64 = base64.b64encode(entry.project_path.read_bytes()).decode("ascii")
        self.drags = 0
        self.reloads = 0

    async def setup(self) -> dict[str, Any]:
        """Load the project, restore the screen, pause the VM; the geometry of the item."""
        if page_edition(self.page) is not self.edition:
            if self.server is None:
                raise DragItemError(
                    f"item {self.entry.item.id}: the window shows the "
                    f"{page_edition(self.page).value} editor, the item is "
                    f"{self.edition.value}"
                )
            await _open_editor(self.page, self.server, self.edition)
        await self._load()
        geometry = await page_scripts.call(self.page, DRAG, "geometry", self.spec)
        if "error" in geometry:
            raise DragItemError(f"item {self.entry.item.id}: {geometry['error']}")
        self._check_screen(geometry)
        await page_scripts.call(self.page, DRAG, "mark")
        return dict(geometry)

    async def _load(self) -> None:
        name = self.entry.item.init_project
        try:
            await page_scripts.bridge(self.page, "loadProjectBase64", self._project_b64, name, name)
        except Exception as exc:
            raise DragItemError(
                f"{self.entry.project_path}: the editor did not load it ({exc})"
            ) from None
        if self.published is not None:
            await run_setup(self.page, self.published, self.entry.item.id)
        try:
            await page_scripts.call(self.page, DRAG, "view", self.view)
        except Exception as exc:
            step = "workspace_state: " if self.published else ""
            raise DragItemError(
                f"item {self.entry.item.id}: {step}cannot restore the screen ({exc})"
            ) from None
        await self._pick_variable()
        await page_scripts.call(self.page, EDITOR, "pauseVm")
        await page_scripts.call(self.page, EDITOR, "clearUndo")

    async def _pick_variable(self) -> None:
        """A palette variable block is the one showing the item's `variable_name`."""
        name = (self.entry.item.evaluation_config.model_extra or {}).get("variable_name")
        if self.spec["source"] != "flyout" or not isinstance(name, str):
            return
        index = await page_scripts.call(
            self.page, DRAG, "flyoutIndexOf", self.spec["target_opcode"], name
        )
        if index < 0:
            raise DragItemError(
                f"item {self.entry.item.id}: the palette shows no {self.spec['target_opcode']} "
                f"block of variable {name!r}"
            )
        self.spec["flyout_index"] = index

    def _check_screen(self, geometry: dict[str, Any]) -> None:
        """The dragged block must be where the stored screen had it."""
        stored = self.entry.item.evaluation_config.target_box
        if stored is None:
            return
        box = geometry["source_box"]
        off = max(abs(box["x"] - stored.x), abs(box["y"] - stored.y))
        if off > BOX_TOLERANCE_PX:
            raise DragItemError(
                f"item {self.entry.item.id}: the screen does not match the stored viewport: "
                f"the block to drag is at ({box['x']:.0f}, {box['y']:.0f}), the item says "
                f"({stored.x:.0f}, {stored.y:.0f})"
            )

    async def trial(
        self,
        start: tuple[float, float],
        end: tuple[float, float],
        steps: Sequence[int] | None = None,
    ) -> Verdict:
        """Drag from `start` to `end` with the mouse; read the VM; undo the drag (the next
        trial checks that the page is back at the baseline before it presses).

        The mouse moves through step i of `self.steps` equal steps (`drag_steps`) for each i
        of `steps` (default: all of them, as Playwright's `mouse.move(..., steps=n)` does)."""
        page = self.page
        # the baseline check runs while the mouse goes to the start (one round trip less per
        # trial): a move with no button held changes nothing, and the press waits for both
        _, at_baseline = await asyncio.gather(page.mouse.move(start[0], start[1]), self.ready())
        if not at_baseline:
            await self._reload()  # the undo did not bring the page back
            await page.mouse.move(start[0], start[1])
            await self.ready()
        await page.mouse.down()
        try:
            n = self.steps
            for i in steps or range(1, n + 1):
                f = i / n
                await page.mouse.move(
                    start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
                )
        finally:
            await page.mouse.up()
        self.drags += 1
        out = await page_scripts.call(page, DRAG, "finish", self.spec)
        return Verdict(bool(out.get("moved")), bool(out.get("connected")))

    async def ask(self, function: str, *args: Any) -> Any:
        """`function` of the drag page script (`drag-trials.js`) called on this page."""
        return await page_scripts.call(self.page, DRAG, function, *args)

    async def screenshot(self) -> bytes:
        """The page as it shows now (PNG): after `setup`, the item's screen."""
        return bytes(await self.page.screenshot())

    async def ready(self) -> bool:
        """Whether program and screen are at the item's state, undoing the last trial's drag
        if need be (false: it cannot, load the project again)."""
        return bool(await page_scripts.call(self.page, DRAG, "ready", self.spec, self.view))

    async def at_baseline(self) -> None:
        """Bring the page back to the item's state (after the last trial)."""
        if not await self.ready():
            await self._reload()

    async def _reload(self) -> None:
        self.reloads += 1
        await self._load()
        if not await page_scripts.call(self.page, DRAG, "atBaseline"):
            diff = await page_scripts.call(self.page, DRAG, "baselineDiff")
            raise DragItemError(
                f"item {self.entry.item.id}: the editor did not come back to the item's state "
                f"(differs: {diff})"
            )

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.page.close(run_before_unload=False)


class TrialPages:
    """Several trial pages for one item, sharing out batches of drags.

    `windows`, when given, is a list of editor windows the caller owns and keeps across
    items: the windows in it are set up for this item, the ones missing up to `count` are
    opened and added to it, and none is closed here. Without it, windows are opened for this
    item and closed on exit. Work starts as soon as one page is set up: each window still
    opening joins the next batch of drags when it is ready, so the first drags overlap the
    loading of the other windows. A window that fails to open or set up later fails the
    batch it would have joined.

    While `run` drags on a page, the page draws nothing (resources/js/trial-paint.js: its
    root element at opacity 0, which leaves layout, hit testing and frames as they are: the
    file says why no verdict can change); it draws again when its share of the batch is done,
    so `lead().screenshot()` between batches shows the item's screen. `painted=True` keeps
    the pages drawing (to compare). A single `TrialPage`, an agent's page (drag/run.py), is
    never held: its agent looks at it.
    """

    def __init__(
        self,
        context: Any,
        server: EditorServer,
        entry: ItemFolder,
        count: int,
        windows: list[Any] | None = None,
        edition: Edition | None = None,
        painted: bool = False,
    ) -> None:
        self.context = context
        self.painted = painted
        self.server = server
        self.entry = entry
        self.edition = edition  # None: the item's own, found when the pages open
        self.windows = windows
        self.count = max(1, count, len(windows or []))
        self.pages: list[TrialPage] = []  # set up, taking drags
        self.geometry: dict[str, Any] = {}
        self._opened: list[TrialPage] = []  # windows opened here, closed on exit
        self._coming: set[asyncio.Task[TrialPage]] = set()  # windows still opening
        self._opening = asyncio.Lock()

    async def __aenter__(self) -> TrialPages:
        self.edition = item_edition(self.entry, self.edition)
        try:
            kept = [TrialPage(p, self.entry, self.edition, self.server) for p in self.windows or []]
            if kept:
                geoms = await asyncio.gather(*(p.setup() for p in kept))
                self.pages, self.geometry = kept, geoms[0]
            missing = self.count - len(kept)
            self._coming = {asyncio.create_task(self._open_one()) for _ in range(missing)}
            while not self.pages:
                done, self._coming = await asyncio.wait(
                    self._coming, return_when=asyncio.FIRST_COMPLETED
                )
                failed = [t.exception() for t in done if t.exception() is not None]
                if failed and not self.pages:
                    raise failed[0]  # type: ignore[misc]
        except BaseException:
            await self.close()
            raise
        return self

    async def _open_one(self) -> TrialPage:
        async with self._opening:  # one at a time: the first is ready sooner, work starts
            edition = item_edition(self.entry, self.edition)
            raw = await open_window(self.context, self.server, edition)
        if self.windows is not None:
            self.windows.append(raw)
        tp = TrialPage(raw, self.entry, self.edition, self.server)
        if self.windows is None:
            self._opened.append(tp)
        geometry = await tp.setup()
        if not self.pages:
            self.geometry = geometry
        self.pages.append(tp)
        return tp

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        for task in self._coming:
            task.cancel()
        await asyncio.gather(*self._coming, return_exceptions=True)
        self._coming = set()
        await asyncio.gather(*(p.close() for p in self._opened))
        self._opened = []

    def lead(self) -> TrialPage:
        """The first page set up (the item's `geometry` was read on it): the one a computation
        asks about the workspace (owners of points, empty spots, snap targets) and shoots."""
        if not self.pages:
            raise DragItemError(f"item {self.entry.item.id}: no trial page is set up")
        return self.pages[0]

    @property
    def drags(self) -> int:
        return sum(p.drags for p in self.pages)

    @property
    def steps(self) -> int:
        """Mouse steps of each trial drag of this item (`drag_steps`)."""
        return drag_steps(self.entry)

    async def at_baseline(self) -> None:
        """Every page back at the item's state (before reading the workspace)."""
        await asyncio.gather(*(p.at_baseline() for p in self.pages))

    async def run(
        self, jobs: Sequence[Job], finished: Callable[[int], None] | None = None
    ) -> list[Verdict]:
        """Perform every (start, end[, steps]) drag, spread over the pages; verdicts in order.
        A window that becomes ready meanwhile takes its share of the jobs left. `finished` is
        told how many drags of the batch are done after each one (a progress bar moves with
        the drags, not only between batches)."""
        results: list[Verdict | None] = [None] * len(jobs)
        queue = collections.deque(range(len(jobs)))
        count = [0]

        async def worker(tp: TrialPage) -> None:
            held = not self.painted and bool(queue)
            if held:
                await page_scripts.call(tp.page, TRIAL_PAINT, "hold")
            try:
                while queue:
                    i = queue.popleft()
                    results[i] = await tp.trial(*jobs[i])
                    count[0] += 1
                    if finished is not None:
                        finished(count[0])
            finally:
                if held:
                    with contextlib.suppress(Exception):  # a closed page draws nothing anyway
                        await page_scripts.call(tp.page, TRIAL_PAINT, "release")

        working: set[asyncio.Future[Any]] = {asyncio.ensure_future(worker(tp)) for tp in self.pages}
        try:
            while working:
                done, _ = await asyncio.wait(
                    working | self._coming, return_when=asyncio.FIRST_COMPLETED
                )
                for task in done:
                    if task in self._coming:
                        self._coming.discard(task)
                        tp = task.result()  # a window that failed fails this batch
                        if queue:
                            working.add(asyncio.ensure_future(worker(tp)))
                    else:
                        working.discard(task)
                        task.result()
        finally:
            for task in working:
                task.cancel()
            await asyncio.gather(*working, return_exceptions=True)
        return [r for r in results if r is not None]
