"""Diagnostics runs in `studio report`: the summary.json of every drag and QA run below a folder.

`studio drag run` and `studio qa run` write `summary.json` with `"kind": "drag" | "qa"` into
their run folders; a table per diagnostic lists the runs (agent, items, Pass@k and the
component accuracies for drag, accuracy per question type for QA), in percent as the
diagnostics report them. Scores over a known number of items (drag Pass@k and T1/T2 Pass@1 over
items, QA accuracies over the questions of their type) carry a 95 % Wilson interval (`ci95`).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from studio.models.protocols import label_suffix, protocol_of
from studio.models.report import DiagnosticRow
from studio.services.core.stats import wilson
from studio.services.core.untrusted_json import JsonInputError, read_json

__all__ = [
    "KINDS", "QA_COLUMNS", "SUMMARY_FILE", "TITLES", "ci_lines", "diagnostics_html",
    "format_diagnostics", "load_diagnostics", "row_from_summary", "tables",
]  # fmt: skip

SUMMARY_FILE = "summary.json"
KINDS = ("drag", "qa")
QA_COLUMNS = (
    ("connection", "Connection"),
    ("existence", "Existence"),
    ("field", "Field"),
    ("field_exact", "Field exact"),
    ("overall", "Overall"),
)
TITLES = {"drag": "Single-step drag (%)", "qa": "Perception QA (accuracy %)"}


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def row_from_summary(data: dict[str, Any], folder: Path) -> DiagnosticRow:
    """The report's row of one run's summary (ValueError when it is not a diagnostics run)."""
    kind = data.get("kind")
    if kind not in KINDS:
        raise ValueError("not a diagnostics summary")
    k = int(data.get("k") or 1)
    if kind == "drag":
        scores = {f"pass@{i}": _num(data.get(f"pass@{i}")) for i in range(1, k + 1)}
        scores["start_acc"] = _num(data.get("start_acc"))
        scores["end_acc"] = _num(data.get("end_acc"))
        for part in ("T1", "T2"):
            sub = data.get(part)
            scores[f"{part} pass@1"] = _num(sub.get("pass@1")) if isinstance(sub, dict) else None
    else:
        scores = {key: _num(data.get(key)) for key, _ in QA_COLUMNS}
    errors = data.get("errors")
    protocol = protocol_of(data.get("protocol"))
    row = DiagnosticRow(
        kind=kind,
        agent=str(data.get("agent") or "?") + label_suffix(protocol, kind),
        items=int(data.get("items") or 0),
        k=k,
        scores=scores,
        errors=len(errors) if isinstance(errors, list) else 0,
        started_at=str(data.get("started_at") or ""),
        folder=str(folder),
        protocol=protocol.name if protocol else None,
        protocol_settings=protocol.settings if protocol else {},
    )
    if kind == "drag":  # spatial errors (px), as the paper's Table 2 reports them
        row.errors_px = {e: _num(data.get(f"{e}_error_px")) for e in ("start", "end")}
    for key, n in _item_counts(data, row).items():
        value = scores.get(key)
        if value is not None and isinstance(n, int) and n > 0:
            interval = wilson(min(n, max(0, round(value * n / 100))), n)
            if interval is not None:
                row.ci95[key] = (100 * interval[0], 100 * interval[1])
    return row


def _item_counts(data: dict[str, Any], row: DiagnosticRow) -> dict[str, Any]:
    """How many items each score is a share of, where the summary says it."""
    if row.kind == "drag":
        counts: dict[str, Any] = {f"pass@{i}": row.items for i in range(1, row.k + 1)}
        for part in ("T1", "T2"):
            sub = data.get(part)
            counts[f"{part} pass@1"] = sub.get("items") if isinstance(sub, dict) else None
        return counts
    given = data.get("counts")
    counts = dict(given) if isinstance(given, dict) else {}
    counts["overall"] = row.items
    return counts


def ci_lines(rows: list[DiagnosticRow]) -> list[str]:
    """One line per run with intervals: '95% CI (Wilson): pass@1 [a, b], ...'."""
    return [
        f"  {r.agent} ({Path(r.folder).name}): 95% CI (Wilson) "
        + ", ".join(f"{k} [{lo:.2f}, {hi:.2f}]" for k, (lo, hi) in r.ci95.items())
        for r in rows
        if r.ci95
    ]


def load_diagnostics(root: Path) -> tuple[list[DiagnosticRow], list[str]]:
    """Every drag and QA run below `root`; broken summaries become problem lines (summary.json
    files of other kinds are not ours and are passed over)."""
    root = Path(root)
    if not root.is_dir():
        return [], []
    rows, problems = [], []
    for path in sorted(root.rglob(SUMMARY_FILE)):
        try:
            data = read_json(path)
        except JsonInputError as exc:
            problems.append(f"{path}: cannot be read ({exc.problem})")
            continue
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            continue
        try:
            rows.append(row_from_summary(data, path.parent))
        except (TypeError, ValueError) as exc:
            problems.append(f"{path}: {exc}")
    rows.sort(key=lambda r: (r.kind, r.agent.lower(), r.started_at))
    return rows, problems


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def tables(rows: list[DiagnosticRow]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Per diagnostic present: title, header and body cells."""
    out = []
    for kind in KINDS:
        mine = [r for r in rows if r.kind == kind]
        if not mine:
            continue
        if kind == "drag":
            k = max(r.k for r in mine)
            keys = [f"pass@{i}" for i in range(1, k + 1)]
            keys += ["start_acc", "end_acc", "T1 pass@1", "T2 pass@1"]
            heads = [f"Pass@{i}" for i in range(1, k + 1)]
            heads += ["Start acc", "End acc", "T1 Pass@1", "T2 Pass@1"]
        else:
            keys = [key for key, _ in QA_COLUMNS]
            heads = [head for _, head in QA_COLUMNS]
        extra = _extra_keys(mine, keys)
        keys += extra
        heads += [_head(key) for key in extra]
        header = ["Agent", "Items", *heads, "Errors", "Run"]
        body = [
            [
                r.agent,
                str(r.items),
                *[_cell(r.scores.get(key)) for key in keys],
                str(r.errors),
                Path(r.folder).name,
            ]
            for r in mine
        ]
        out.append((TITLES[kind], header, body))
    return out


def _extra_keys(rows: list[DiagnosticRow], shown: list[str]) -> list[str]:
    """Scores some rows carry beyond the standard columns (a published drag folder's T1/T2
    Pass@2..k, a perception folder's accuracy per tag), in a stable order."""
    keys = {key for r in rows for key in r.scores} - set(shown)
    return sorted(keys, key=lambda k: (not k.startswith("T"), k))


def _head(key: str) -> str:
    return key.replace("pass@", "Pass@") if key.startswith("T") else key.capitalize()


def format_diagnostics(rows: list[DiagnosticRow]) -> list[str]:
    """The tables as aligned text lines (none without diagnostics runs)."""
    lines: list[str] = []
    for title, header, body in tables(rows):
        table = [header, *body]
        widths = [max(len(r[i]) for r in table) for i in range(len(header))]
        lines.append(title)
        for r in table:
            cells = [r[0].ljust(widths[0])]
            cells += [c.rjust(w) for c, w in zip(r[1:-1], widths[1:-1], strict=True)]
            cells.append(r[-1])
            lines.append("  ".join(cells).rstrip())
        lines.extend(ci_lines([r for r in rows if TITLES[r.kind] == title]))
        lines.append("")
    return lines


def diagnostics_html(rows: list[DiagnosticRow]) -> str:
    """The tables as HTML sections ('' without diagnostics runs)."""
    parts = []
    for title, header, body in tables(rows):
        head = "".join(f"<th>{escape(h)}</th>" for h in header)
        lines = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in body
        )
        cis = "".join(
            f"<li>{escape(c.strip())}</li>"
            for c in ci_lines([r for r in rows if TITLES[r.kind] == title])
        )
        parts.append(
            f"<h2>{escape(title)}</h2>\n<table><thead><tr>{head}</tr></thead>"
            f'<tbody>{lines}</tbody></table><ul class="ci">{cis}</ul>'
        )
    return "\n".join(parts)
