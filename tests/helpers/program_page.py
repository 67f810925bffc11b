"""A stand-in for an editor page as patch and understanding mode use it: the VM's program
(`studioEditor.program`), `saveProjectBase64` and `loadProjectBase64` (which it refuses when
told to, as the VM refuses a project it cannot load); it counts the loads."""

from __future__ import annotations

import base64
from typing import Any

from studio.services.core.sb3 import read_project_json
from studio.services.runtime import page_scripts

__all__ = ["FakeEditorPage"]


class FakeEditorPage:
    """The editor's program as .sb3 bytes; counts the loads; refuses them when told to."""

    def __init__(self, sb3: bytes) -> None:
        self.sb3 = sb3
        self.loads = 0
        self.refuse: str | None = None

    @property
    def project(self) -> dict[str, Any]:
        return read_project_json(self.sb3, "fake")

    async def evaluate(self, js: str, arg: Any = None) -> Any:
        if js == page_scripts.BRIDGE_JS:
            fn, args = arg
            if fn == "saveProjectBase64":
                return base64.b64encode(self.sb3).decode()
            if fn == "loadProjectBase64":
                if self.refuse:
                    raise RuntimeError(self.refuse)
                self.loads += 1
                self.sb3 = base64.b64decode(args[0])
                return {}
        if js == page_scripts.CALL_JS and arg[:3] == ["studioEditor", arg[1], "program"]:
            return self.project
        if js == page_scripts.CALL_JS or js == page_scripts.INSTALL_JS:
            return None
        raise AssertionError(f"unexpected page call {js[:40]!r}")
