"""The OCR preload imports rapidocr (whose OpenCV changes LD_LIBRARY_PATH) and leaves the
environment as it found it; the OpenCV it brings is the headless build (no Qt of its own)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO

PROBE = """
import os, sys
from studio.views.live.ocr_preload import preload_ocr
preload_ocr()
import cv2
from cv2 import version
print('rapidocr.main' in sys.modules, version.headless)
print(os.environ.get('LD_LIBRARY_PATH'))
print(os.environ.get('QT_QPA_PLATFORM_PLUGIN_PATH'), os.environ.get('QT_QPA_FONTDIR'))
"""


def test_preload_imports_ocr_and_restores_the_environment() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "LD_LIBRARY_PATH": "/opt/ours"}
    for name in ("QT_QPA_PLATFORM_PLUGIN_PATH", "QT_QPA_FONTDIR"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True True", "/opt/ours", "None None"]
