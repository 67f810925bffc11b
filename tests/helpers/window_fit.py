"""Does the editor page fill its view? At the view's zoom (the editor zooms out to fit the
Scratch GUI's minimum layout, studio.views.editor.view.fit_zoom) the page's CSS size is the
view's size divided by the zoom."""

from __future__ import annotations

from typing import Any


def page_fits_view(inner: Any, view: Any, both: bool = False) -> bool:
    """`inner` is the page's innerWidth (or [innerWidth, innerHeight] with `both`)."""
    zoom = view.zoomFactor()
    want = [view.width() / zoom, view.height() / zoom]
    got = list(inner) if both else [inner]
    return all(abs(g - w) <= 1 for g, w in zip(got, want, strict=False))
