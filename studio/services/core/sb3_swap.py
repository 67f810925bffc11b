"""An .sb3 with another project.json: the assets kept as they are (a mutant, a patched program).

`with_project_json(sb3, project, name)` reads the members of `sb3` within the limits of
`core.sb3` (a file past them raises ProjectFileError naming `name`, the member and the limit)
and writes them back with `project` as project.json.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from studio.services.core.sb3 import PROJECT_JSON, open_sb3, read_members

__all__ = ["with_project_json"]


def with_project_json(
    sb3: bytes, project: dict[str, Any], name: str | Path = "project.sb3"
) -> bytes:
    """`sb3` with its project.json replaced by `project`."""
    out = io.BytesIO()
    with open_sb3(sb3, name) as src:
        members = read_members(src, name, skip=frozenset({PROJECT_JSON}))
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in members:
            dst.writestr(info, data)
        dst.writestr(PROJECT_JSON, json.dumps(project, separators=(",", ":")))
    return out.getvalue()
