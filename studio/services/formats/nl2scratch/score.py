"""Scoring a file of NL2Scratch predictions by the set's own metrics.

Predictions are rows `{key, predicted_pseudocode}` (also read: `prediction`), matched by key to
the gold rows `{key, nl, pseudocode}`; rows that carry `gold_pseudocode` (the published
baselines' outputs) need no gold file. Per row: exact match, line exact match, token F1,
parsed (the scratchblocks package reads the prediction as at least one script), SAC against
the gold program with its mismatched slots, and `builds` (every line of the prediction can be
placed as a Scratch 3 block: the studio's stricter reading). Totals are means over the scored
rows under the scoring script's names. Rows that cannot be used are listed with their line.
Where the set was imported as tasks, `add_verdicts` adds each prediction's execution verdict
(`nl2scratch.execution`) per row and `execution_pass_rate` to the totals.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from studio.services.core.blocktext.reading import read_texts
from studio.services.core.blocktext.scratchblocks import parse_texts
from studio.services.formats.nl2scratch.metrics import (
    exact_match,
    line_exact_match,
    sac_pseudo,
    token_f1,
)
from studio.services.formats.nl2scratch.rows import RowProblem, program_lines, read_rows

__all__ = ["HIGH_SAC", "RowScore", "Scores", "add_verdicts", "score_files", "score_pairs"]

HIGH_SAC = 0.85
_PREDICTION_FIELDS = ("predicted_pseudocode", "prediction")


@dataclass
class RowScore:
    """The figures of one prediction."""

    key: str
    exact_match: float
    line_exact_match: float
    token_f1: float
    parsed: bool
    builds: bool
    sac_pseudo: float
    sac_mismatched: list[str]
    execution: dict[str, Any] | None = None  # the verdict in its task (`add_verdicts`)


@dataclass
class Scores:
    """Totals (the scoring script's names), per-row figures, unusable rows."""

    totals: dict[str, float]
    rows: list[RowScore]
    problems: list[str] = field(default_factory=list)
    predictions: list[tuple[str, list[str]]] = field(default_factory=list)  # (key, lines)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.totals,
            "rows": [_row_json(r) for r in self.rows],
            "problems": self.problems,
        }


def _row_json(row: RowScore) -> dict[str, Any]:
    """A row's figures; `execution` only where a verdict was asked for."""
    out = asdict(row)
    if row.execution is None:
        del out["execution"]
    return out


def score_pairs(pairs: list[tuple[str, list[str], list[str]]]) -> Scores:
    """Score (key, predicted lines, gold lines) triples."""
    texts = ["\n".join(pred) for _, pred, _ in pairs]
    docs = parse_texts(texts)
    placed = read_texts([(t, 1) for t in texts])
    rows = []
    for (key, pred, gold), doc, (_, problems) in zip(pairs, docs, placed, strict=True):
        sac = sac_pseudo(pred, gold)
        parsed = "error" not in doc and len(doc.get("scripts", [])) > 0
        rows.append(
            RowScore(
                key=key,
                exact_match=exact_match(pred, gold),
                line_exact_match=line_exact_match(pred, gold),
                token_f1=token_f1(pred, gold),
                parsed=parsed,
                builds=parsed and not problems,
                sac_pseudo=sac.score,
                sac_mismatched=sac.mismatched,
            )
        )
    n = len(rows) or 1
    totals = {
        "scored": float(len(rows)),
        "exact_match": sum(r.exact_match for r in rows) / n,
        "line_exact_match": sum(r.line_exact_match for r in rows) / n,
        "token_f1": sum(r.token_f1 for r in rows) / n,
        "parse_rate": sum(r.parsed for r in rows) / n,
        "sac_pseudo_avg": sum(r.sac_pseudo for r in rows) / n,
        "sac_pseudo_perfect_rate": sum(r.sac_pseudo == 1.0 for r in rows) / n,
        "sac_pseudo_high_rate": sum(r.sac_pseudo >= HIGH_SAC for r in rows) / n,
        "build_rate": sum(r.builds for r in rows) / n,
    }
    return Scores(totals, rows)


def _prediction(row: dict[str, Any]) -> Any:
    return next((row[f] for f in _PREDICTION_FIELDS if f in row), None)


def score_files(predictions: Path, gold: Path | None) -> Scores:
    """Score the predictions file against the gold file (or the rows' own gold programs)."""
    problems: list[str] = []
    gold_by_key: dict[str, list[str]] = {}
    if gold is not None:
        gold_rows, bad = read_rows(gold, ("key", "pseudocode"))
        problems += [f"{gold}: {p}" for p in bad]
        gold_by_key = {str(r["key"]): program_lines(r["pseudocode"]) for _, r in gold_rows}
    rows, bad = read_rows(predictions, ("key",))
    problems += [f"{predictions}: {p}" for p in bad]
    pairs = []
    for number, row in rows:
        key = str(row["key"])
        pred = _prediction(row)
        if pred is None:
            problems.append(f"{predictions}: {RowProblem(number, 'lacks predicted_pseudocode')}")
            continue
        if "gold_pseudocode" in row:
            gold_lines = program_lines(row["gold_pseudocode"])
        elif key in gold_by_key:
            gold_lines = gold_by_key[key]
        else:
            problems.append(
                f"{predictions}: {RowProblem(number, f'no gold program for key {key!r}')}"
            )
            continue
        pairs.append((key, program_lines(pred), gold_lines))
    scores = score_pairs(pairs)
    scores.problems = problems
    scores.predictions = [(key, pred) for key, pred, _ in pairs]
    return scores


def add_verdicts(scores: Scores, verdicts: dict[str, Any]) -> None:
    """Put execution verdicts (`execution.ExecutionVerdict` by key) on the rows they judge and
    their totals: `executed` (rows judged) and `execution_pass_rate` (share of those whose
    program passed every test of its task's script)."""
    judged = 0
    passed = 0
    for row in scores.rows:
        verdict = verdicts.get(row.key)
        if verdict is None:
            continue
        row.execution = asdict(verdict)
        judged += 1
        passed += bool(verdict.passed)
    scores.totals["executed"] = float(judged)
    scores.totals["execution_pass_rate"] = passed / judged if judged else 0.0
