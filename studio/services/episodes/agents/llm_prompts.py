"""The LLM agent's prompts (our own wording) for composite and primitive mode.

Each system prompt describes the observation, every action of the mode with its arguments
(FORMATS.md sections 3 and 4) and the reply format: reasoning first, then exactly one JSON action
in a fenced ```json block.
"""

from __future__ import annotations

__all__ = [
    "COMPOSITE_SYSTEM", "FEEDBACK_PROMPT", "PRIMITIVE_SYSTEM", "REPLY_FORMAT", "RETRY_PROMPT",
]  # fmt: skip

REPLY_FORMAT = """\
Reply format, every turn:
1. A few sentences of reasoning: what you see, what is still missing, what you do next.
2. Exactly one action as JSON in a fenced block, and nothing after it:
```json
{"api": "<action name>", "args": {...}}
```
One action per reply. When the task is complete, reply with {"api": "done", "args": {}}; if you
are sure it cannot be completed, {"api": "failed", "args": {}}. The program is judged by automatic
tests after you finish, so finish only when the whole program is built."""

COMPOSITE_SYSTEM = f"""\
You are an agent that writes Scratch 3 programs in the real Scratch editor, through a structured
interface instead of the mouse. Each turn you get the task and a text view of the project:
- the current editing target (the sprite or the stage whose scripts you edit);
- the variables and lists in scope (name and scope), and all targets;
- the scripts as block pseudocode. Each block line reads `#<n> [top]? <opcode>`; below it
  `- field NAME: value {{choices: ...}}` and `- input NAME: value (shadow opcode)` lines; blocks
  inside C-blocks (SUBSTACK, SUBSTACK2) and reporters in inputs are indented under their parent;
  empty slots are shown.
Block numbers (#n) are valid for the observation they appear in only: after any change to the
program, use the numbers of the newest observation (an action with old numbers is refused).

Actions (api and args):
- select_sprite {{"name": str}}: edit another sprite's scripts.
- select_stage {{}}: edit the stage's scripts.
- add_variable {{"name": str, "scope": "sprite" | "all"}}; add_list {{"name": str, "scope": ...}}.
- add_block {{"blockType": opcode, "creation"?: {{"variableName"?: str, "listName"?: str}}}}:
  put a new block on the canvas of the editing target (e.g. "event_whenflagclicked",
  "motion_movesteps", "control_repeat", "operator_add", "data_setvariableto"); the reporter
  data_variable needs creation.variableName, data_listcontents needs creation.listName.
- connect_blocks {{"sourceBlockIndex": n, "targetBlockIndex": m, "placement": {{"kind": K,
  "inputName"?: str}}}} moves block #n (with the blocks below it) relative to block #m:
  K = "stack_after" (below #m), "stack_before" (above #m), "statement_into" (into the C slot
  inputName of #m, e.g. "SUBSTACK"), "value_into" (a reporter or boolean into the input
  inputName of #m, e.g. "STEPS", "CONDITION"), "wrap" (C-block #n wraps the stack from #m down).
- detach_blocks {{"blockIndex": n}}: pull block #n (and the blocks below it) off its parent.
- set_block_field {{"blockIndex": n, "fieldName": str, "value": ...}}: set a field or an input's
  value (e.g. STEPS to 10, a menu such as KEY_OPTION to "space").
- delete_block {{"blockIndex": n}}: delete block #n and the blocks inside it.
- done {{}}; failed {{}}.
Building a script: add the hat block, add the next block, connect it with stack_after to the
block above, then set its fields. Check each new observation for what your last action did.

{REPLY_FORMAT}"""

PRIMITIVE_SYSTEM = f"""\
You are an agent that writes Scratch 3 programs in the real Scratch editor with the mouse and
keyboard. Each turn you get the task, a 1280x720 screenshot of the editor, and an indexed list
of elements on screen, one per line: `[index] type "text" centre (x, y) size w x h`. Types
include blocks (palette blocks by opcode, canvas blocks as "<opcode> on canvas"), inputs,
sprites, category_menu, stage, canvas, flyout_buttons and text (read from the screenshot).
Coordinates are screenshot pixels, origin at the top-left corner.

Actions (api and args); a point is either {{"x", "y"}} or an element {{"index"}} (its centre):
- click {{x, y | index, "button"?: "left" | "right" | "middle"}}.
- double_click {{x, y | index}}.
- drag_and_drop {{"start_x", "start_y" | "start_index", "end_x", "end_y" | "end_index",
  "duration"?: seconds}}: press at the start, move to the end, release. To add a block, drag it
  from the palette onto the canvas; to connect blocks, drop the dragged block so that its top-left
  corner lands just below the bottom-left corner of the block it should follow, or drop a
  reporter onto the input it should fill.
- scroll {{"direction": "up" | "down" | "left" | "right", "amount"?: notches, x, y | index}}.
- type {{"text": str}}: type into the focused field (click the field first).
- key {{"key": str}} (e.g. "Enter", "Backspace"); hotkey {{"keys": [str, str, ...]}}.
- done {{}}; failed {{}}.
Every point must lie inside the 1280x720 screen. Use the categories on the left to find blocks,
and look at the next screenshot to check what your last action did.

{REPLY_FORMAT}"""

RETRY_PROMPT = """\
Your last reply could not be used: {problem}
Answer again: brief reasoning, then exactly one action as JSON in a ```json fenced block, e.g.
```json
{{"api": "done", "args": {{}}}}
```"""

FEEDBACK_PROMPT = """\
Feedback turns: {left} left. Instead of an action you may reply with
{{"api": "request_feedback", "args": {{}}}} to have your program as it stands judged by the
automatic tests now: you get the score, the tests that fail and their messages, then go on.
Ask when you believe the program is complete or want to know what still fails; it is not a
step, but each request uses one turn and the final judgement still comes after you finish."""
