"""Keys and buttons for the Qt page (studio.views.live.page): Playwright's names as Qt events.

`NAMED_KEYS` maps a Playwright key name to (Qt key, text, X11 key code of a US keyboard, which
Chromium turns into the DOM `code`); `CHAR_CODES` and `SHIFTED` do the same for the printable
keys; `split_keys` splits "Control+Shift+a" as Playwright does.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

BUTTONS = {
    "left": Qt.MouseButton.LeftButton,
    "right": Qt.MouseButton.RightButton,
    "middle": Qt.MouseButton.MiddleButton,
}
MODIFIERS = {
    "Shift": Qt.KeyboardModifier.ShiftModifier,
    "Control": Qt.KeyboardModifier.ControlModifier,
    "Alt": Qt.KeyboardModifier.AltModifier,
    "Meta": Qt.KeyboardModifier.MetaModifier,
}
K = Qt.Key
# Playwright key name -> (Qt key, text, X11 key code of a US keyboard: Chromium's DOM `code`)
NAMED_KEYS: dict[str, tuple[int, str, int]] = {
    "Enter": (K.Key_Return, "\r", 36),
    "Tab": (K.Key_Tab, "\t", 23),
    "Backspace": (K.Key_Backspace, "\x08", 22),
    "Escape": (K.Key_Escape, "\x1b", 9),
    "Space": (K.Key_Space, " ", 65),
    "Delete": (K.Key_Delete, "\x7f", 119),
    "Insert": (K.Key_Insert, "", 118),
    "Home": (K.Key_Home, "", 110),
    "End": (K.Key_End, "", 115),
    "PageUp": (K.Key_PageUp, "", 112),
    "PageDown": (K.Key_PageDown, "", 117),
    "ArrowUp": (K.Key_Up, "", 111),
    "ArrowDown": (K.Key_Down, "", 116),
    "ArrowLeft": (K.Key_Left, "", 113),
    "ArrowRight": (K.Key_Right, "", 114),
    "Shift": (K.Key_Shift, "", 50),
    "Control": (K.Key_Control, "", 37),
    "Alt": (K.Key_Alt, "", 64),
    "Meta": (K.Key_Meta, "", 133),
    "CapsLock": (K.Key_CapsLock, "", 66),
    "ControlOrMeta": (K.Key_Control, "", 37),
}
_F_CODES = [67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 95, 96, *range(191, 203)]
for _n in range(1, 25):
    NAMED_KEYS[f"F{_n}"] = (int(K.Key_F1) + _n - 1, "", _F_CODES[_n - 1])
# The printable keys of a US keyboard: unshifted and shifted character, X11 key code.
_ROWS = [
    ("`1234567890-=", "~!@#$%^&*()_+", [49, *range(10, 22)]),
    ("qwertyuiop[]\\", "QWERTYUIOP{}|", [*range(24, 36), 51]),
    ("asdfghjkl;'", 'ASDFGHJKL:"', list(range(38, 49))),
    ("zxcvbnm,./", "ZXCVBNM<>?", list(range(52, 62))),
]
CHAR_CODES: dict[str, int] = {" ": 65}
SHIFTED: dict[str, str] = {}
for _plain, _shifted, _codes in _ROWS:
    for _p, _s, _c in zip(_plain, _shifted, _codes, strict=True):
        CHAR_CODES[_p] = CHAR_CODES[_s] = _c
        SHIFTED[_p] = _s


def split_keys(combo: str) -> list[str]:
    """Playwright's split of "Control+Shift+a" (a "+" key itself allowed: "Shift++")."""
    keys: list[str] = []
    building = ""
    for char in combo:
        if char == "+" and building:
            keys.append(building)
            building = ""
        else:
            building += char
    keys.append(building)
    return keys


def modifier_name(key: str) -> str:
    """The modifier a key name holds down ("ControlOrMeta" is Control here)."""
    return "Control" if key == "ControlOrMeta" else key
