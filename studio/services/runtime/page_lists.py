"""The lists that Python and the studio's page scripts both use, defined once, here.

Python imports them; `runtime.page_scripts` writes `PAGE_LISTS` into every editor page
it installs scripts in, as `window.studioPageHelpers.lists` (camel-case keys, JSON values), so
a page script reads the same list instead of keeping a copy:

- `NUMBER_SHADOWS`: the shadow blocks whose field holds a number (a composite observation shows
  their value bare; `set_block_field` checks that a value typed into one is a number).
- `ELEMENT_TYPES`: the types of a primitive observation's DOM elements, in the order the list
  gives them (FORMATS.md section 3; resources/js/elements.js sorts by it, OCR `text` boxes
  come after all of them).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ELEMENT_TYPES", "NUMBER_SHADOWS", "PAGE_LISTS"]

NUMBER_SHADOWS = frozenset(
    {"math_number", "math_integer", "math_whole_number", "math_positive_number", "math_angle"}
)
ELEMENT_TYPES = (
    "inputs",
    "sprites",
    "blocks",
    "category_menu",
    "flyout_buttons",
    "buttons",
    "menu_items",
    "monitors",
    "stage",
    "canvas",
)

PAGE_LISTS: dict[str, Any] = {
    "numberShadows": sorted(NUMBER_SHADOWS),
    "elementTypes": list(ELEMENT_TYPES),
}
