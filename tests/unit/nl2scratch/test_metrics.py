"""NL2Scratch's metrics against a case computed by hand (the working is in the comments)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.services.formats.nl2scratch.metrics import (
    exact_match,
    line_exact_match,
    normalize,
    sac_pseudo,
    slots_of,
    token_f1,
)
from studio.services.formats.nl2scratch.score import score_files

GOLD = [
    "when @greenFlag clicked",
    "set [score v] to (0)",
    "repeat (10)",
    "    change [score v] by (1)",
    "    move (10) steps",
    "end",
    "say [Done!]",
]
PRED = [
    "when @greenFlag clicked",
    "set [score v]   to (0)",
    "repeat (5)",
    "    change [score v] by (1)",
    "",
    "end",
    "say [Done!]",
]


def test_the_hand_computed_row() -> None:
    # Tokens: gold 3+5+2+5+3+1+2 = 21, prediction 3+5+2+5+1+2 = 18; all but "(5)" are shared
    # (`[score` and `v]` twice on both sides): overlap 17, F1 = 2*17 / (18+21) = 34/39.
    assert token_f1(PRED, GOLD) == pytest.approx(34 / 39)
    assert exact_match(PRED, GOLD) == 0.0
    assert line_exact_match(PRED, GOLD) == 0.0
    # Slots. Event: green_flag both (1; no target on either side, left out). Actions: gold
    # {set_variable, change_variable, move, say}, prediction without move: 3/4. Variables
    # {score} both: 1. Numbers: gold {0, 10, 1}, prediction {0, 5, 1}: 2/4. SAC = 3.25/4.
    sac = sac_pseudo(PRED, GOLD)
    assert sac.per_slot == {
        "event_type": 1.0,
        "action_types": 0.75,
        "variable_names": 1.0,
        "numeric_values": 0.5,
    }
    assert sac.score == pytest.approx(0.8125)
    assert sac.mismatched == ["action_types", "numeric_values"]


def test_normalization_and_line_match() -> None:
    assert normalize(["  go to x: (0)  y: (0) ", "", "say [héllo, you]"]) == (
        "go to x  (0) y  (0)\nsay [hllo  you]"
    )
    assert line_exact_match(["move (1)   steps", ""], ["move (1) steps"]) == 1.0
    assert token_f1([], []) == 1.0 and token_f1(["move"], []) == 0.0


def test_slots_of_events_conditions_and_names() -> None:
    slots = slots_of(
        [
            "when I receive [Go Now v]",
            "if <touching (edge v)?> then",
            "switch costume to (Sprite2 costume v)",
            "end",
            "wait until <(answer) = [7]>",
        ]
    )
    assert (slots.event_type, slots.event_target) == ("receive", "go now")
    assert slots.sets["condition_types"] == {"edge", "answer", "equals"}
    assert slots.sets["costume_names"] == {"sprite2 costume"}
    assert slots.sets["numeric_values"] == {"7"}
    assert sac_pseudo([], GOLD).score == 0.0


def test_the_command_scores_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.jsonl"
    preds = tmp_path / "preds.jsonl"
    gold.write_text(
        json.dumps({"key": "a", "nl": "count", "pseudocode": GOLD})
        + "\n"
        + json.dumps({"key": "b", "nl": "count", "pseudocode": GOLD})
        + "\n",
        "utf-8",
    )
    preds.write_text(
        json.dumps({"key": "a", "predicted_pseudocode": PRED})
        + "\n[1, 2]\nnot json\n"
        + json.dumps({"key": "b", "predicted_pseudocode": "\n".join(GOLD)})
        + "\n"
        + json.dumps({"key": "zz", "predicted_pseudocode": GOLD})
        + "\n",
        "utf-8",
    )
    assert main(["nl2scratch", "score", str(preds), "--gold", str(gold), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scored"] == 2
    assert out["exact_match"] == 0.5 and out["line_exact_match"] == 0.5
    assert out["token_f1"] == pytest.approx((1 + 34 / 39) / 2)
    assert out["parse_rate"] == 1.0 and out["build_rate"] == 1.0
    assert out["sac_pseudo_avg"] == pytest.approx((1 + 0.8125) / 2)
    assert out["sac_pseudo_perfect_rate"] == 0.5 and out["sac_pseudo_high_rate"] == 0.5
    assert [r["key"] for r in out["rows"]] == ["a", "b"]
    problems = "\n".join(out["problems"])
    assert "line 2: not an object but list" in problems
    assert "line 3: not JSON" in problems
    assert "line 5: no gold program for key 'zz'" in problems


def test_published_rows_carry_their_gold(tmp_path: Path) -> None:
    rows = tmp_path / "baseline.jsonl"
    rows.write_text(
        json.dumps({"key": "a", "gold_pseudocode": GOLD, "predicted_pseudocode": PRED}) + "\n",
        "utf-8",
    )
    scores = score_files(rows, None)
    assert scores.totals["sac_pseudo_avg"] == pytest.approx(0.8125)
    assert scores.rows[0].sac_mismatched == ["action_types", "numeric_values"]
