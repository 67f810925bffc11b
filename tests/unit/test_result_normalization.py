"""Script results of various shapes become one typed EvalResult."""

from __future__ import annotations

import pytest

from studio.models.evaluation import EvalResult
from studio.services.runtime.evaluator import clean_console_text, normalize_into, syntax_message


def _result() -> EvalResult:
    return EvalResult(task_id="t", project="p.sb3")


def test_full_result_is_kept() -> None:
    r = _result()
    normalize_into(
        r,
        {
            "success": False,
            "passed_tests": 1,
            "total_tests": 2,
            "partial_success_rate": 0.5,
            "details": [
                {"name": "a", "passed": True},
                {"name": "b", "passed": False, "error": "x is 3"},
            ],
        },
    )
    assert (r.success, r.passed_tests, r.total_tests, r.partial_success_rate) == (False, 1, 2, 0.5)
    assert r.details[1].error == "x is 3"


def test_counts_derived_from_details() -> None:
    r = _result()
    normalize_into(r, {"details": [{"name": "a", "passed": True}, {"name": "b", "passed": True}]})
    assert r.success and r.passed_tests == 2 and r.partial_success_rate == 1.0


def test_boolean_result() -> None:
    r = _result()
    normalize_into(r, True)
    assert r.success and r.total_tests == 1


@pytest.mark.parametrize("raw", [None, 3, "yes", {}])
def test_non_results_rejected(raw: object) -> None:
    with pytest.raises(ValueError):
        normalize_into(_result(), raw)


def test_console_cleaning() -> None:
    styled = "%c2026%c\t%cWARN%c\tscratch-vm%c\tsomething color: #fafafa  font-weight: bold"
    assert "%c" not in clean_console_text(styled)
    assert "color:" not in clean_console_text(styled)
    assert clean_console_text("GL Driver Message (OpenGL...)") == ""
    assert clean_console_text("plain") == "plain"


def test_a_parse_error_is_told_in_the_script_s_own_terms() -> None:
    chromium = (
        "Uncaught SyntaxError: Failed to execute 'appendChild' on 'Node': Unexpected token ';'"
    )
    assert syntax_message(chromium, 25) == "SyntaxError: Unexpected token ';' (column 25)"
    assert syntax_message("Uncaught SyntaxError: Unexpected end of input", None) == (
        "SyntaxError: Unexpected end of input"
    )
