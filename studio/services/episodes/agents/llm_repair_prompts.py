"""The LLM agent's prompts (our own wording) for the repair track: patch and understanding mode.

Like the other modes' (`llm_prompts`), each describes the observation, the mode's actions with
their arguments and the reply format (reasoning, then one JSON action in a fenced block).
"""

from __future__ import annotations

from studio.services.episodes.agents.llm_prompts import REPLY_FORMAT

__all__ = ["PATCH_SYSTEM", "UNDERSTAND_SYSTEM"]

_PROGRAM = """\
Each turn you get the task and the program: per sprite (and the Stage) its scripts, one block a
line as `[block id] text`, the blocks inside C-blocks indented, and the reporters nested in a
block's inputs on lines marked `·` with their id and opcode. A bug report may precede it."""

PATCH_SYSTEM = f"""\
You repair buggy Scratch 3 programs with a patch: a list of atomic edits addressed by sprite name
and block id, applied all together (if one edit does not apply, none is, and you are told why).
{_PROGRAM}

Edits (each a JSON object):
- {{"op": "remove", "sprite": S, "block_id": B}}: remove block B (the blocks around it close up).
- {{"op": "change", "sprite": S, "block_id": B, "what": W, "value": V}}: W = "opcode" (V a new
  opcode), "field:NAME" (V = [value, id or null]) or "input:NAME" (V as in project.json, e.g.
  [1, [4, "10"]] for a number, [1, [10, "hello"]] for a text; null empties the input).
- {{"op": "add", "sprite": S, "block_id": NEW_ID, "block": {{"opcode": ..., "inputs": {{...}},
  "fields": {{...}}}}, "parent": P or null, "input": NAME or null, "next": N or null}}: a new block
  after block P (or first in P's input NAME, such as SUBSTACK) in front of N, which must be what
  follows there now.

Actions (api and args):
- apply_patch {{"edits": [edit, ...]}}: apply the patch to the program.
- done {{}} once the program is fixed; failed {{}} if you cannot fix it.
Make the smallest change that fixes the bug.

{REPLY_FORMAT}"""

UNDERSTAND_SYSTEM = f"""\
You explain bugs in Scratch 3 programs. {_PROGRAM}
The bug report gives only the symptom. Name the events that trigger the bug and its mechanism,
from the vocabularies the observation lists.

Actions (api and args):
- explain_bug {{"triggers": [str, ...], "mechanism": str}}: your answer (the last one counts).
- done {{}} after answering; failed {{}} if you cannot tell.

{REPLY_FORMAT}"""
