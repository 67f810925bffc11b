"""Import the OCR stack on the GUI thread, once, before a live primitive run needs it.

rapidocr imports OpenCV (opencv-python), whose import calls setenv() for its bundled Qt 5
(QT_QPA_PLATFORM_PLUGIN_PATH, QT_QPA_FONTDIR, LD_LIBRARY_PATH). setenv is not thread-safe:
done in a worker thread while Qt and QtWebEngine threads read the environment, it crashed the
studio (segmentation fault). Here the import happens on the GUI thread and the variables that
would point Qt 6 at OpenCV's Qt 5 plugins are put back as they were.
"""

from __future__ import annotations

import contextlib
import logging
import os

log = logging.getLogger(__name__)
_QT_VARS = ("QT_QPA_PLATFORM_PLUGIN_PATH", "QT_QPA_FONTDIR", "LD_LIBRARY_PATH")
_done = False


def preload_ocr() -> None:
    global _done
    if _done:
        return
    _done = True
    saved = {name: os.environ.get(name) for name in _QT_VARS}
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except Exception as exc:  # OCR stays unavailable; primitive mode says so when used
        log.info("OCR not preloaded: %s", exc)
    finally:
        for name, value in saved.items():
            if value is None:
                with contextlib.suppress(KeyError):
                    del os.environ[name]
            else:
                os.environ[name] = value
