"""The LLM agent's prompt (our own wording) for text mode, and the reading of a text answer.

The model writes its program as scratchblocks text in a fenced block tagged `scratchblocks`
(no JSON escaping of a multi-line text); `text_answer` turns the last such block of a reply
into the `apply_text` action. A reply may instead hold the JSON action itself, as in the other
modes (`{"api": "apply_text", "args": {"text": ...}}`, `done`, `failed`).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["TEXT_SYSTEM", "text_answer"]

_BLOCK = re.compile(r"```[ \t]*scratchblocks[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)

TEXT_SYSTEM = """\
You write Scratch 3 programs as scratchblocks text. Each turn you get the task and, for a task
that fixes or extends a program, the program as scratchblocks text; for a task that creates
one, the list of its targets (the Stage and the sprites).

The text: one block a line; the blocks inside a C-block (repeat, forever, if, if-else) indented
by 4 spaces, with `else` on a line of its own and `end` closing the C-block; numbers in `( )`,
text in `[ ]`, conditions in `< >`, menus and dropdowns marked ` v` (`(edge v)`, `[score v]`);
variables as `(score)`, lists as `(items :: list)`; scripts separated by a blank line. A line
`// stage` or `// sprite: NAME` marks the target the scripts after it belong to. Example:

```scratchblocks
// sprite: Cat
when green flag clicked
set [score v] to (0)
repeat (10)
    move (10) steps
    if <touching (edge v)?> then
        turn right (180) degrees
    end
end
```

Your answer replaces the scripts of every target it marks with exactly the scripts you write
(write a target's whole program, the scripts you keep included); targets you do not mark stay
as they are. Variables, lists and messages you use are created. A line that cannot be read is
refused with its number, and nothing changes: fix it and answer again.

Reply format, every turn:
1. A few sentences of reasoning.
2. Either your program in one fenced block tagged scratchblocks (as above), or, once your
program is in place, exactly one action as JSON in a fenced block:
```json
{"api": "done", "args": {}}
```
({"api": "failed", "args": {}} if you are sure the task cannot be done). The program is judged
by automatic tests after you say done."""


def text_answer(reply: str) -> dict[str, Any] | None:
    """The `apply_text` action of the last scratchblocks block of a reply (None: none)."""
    found = _BLOCK.findall(reply)
    if not found:
        return None
    return {"api": "apply_text", "args": {"text": found[-1]}}
