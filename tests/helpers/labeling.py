"""A labeling tab shown on its own, with a labeler whose name the test can change."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from studio.views.diagnostics.context import LabelingContext


def show_panel(qtbot: Any, panel_class: Any, root: Path, who: list[str]) -> tuple[Any, list[str]]:
    """`panel_class(context, root)` shown at 1500x800; `who[0]` is the labeler's name; the
    messages it gives are collected."""
    messages: list[str] = []
    context = LabelingContext(
        shell=cast(Any, None),
        link=cast(Any, None),
        labeler=lambda: who[0],
        message=messages.append,
    )
    panel = panel_class(context, root)
    qtbot.addWidget(panel)
    panel.resize(1500, 800)
    panel.show()
    qtbot.waitExposed(panel)
    return panel, messages
