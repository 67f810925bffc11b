"""The work-around for PySide6 6.12 dropping references to None on CPython 3.11."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
import studio.views  # applies the work-around
from PySide6.QtGui import QColor
color = QColor()
before = sys.getrefcount(None)
for _ in range(20000):
    color.setRed(3)
print("ok", before - sys.getrefcount(None) >= 0)
"""


def test_many_void_qt_calls_do_not_abort_the_interpreter() -> None:
    # without the work-around this process aborts with "none_dealloc" (on CPython 3.11)
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("ok")


EMITS = """
import sys
import studio.views  # applies the work-around
from PySide6.QtCore import QCoreApplication, QObject, Signal

class Source(QObject):
    changed = Signal(str)

app = QCoreApplication([])
source = Source()
source.changed.connect(lambda text: None)
for _ in range(20000):
    source.changed.emit("x")
print("ok")
"""


def test_many_signal_emits_do_not_abort_the_interpreter() -> None:
    # without the work-around this process aborts at exit with "bool_dealloc" (CPython 3.11)
    done = subprocess.run([sys.executable, "-c", EMITS], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("ok")
