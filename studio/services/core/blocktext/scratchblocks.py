"""The scratchblocks parser, run in Node: texts in, their parse trees out (plain JSON).

The npm `scratchblocks` package (pinned in the Makefile, fetched by `make setup` into
resources/scratchblocks, or the folder named by STUDIO_SCRATCHBLOCKS_DIR) parses the text;
resources/node/scratchblocks-parse.mjs runs its `syntax` module and writes each document as
JSON. Node, not a browser page: the parser needs no DOM, one process parses any number of
texts (a whole corpus in one call, about a tenth of a second to start), and the command line
can read text without a browser. Texts go in one batch per call.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from studio.services.core.paths import RESOURCES, SetupError

__all__ = ["PARSER_SCRIPT", "VERSION", "package_dir", "parse_texts"]

VERSION = "3.7.1"  # the Makefile's SCRATCHBLOCKS_VERSION
PARSER_SCRIPT = RESOURCES / "node" / "scratchblocks-parse.mjs"
TIMEOUT = 120.0  # seconds for one batch


def package_dir() -> Path:
    """The scratchblocks package folder, or SetupError saying how to fetch it."""
    override = os.environ.get("STUDIO_SCRATCHBLOCKS_DIR")
    folder = Path(override) if override else RESOURCES / "scratchblocks"
    if not (folder / "syntax" / "index.js").is_file():
        raise SetupError(
            f"the scratchblocks package is not in {folder}: run `make setup` "
            f"(it fetches scratchblocks@{VERSION} with npm pack)"
        )
    return folder


def _node() -> str:
    found = shutil.which("node")
    if not found:
        raise SetupError("Node.js (`node`) is needed to read block text; install nodejs")
    return found


def parse_texts(texts: list[str]) -> list[dict[str, Any]]:
    """One parse per text: `{"scripts": [[block, ...], ...]}` or `{"error": message}`.

    The tree's shape is described in the parser script's header."""
    if not texts:
        return []
    command = [_node(), "--stack-size=4000", str(PARSER_SCRIPT), str(package_dir())]
    try:
        done = subprocess.run(
            command,
            input=json.dumps(texts).encode("utf-8"),
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SetupError(f"the scratchblocks parser took more than {TIMEOUT:g} s") from None
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise SetupError(f"the scratchblocks parser failed: {' / '.join(tail)}")
    docs = json.loads(done.stdout)
    if not isinstance(docs, list) or len(docs) != len(texts):
        raise SetupError("the scratchblocks parser gave an answer of the wrong shape")
    return docs
