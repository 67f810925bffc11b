"""Protocols in `studio report`: runs of different protocols or settings are never pooled.

Every episode of a campaign records its protocol and settings in run.json (`meta.protocol`,
a `studio.models.protocols.ProtocolRecord`); a drag or QA run in its summary.json
(`protocol`). The report names a run's agent with the protocol's label when it is not the
studio's default (`oracle [scratchworld]`, `llm [scratchworld, no element list]`, `oracle
[steps 50]`), so runs under different settings fall into rows of their own, and
`attach_protocols` adds notes: what each label means (the settings in full) and, for an agent
and mode run under several protocols, that they are shown apart. A run recorded before
protocols were recorded carries none and counts as the studio's.
"""

from __future__ import annotations

from collections import defaultdict
from html import escape
from pathlib import Path
from typing import Any

from studio.models.protocols import PROTOCOLS, ProtocolRecord, label_suffix, protocol_label
from studio.models.report import DiagnosticRow, RunEntry, RunReport
from studio.services.runs.breakdowns import attach_breakdowns, breakdown_lines
from studio.services.runs.error_rates import attach_error_rates, error_rate_lines
from studio.services.runs.feedback_figures import attach_feedback, feedback_lines

__all__ = [
    "SETTING_NAMES", "attach_field_figures", "attach_protocols", "diagnostic_notes",
    "drag_settings_table", "protocol_lines", "protocols_html", "settings_text",
]  # fmt: skip


def settings_text(settings: dict[str, Any]) -> str:
    """'steps 50, element_list on, ...' in the order the record keeps."""

    def show(value: Any) -> str:
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    return ", ".join(f"{key} {show(value)}" for key, value in settings.items())


def attach_protocols(report: RunReport, entries: list[RunEntry], command: str = "run") -> None:
    """Set each row's protocol and settings from its runs and write the report's notes."""
    by_row: dict[tuple[str, str], list[RunEntry]] = defaultdict(list)
    for entry in entries:
        by_row[(entry.agent, entry.mode)].append(entry)
    labels: dict[str, tuple[str, dict[str, Any]]] = {}
    base_rows: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in report.rows:
        runs = by_row.get((row.agent, row.mode), [])
        recorded = [r for r in runs if r.protocol is not None]
        base = row.agent
        name = recorded[0].protocol if recorded else None
        if name is not None:
            row.protocol = name
            row.protocol_settings = dict(recorded[0].protocol_settings)
            record = ProtocolRecord(name=name, settings=row.protocol_settings)
            labels.setdefault(protocol_label(record, command), (name, row.protocol_settings))
            suffix = label_suffix(record, command)
            if suffix:
                base = base.replace(suffix, "", 1)
        base_rows[(base, row.mode)].add(row.agent)
    notes: list[str] = []
    for label, (name, settings) in sorted(labels.items()):
        spec = PROTOCOLS.get(name)
        title = f" ({spec.title})" if spec is not None else ""
        shown = f"[{label}]" if label else "rows without a protocol label"
        notes.append(f"{shown}: protocol {name}{title}: {settings_text(settings)}")
    for (base, mode), agents in sorted(base_rows.items()):
        if len(agents) > 1:
            notes.append(
                f"{base} ({mode}): runs under {len(agents)} protocols or settings are shown as "
                f"separate rows, never pooled: {'; '.join(sorted(agents))}"
            )
    if any(r.protocol is None for r in entries) and any(r.protocol for r in entries):
        notes.append(
            "runs without a recorded protocol (recorded before protocols were) count as the "
            "studio's own settings"
        )
    report.protocol_notes = notes


def attach_field_figures(report: RunReport, entries: list[RunEntry]) -> None:
    """Everything this module and its neighbours add to the rows: protocols and settings,
    action error rates (runs.error_rates), SR by difficulty and tag (runs.breakdowns),
    best-so-far PSR and feedback turns (runs.feedback_figures)."""
    attach_protocols(report, entries)
    attach_error_rates(report, entries)
    attach_breakdowns(report, entries)
    attach_feedback(report, entries)


def diagnostic_notes(rows: list[DiagnosticRow]) -> list[str]:
    """What each protocol label of the drag and QA runs means, with the settings in full."""
    seen: dict[str, str] = {}
    for row in rows:
        if row.protocol is None:
            continue
        record = ProtocolRecord(name=row.protocol, settings=row.protocol_settings)
        label = protocol_label(record, row.kind)
        if label:
            seen.setdefault(
                f"{row.kind} [{label}]",
                f"protocol {row.protocol}: {settings_text(row.protocol_settings)}",
            )
    return [f"{key}: {text}" for key, text in sorted(seen.items())]


# the paper's names of the drag settings (its Table 2 "Setting" column)
SETTING_NAMES = {
    (False, False): "Baseline",
    (True, False): "GT Start",
    (False, True): "Knowledge",
    (True, True): "GT Start + Knowledge",
}


def _drag_setting(row: DiagnosticRow) -> str:
    settings = row.protocol_settings
    gt, knowledge = bool(settings.get("ground_truth_start")), bool(settings.get("knowledge"))
    return SETTING_NAMES[(gt, knowledge)]


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def drag_settings_table(rows: list[DiagnosticRow]) -> list[str]:
    """The drag runs as the paper's Table 2: model, setting, Pass@1..k, start and end component
    accuracies (%) and spatial errors (px); [] when no drag run records its protocol."""
    drags = [r for r in rows if r.kind == "drag" and r.protocol is not None]
    if not drags:
        return []
    k = max(r.k for r in drags)
    head = ["Model", "Setting", *(f"@{i}" for i in range(1, k + 1))]
    head += ["Start acc", "End acc", "Start err px", "End err px", "Run"]
    table = [head]
    order = list(SETTING_NAMES.values())
    for r in sorted(
        drags, key=lambda r: (r.agent.split(" [", 1)[0], order.index(_drag_setting(r)))
    ):
        cells = [r.agent.split(" [", 1)[0], _drag_setting(r)]
        cells += [_cell(r.scores.get(f"pass@{i}")) for i in range(1, k + 1)]
        cells += [_cell(r.scores.get(key)) for key in ("start_acc", "end_acc")]
        cells += [_cell(r.errors_px.get(key)) for key in ("start", "end")]
        cells.append(Path(r.folder).name)
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    lines = ["Single-step drag by setting (as the paper's Table 2)"]
    for row in table:
        lines.append(
            "  ".join(
                c.ljust(w) if i < 2 or i == len(row) - 1 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
    return lines


def protocol_lines(report: RunReport) -> list[str]:
    """The report's protocol notes, the drag settings table, the action error rates
    (runs.error_rates), best-so-far PSR and feedback turns (runs.feedback_figures) and the SR
    by difficulty and tag (runs.breakdowns), as text lines."""
    lines: list[str] = error_rate_lines(report) + feedback_lines(report) + breakdown_lines(report)
    if report.protocol_notes:
        lines.extend(["Protocols:", *(f"  {n}" for n in report.protocol_notes), ""])
    table = drag_settings_table(report.diagnostics)
    if table:
        lines.extend([*table, ""])
    return lines


def protocols_html(report: RunReport) -> str:
    """The protocol notes, the drag settings table and the error rates as an HTML section of
    preformatted text ('' when there are none)."""
    lines = protocol_lines(report)
    if not lines:
        return ""
    return (
        "\n<h2>Protocols, settings and error rates</h2>\n<pre>"
        + escape("\n".join(lines))
        + "</pre>"
    )
