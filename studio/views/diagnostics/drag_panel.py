"""The drag items tab: list, screenshot with regions, brush, compute, label, review, agree.

What the canvas shows for the selected item: the labeler's own label if they saved one, else
(unless Blind is on) the item's regions, computed or approved. Blind hides the computed
regions and the other labelers' labels, so two labelers label independently; Agreement then
compares any two labels by IoU. Save stores the canvas as the labeler's label (and the edited
instruction); Approve makes the canvas the item's regions and approves it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.app.regions import COMPUTED_LABEL, RegionOutcome, RegionWorkshop
from studio.models.drag_item import DragItem
from studio.models.errors import StudioError
from studio.models.items import ReviewState
from studio.services.diagnostics.drag import review as drag_review
from studio.services.diagnostics.drag.agreement import blind_copy, region_agreement
from studio.services.diagnostics.drag.grid import Point, iou
from studio.services.diagnostics.drag.item import ItemFolder, check_screenshot
from studio.views.diagnostics.context import LabelingContext
from studio.views.diagnostics.drag_author import AuthorBar, DragAuthoring, item_boxes
from studio.views.diagnostics.drag_items_model import DragItemsModel, read_folder
from studio.views.diagnostics.panel_base import AgreementBox, LabelingPanel
from studio.views.diagnostics.region_canvas import BRUSH_RADII, RegionCanvas, Tool


def _points(raw: list[list[int]]) -> set[Point]:
    return {(int(p[0]), int(p[1])) for p in raw}


def grab_line(item: DragItem, labeler: str | None) -> str:
    """Which grab point the shown end region is for (the labeler's label's, else the item's)."""
    own = [lab for lab in item.labels if lab.labeler == labeler and lab.drag_start_point]
    grab = own[0].drag_start_point if own else item.evaluation_config.drag_start_point
    if not grab:
        return "No grab point yet: Compute chooses one (blue dot) and stores it with the regions"
    return (
        f"Grab point ({grab[0]:g}, {grab[1]:g}), blue dot: the end region is for a drag held there"
    )


def _sorted(points: set[Point]) -> list[list[int]]:
    return [[x, y] for x, y in sorted(points)]


class DragPanel(LabelingPanel):
    """Everything a labeler does with drag items."""

    authoring: DragAuthoring

    def __init__(self, context: LabelingContext, root: Path, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            root,
            DragItemsModel(),
            "The regions shown become the item's; approved (Ctrl+Enter)",
            parent,
        )
        self.model: DragItemsModel
        self.entry: ItemFolder | None = None
        self._compute_task: asyncio.Task[None] | None = None
        self._trial_windows: list[Any] = []  # editor windows kept warm between computations
        self._build()
        self._connect()
        self.load_folder(root)

    # ---- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.new_button.setToolTip("Pick the blocks on a screenshot of the studio's editor")
        self.canvas = RegionCanvas(self)
        self.canvas.setToolTip(
            "Brush: the left button adds, the right button (or Shift) erases; "
            "the wheel zooms (0: whole screen), the middle button pans; "
            "Ctrl+wheel sets the radius; Ctrl+Z undoes a stroke"
        )
        self.author_bar = AuthorBar(self)
        self.authoring = DragAuthoring(self.context, self.canvas, self.author_bar, self.root)
        self.tool_view = QRadioButton("View", self)
        self.tool_start = QRadioButton("Brush start (S)", self)
        self.tool_end = QRadioButton("Brush end (E)", self)
        self.tools = QButtonGroup(self)
        for button, tool in (
            (self.tool_view, Tool.NONE),
            (self.tool_start, Tool.START),
            (self.tool_end, Tool.END),
        ):
            self.tools.addButton(button)
            button.setProperty("tool", tool.value)
        self.tool_view.setChecked(True)
        self.radius = QComboBox(self)
        for r in BRUSH_RADII:
            self.radius.addItem(f"{r} px", r)
        self.radius.setCurrentIndex(BRUSH_RADII.index(10))
        self.radius.setToolTip("Brush radius (Ctrl+wheel on the picture)")
        self.show_start = QCheckBox("start", self)
        self.show_end = QCheckBox("end", self)
        for box in (self.show_start, self.show_end):
            box.setChecked(True)
        undo = self.canvas.undo_stack.createUndoAction(self, "Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.canvas.undo_stack.createRedoAction(self, "Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        self.addActions([undo, redo])
        self.undo_button = _fixed_button("Undo", undo, self)
        self.redo_button = _fixed_button("Redo", redo, self)
        tools_row = QHBoxLayout()
        for widget in (self.tool_view, self.tool_start, self.tool_end, QLabel("radius", self)):
            tools_row.addWidget(widget)
        tools_row.addWidget(self.radius)
        tools_row.addSpacing(12)
        tools_row.addWidget(QLabel("show", self))
        tools_row.addWidget(self.show_start)
        tools_row.addWidget(self.show_end)
        tools_row.addStretch(1)
        tools_row.addWidget(self.undo_button)
        tools_row.addWidget(self.redo_button)
        centre = QWidget(self)
        centre_col = QVBoxLayout(centre)
        centre_col.setContentsMargins(0, 0, 0, 0)
        centre_col.addWidget(self.author_bar)
        centre_col.addLayout(tools_row)
        centre_col.addWidget(self.canvas, 1)
        self.count_label = QLabel(self)
        centre_col.addWidget(self.count_label)

        side = QWidget(self)
        side_col = QVBoxLayout(side)
        side_col.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.instruction = QPlainTextEdit(self)
        self.instruction.setMaximumHeight(80)
        self.details = QLabel(self)
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.blind = QCheckBox("Blind (hide computed regions and others' labels)", self)
        self.save_button = QPushButton("Save my label", self)
        self.save_button.setToolTip("Store the regions as your label, and the instruction (Ctrl+S)")
        self.compute_button = QPushButton("Compute regions", self)
        self.compute_button.setToolTip(
            "Predict both regions and verify their boundaries by real drags (resumable)"
        )
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.hide()
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.hide()
        self.progress_text = QLabel(self)
        self.agreement = AgreementBox("Agreement of two labelers", "IoU", self)
        self.agree_a, self.agree_b = self.agreement.first, self.agreement.second
        self.agree_button, self.agree_text = self.agreement.button, self.agreement.text

        item_box = QGroupBox("Item", self)
        form = QFormLayout(item_box)
        form.addRow(self.title)
        form.addRow("Instruction", self.instruction)
        form.addRow(self.details)
        form.addRow(self.blind)
        compute_row = QHBoxLayout()
        compute_row.addWidget(self.compute_button)
        compute_row.addWidget(self.cancel_button)
        form.addRow(compute_row)
        form.addRow(self.progress)
        form.addRow(self.progress_text)
        form.addRow(self.save_button)
        for group in (item_box, self.review_box, self.agreement):
            side_col.addWidget(group)
        side_col.addStretch(1)

        self.assemble(self.list_column(), centre, side)

    def _connect(self) -> None:
        self.tools.buttonToggled.connect(self._on_tool)
        self.radius.currentIndexChanged.connect(
            lambda _i: self.canvas.set_radius(int(self.radius.currentData()))
        )
        self.show_start.toggled.connect(lambda on: self._set_visible("start", on))
        self.show_end.toggled.connect(lambda on: self._set_visible("end", on))
        self.canvas.regions_changed.connect(self._update_counts)
        self.blind.toggled.connect(lambda _on: self.show_row(self.table.currentIndex().row()))
        self.save_button.clicked.connect(self.save_label)
        self.agree_button.clicked.connect(self.show_agreement)
        self.compute_button.clicked.connect(lambda: self.context.spawn(self.compute()))
        self.cancel_button.clicked.connect(self.cancel_compute)
        self.connect_common(
            [
                ("Ctrl+S", self.save_label),
                ("Ctrl+Return", self.approve),
                ("S", lambda: self.tool_start.setChecked(True)),
                ("E", lambda: self.tool_end.setChecked(True)),
                ("V", lambda: self.tool_view.setChecked(True)),
                ("0", self.canvas.reset_view),
            ]
        )

    # ---- folder and selection ------------------------------------------------------------------
    def read(self, root: Path) -> tuple[list[Any], list[str]]:
        rows, problems = read_folder(root)
        return list(rows), problems

    def _visible_item(self, item: DragItem) -> DragItem:
        labeler = self.context.labeler()
        return blind_copy(item, labeler, hide_computed=True) if self.blind.isChecked() else item

    def current(self) -> DragItem | None:
        return self.entry.item if self.entry is not None else None

    def step(self, item: DragItem, state: ReviewState, by: str) -> DragItem:
        return drag_review.move(item, state, by)

    def made_key(self, made: ItemFolder) -> str:
        return made.item.id

    def show_row(self, row: int) -> None:
        self.entry = self.model.entries[row] if 0 <= row < len(self.model.entries) else None
        entry = self.entry
        for widget in (self.save_button, self.compute_button, self.approve_button):
            widget.setEnabled(entry is not None)
        if entry is None:
            self.canvas.show_item(None, set(), set(), 5, None)
            self.title.setText("No item")
            self.details.setText("")
            self.instruction.setPlainText("")
            return
        item = self._visible_item(entry.item)
        cfg = item.evaluation_config
        start, end = _points(cfg.feasible_start_points), _points(cfg.feasible_points)
        own = [lab for lab in item.labels if lab.labeler == self.context.labeler()]
        if own:
            start, end = _points(own[0].start_points), _points(own[0].end_points)
        png = entry.screenshot_path.read_bytes() if entry.screenshot_path.is_file() else None
        # the grab point the shown end region is for (blind labeling too: a labeler's end
        # region only means something for where the block is held)
        grab = own[0].drag_start_point if own and own[0].drag_start_point else None
        grab = grab or cfg.drag_start_point
        drag_start = (round(grab[0]), round(grab[1])) if grab else None
        self.canvas.show_item(png, start, end, cfg.grid, drag_start, item_boxes(cfg))
        computed = [lab for lab in item.labels if lab.labeler == COMPUTED_LABEL]
        if computed and not own:
            self.canvas.compare = (
                _points(computed[0].start_points),
                _points(computed[0].end_points),
            )
        self.title.setText(f"<b>{item.id}</b> · {item.category} · {cfg.connection_type.value}")
        self.instruction.setPlainText(entry.item.instruction)
        self._show_details(entry, showing="your label" if own else "item's regions")
        self.review_box.show_review(entry.item.review)
        self._fill_labelers(entry)
        self._update_counts()

    def _show_details(self, entry: ItemFolder, showing: str) -> None:
        cfg = entry.item.evaluation_config
        source = (
            f"palette block {cfg.target_block_opcode} #{cfg.flyout_index}"
            if cfg.source == "flyout"
            else f"{cfg.target_block_opcode} ({cfg.target_block_id})"
        )
        lines = [
            f"Drag: {source}",
            f"To: {cfg.reference_block_opcode} ({cfg.reference_block_id})"
            + (f", input {cfg.target_input_name}" if cfg.target_input_name else ""),
            f"Grid {cfg.grid} px · showing {showing}",
            grab_line(entry.item, self.context.labeler()),
        ]
        computed = [lab for lab in entry.item.labels if lab.labeler == COMPUTED_LABEL]
        if computed and not self.blind.isChecked() and cfg.feasible_points:
            lab = computed[0]
            start_iou = iou(_points(cfg.feasible_start_points), _points(lab.start_points))
            end_iou = iou(_points(cfg.feasible_points), _points(lab.end_points))
            lines.append(
                f"Stored (filled) vs computed (outlined): start IoU {start_iou:.2f}, "
                f"end IoU {end_iou:.2f}"
            )
        stats = entry.item.region_stats
        if stats is not None and not self.blind.isChecked():
            lines.append(f"Computed in {stats.seconds:.1f} s with {stats.drags} real drags")
        try:
            check_screenshot(entry)
        except StudioError as exc:
            lines.append(f"<span style='color:#b00'>{exc}</span>")
        if entry.partial_path.is_file():
            lines.append("A partial computation is kept: Compute resumes it")
        self.details.setText("<br>".join(lines))

    def _fill_labelers(self, entry: ItemFolder) -> None:
        names = [lab.labeler for lab in entry.item.labels]
        self.agreement.fill(names, self.blind.isChecked(), f"{len(names)} labels on this item")

    def _update_counts(self) -> None:
        self.count_label.setText(
            f"start region {len(self.canvas.start)} points (green) · "
            f"end region {len(self.canvas.end)} points (red)"
        )

    def _on_tool(self, button: QRadioButton, checked: bool) -> None:
        if checked and not self.authoring.active:
            self.canvas.set_tool(Tool(str(button.property("tool"))))

    def _set_visible(self, which: str, on: bool) -> None:
        setattr(self.canvas, f"show_{which}", on)
        self.canvas.update()

    # ---- labels and review ---------------------------------------------------------------------
    def store(self, item: DragItem) -> None:
        assert self.entry is not None
        self.entry.item = item
        self.entry.save()
        self.model.refresh(self.entry)
        self.review_box.show_review(self.entry.item.review)
        self._fill_labelers(self.entry)

    def save_label(self) -> bool:
        """The canvas regions become the labeler's label; the instruction is saved too."""
        name = self.labeler_or_say()
        if self.entry is None or not name:
            return False
        item = self.entry.item.model_copy(
            update={"instruction": self.instruction.toPlainText().strip()}
        )
        try:
            item = drag_review.record_label(
                item, name, _sorted(self.canvas.start), _sorted(self.canvas.end)
            )
        except StudioError as exc:
            self.context.message(str(exc))
            return False
        self.store(item)
        self.context.message(f"{item.id}: your label is saved ({self.entry.path})")
        return True

    def approve(self) -> bool:
        """Approve the item with the regions on the canvas as its regions."""
        name = self.labeler_or_say()
        if self.entry is None or not name or not self.save_label():
            return False
        try:  # approved again if it was, with these regions
            item = drag_review.approve(self.entry.item, name, labeler=name, again=True)
        except StudioError as exc:
            self.context.message(str(exc))
            return False
        self.store(item)
        self.context.message(f"{item.id}: approved by {name}")
        return True

    def show_agreement(self) -> None:
        if self.entry is None:
            return
        a, b = self.agree_a.currentText(), self.agree_b.currentText()
        try:
            out = region_agreement(self.entry.item, a, b)
        except StudioError as exc:
            self.agree_text.setText(str(exc))
            return
        self.agree_text.setText(
            f"{a} vs {b}: start IoU {out['start_iou']:.3f} · end IoU {out['end_iou']:.3f} · "
            f"mean {out['mean_iou']:.3f}"
        )

    # ---- computing ---------------------------------------------------------------------------
    async def compute(self) -> None:
        """Compute both regions of the selected item (resuming a partial computation)."""
        entry = self.entry
        if entry is None or self._compute_task is not None:
            return
        self._compute_task = asyncio.current_task()
        self._computing(True)
        self.progress_text.setText("opening editor pages…")

        def progress(phase: str, done: int, asked: int) -> None:
            self.progress_text.setText(f"{phase}: {done} points verified, {asked} drags next")

        try:
            pool = await self.context.pool()
            # trial windows stay open for the next computation (the pool closes them)
            workshop = RegionWorkshop(pool, self._trial_windows)
            outcome = await workshop.compute(entry, progress=progress)
        except StudioError as exc:  # RegionInterrupted too: the verified points are kept
            self.progress_text.setText(f"<span style='color:#b00'>{exc}</span>")
            return
        finally:
            self._computing(False)
            self._compute_task = None
        self.show_result(entry, outcome)

    def show_result(self, entry: ItemFolder, outcome: RegionOutcome) -> None:
        """A computation's regions, which became the item's, are shown with its figures in
        place of the old ones."""
        result = outcome.result
        self.model.refresh(entry)
        if self.entry is entry:
            self.canvas.replace_regions(
                set(result.start_points), set(result.end_points), "computed regions"
            )
            self.review_box.show_review(entry.item.review)
            self._show_details(entry, showing="computed regions")
        self.progress_text.setText(
            f"{len(result.start_points)} start and {len(result.end_points)} end points in "
            f"{result.seconds:.1f} s, {result.drags} real drags"
            + (f" ({result.resumed_drags} resumed)" if result.resumed_drags else "")
        )

    def _computing(self, on: bool) -> None:
        self.progress.setVisible(on)
        self.cancel_button.setVisible(on)
        self.compute_button.setEnabled(not on)
        self.table.setEnabled(not on)

    def cancel_compute(self) -> None:
        if self._compute_task is not None:
            self._compute_task.cancel()

    # ---- authoring -----------------------------------------------------------------------------
    async def new_from_editor(self) -> ItemFolder | None:
        """Author an item from the editor's state; it is selected in the list when made."""
        made: ItemFolder | None = await super().new_from_editor()
        if made is not None:
            self.context.message(f"New drag item {made.item.id} in {made.path}")
        return made

    def stop_work(self) -> None:
        """Stop a computation or an authoring session (the window is closing)."""
        self.cancel_compute()
        super().stop_work()


def _fixed_button(text: str, action: QAction, parent: QWidget) -> QToolButton:
    """A button that triggers `action` but keeps its short `text` (the action's own text,
    "Undo brush end region", would widen it and reflow the row); the full text is its tip."""
    button = QToolButton(parent)
    button.setText(text)
    button.clicked.connect(action.trigger)

    def follow() -> None:
        button.setEnabled(action.isEnabled())
        button.setToolTip(action.text())

    action.changed.connect(follow)
    follow()
    return button
