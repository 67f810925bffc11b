"""The project calls of a ScratchWorld session (SCRATCHWORLD_API.md sections 6 and 8).

`ProjectCalls` is a part of `SwSessions`: load_project reads `scratch-gui/static/<name>` of
the checkout into the session's editor (falling back to `party.sb3` as published, except for
a session bound to its task, which loads only what `seal.check_load` lets it), export_project
answers the program as .sb3 (read as the evaluation reads it), toggle_stage clicks the small
stage button.
"""

from __future__ import annotations

import base64
import contextlib
import logging
from typing import Any

from studio.models.errors import StudioError
from studio.services.formats.scratchworld.server.checkout import SwCheckout, plain_name
from studio.services.formats.scratchworld.server.seal import SwRefused, check_load
from studio.services.formats.scratchworld.server.session import SwSession
from studio.services.runtime import page_scripts

__all__ = ["FALLBACK_PROJECT", "SMALL_STAGE_FRAMES", "ProjectCalls", "SwCallError", "brief"]

log = logging.getLogger(__name__)

FALLBACK_PROJECT = "party.sb3"
SMALL_STAGE_FRAMES = 5  # frames the editor gets to lay itself out for the small stage


class SwCallError(StudioError):
    """A call that the published server answers with a 500 (the message says why)."""


class ProjectCalls:
    """load_project, export_project and toggle_stage of `SwSessions` (see the module)."""

    checkout: SwCheckout

    # ---- projects ------------------------------------------------------------------------
    async def load_project(self, session: SwSession, name: str) -> dict[str, Any]:
        """Load `scratch-gui/static/<name>`, else the fallback project (section 6); a sealed
        session's refusal (SwRefused) loads nothing."""
        check_load(self.checkout, session.binding, name)
        async with session.lock:
            try:
                url = await self._load(session, name)
                return {
                    "status": "success",
                    "message": f"loaded {name}",
                    "details": {"ok": True, "url": url},
                }
            except SwRefused:  # the seal refused the project's content: no fallback
                raise
            except StudioError as first:
                try:
                    check_load(self.checkout, session.binding, FALLBACK_PROJECT)
                except SwRefused:
                    raise SwCallError(
                        f"{first}; no fallback for a session bound to its task"
                    ) from None
                try:
                    url = await self._load(session, FALLBACK_PROJECT)
                except StudioError as second:
                    raise SwCallError(f"{first}; the fallback failed too: {second}") from None
                log.warning("session %s: %s; loaded %s instead", session.id, first, url)
                return {
                    "status": "success",
                    "message": f"loaded {FALLBACK_PROJECT} instead of {name}",
                    "details": {
                        "ok": True,
                        "url": url,
                        "fallback": True,
                        "primary": {"ok": False, "url": f"/static/{name}", "error": str(first)},
                    },
                }

    async def _load(self, session: SwSession, name: str) -> str:
        plain_name(name)
        data = self.checkout.project(name)
        check_load(self.checkout, session.binding, name, data)
        golden = self.checkout.is_golden(name, data)
        page = session.page
        with contextlib.suppress(Exception):
            await page.bring_to_front()
        try:
            b64 = base64.b64encode(data).decode("ascii")
            await page_scripts.bridge(page, "loadProjectBase64", b64, name, name)
        except Exception as exc:
            raise StudioError(f"{name}: the editor did not load it ({brief(exc)})") from None
        session.episode.forget_program()
        session.binding.loaded.append((name, golden))
        if session.task_name is None and session.episode.step_count == 0:
            session.episode.relabel(task=self.checkout.session_task(name))
        return f"/static/{name}"

    async def export_project(self, session: SwSession, output_name: str | None) -> dict[str, Any]:
        async with session.lock:
            try:
                sb3 = await session.episode.export_sb3()
            except Exception as exc:
                raise SwCallError(f"export failed: {brief(exc)}") from None
        return {
            "status": "success",
            "filename": output_name or "project.sb3",
            "size": len(sb3),
            "data_base64": base64.b64encode(sb3).decode("ascii"),
        }

    async def toggle_stage(self, session: SwSession) -> dict[str, Any]:
        async with session.lock:
            page = session.page
            clicked = await page_scripts.call(page, page_scripts.HELPERS, "clickSmallStage")
            small = clicked and await page_scripts.call(
                page, page_scripts.HELPERS, "smallStageShown", SMALL_STAGE_FRAMES
            )
        if not clicked:
            return {"success": False, "message": "no small-stage button on the page"}
        return {
            "success": True,
            "message": "switched to the small stage",
            "selector_used": '[title="Switch to small stage"]',
            "current_state": "small" if small else "normal",
        }


def brief(exc: BaseException) -> str:
    """The first line of an error, bounded (or its type's name)."""
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__
