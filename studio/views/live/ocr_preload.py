"""Import the OCR stack on the GUI thread, once, before a live primitive run needs it.

Importing rapidocr's engine calls setenv(): numpy sets and unsets OPENBLAS_MAIN_FREE, OpenCV
prepends its folder to LD_LIBRARY_PATH (with a trailing ':', which makes child processes search
the current folder for libraries). setenv is not thread-safe: done in a worker thread while Qt
and QtWebEngine threads read the environment, it crashed the studio (segmentation fault). Here
the import happens on the GUI thread and the variables are put back as they were. The headless
OpenCV the studio installs sets no Qt variables; a full OpenCV build (opencv-python, or the
opencv-contrib-python that PaddleOCR brings) also points QT_QPA_PLATFORM_PLUGIN_PATH and
QT_QPA_FONTDIR at its own Qt 5, which must not reach Qt 6 either.
"""

from __future__ import annotations

import contextlib
import logging
import os

log = logging.getLogger(__name__)
_SET_BY_IMPORT = ("QT_QPA_PLATFORM_PLUGIN_PATH", "QT_QPA_FONTDIR", "LD_LIBRARY_PATH")
_done = False


def preload_ocr() -> None:
    global _done
    if _done:
        return
    _done = True
    saved = {name: os.environ.get(name) for name in _SET_BY_IMPORT}
    try:
        from rapidocr import RapidOCR  # noqa: F401 (`import rapidocr` alone defers the rest)
    except Exception as exc:  # OCR stays unavailable; primitive mode says so when used
        log.info("OCR not preloaded: %s", exc)
    finally:
        for name, value in saved.items():
            if value is None:
                with contextlib.suppress(KeyError):
                    del os.environ[name]
            else:
                os.environ[name] = value
