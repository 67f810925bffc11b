"""Work-arounds for bugs of the pinned Qt binding, applied before any widget exists.

PySide6 6.12.0 on CPython 3.11 drops one reference to `None` each time Python calls a Qt method
that returns nothing (`setText`, `setFormat`, ...): after a few thousand such calls `None`'s
count reaches zero and the interpreter aborts ("Fatal Python error: none_dealloc"). From
Python 3.12 on, `None` is immortal and the lost references do not matter. On 3.11 we give
`None` the same treatment: a reference count so large that no session can use it up.

The same binding drops one reference to `True` at every `Signal.emit` made from Python (any
signal, with or without receivers: the bool it returns): a window that emits a few thousand
signals aborts at exit ("bool_dealloc"). `make_bools_immortal` gives `True` and `False` the
same large count.
"""

from __future__ import annotations

import ctypes
import sys

_DONE = False
_BOOLS_DONE = False
IMMORTAL_REFS = 1 << 40


def make_none_immortal() -> bool:
    """Raise None's reference count once (CPython < 3.12 only); True if it was raised."""
    global _DONE
    if _DONE or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += IMMORTAL_REFS  # ob_refcnt is first
    _DONE = True
    return True


def make_bools_immortal() -> bool:
    """Raise True's and False's reference counts once (CPython < 3.12 only); True if raised."""
    global _BOOLS_DONE
    if _BOOLS_DONE or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    for value in (True, False):
        ctypes.c_ssize_t.from_address(id(value)).value += IMMORTAL_REFS
    _BOOLS_DONE = True
    return True
