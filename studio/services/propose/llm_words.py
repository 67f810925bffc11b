"""The optional LLM step of a proposal: clearer names for the kept tests (off by default).

An OpenAI-compatible endpoint (studio.services.episodes.agents.llm settings: STUDIO_LLM_URL,
STUDIO_LLM_MODEL, STUDIO_LLM_KEY) is asked to rename each kept test in the words of the task's
instruction, replying with one JSON object {test id: new name}. Only names change, never a
check, so the kept set still passes the golden program and kills what the mutant filter found;
a reply that is not such an object, a name that is empty, too long, or used twice keeps the
test's own words. The reply is untrusted text and nothing else of it is used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from studio.services.episodes.agents.llm import LlmSettings, Usage, chat
from studio.services.propose.model import Proposal

__all__ = ["MAX_NAME", "SYSTEM", "names_from_reply", "prompt", "rename"]

MAX_NAME = 160
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
SYSTEM = (
    "You name the tests of an evaluation script for a Scratch programming task. Each test is "
    "given with an id and a precise description of what it checks. Rewrite each description as "
    "a short, clear test name in the words of the task's instruction, keeping every number, "
    "name and value exactly and adding nothing the description does not say. Reply with one "
    'JSON object mapping each id to its new name, e.g. {"t001": "..."}.'
)


def prompt(instruction: str, proposals: Sequence[Proposal]) -> list[dict[str, Any]]:
    tests = "\n".join(f"{p.id}: {p.words}" for p in proposals)
    user = f"Instruction of the task:\n{instruction}\n\nTests:\n{tests}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def names_from_reply(reply: str, proposals: Sequence[Proposal]) -> dict[str, str]:
    """The usable new names of a reply, by test id (unusable ones left out)."""
    match = _OBJECT.search(reply)
    try:
        raw = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError:
        raw = None
    if not isinstance(raw, dict):
        return {}
    ids = {p.id for p in proposals}
    names: dict[str, str] = {}
    for pid, name in raw.items():
        if pid in ids and isinstance(name, str) and 0 < len(name.strip()) <= MAX_NAME:
            names[pid] = " ".join(name.split())
    taken = [n for n in names.values()]
    return {pid: n for pid, n in names.items() if taken.count(n) == 1}


async def rename(
    settings: LlmSettings, instruction: str, proposals: Sequence[Proposal], usage: Usage
) -> int:
    """Rename `proposals` in place where the model gave a usable name; how many changed."""
    if not proposals:
        return 0
    reply = await chat(settings, prompt(instruction, proposals), usage)
    names = names_from_reply(reply, proposals)
    others = {p.words for p in proposals if p.id not in names}
    changed = 0
    for p in proposals:
        name = names.get(p.id)
        if name and name not in others:
            p.words = name
            changed += 1
    return changed
