"""Numeric flags are refused by their parser with the allowed range (studio.cli.ranges),
before anything runs: exit code 2 and argparse's line naming the flag."""

from __future__ import annotations

import pytest

from studio.cli import build_parser


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "T", "--timeout", "-5"], "--timeout: must be a number of seconds greater than 0"),
        (["eval", "T", "--timeout", "0"], "--timeout: must be a number of seconds greater than 0"),
        (["eval", "T", "--timeout", "nan"], "--timeout: must be a number of seconds"),
        (["check", "T", "--mutants", "-3"], "--mutants: must be a whole number of at least 0"),
        (["check", "T", "--reruns", "0"], "--reruns: must be a whole number of at least 1"),
        (["check", "T", "--workers", "0"], "--workers: must be a whole number of at least 1"),
        (["serve", "--port", "99999"], "--port: must be a whole number from 0 to 65535"),
        (["serve", "--port", "http"], "--port: must be a whole number from 0 to 65535, not 'http'"),
        (["serve", "--steps", "0"], "--steps: must be a whole number of at least 1"),
        (["propose", "T", "--mutants", "-1"], "--mutants: must be a whole number of at least 0"),
        (["propose", "T", "--workers", "0"], "--workers: must be a whole number of at least 1"),
    ],
)
def test_out_of_range_values_are_refused_with_the_range(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        build_parser().parse_args(argv)
    assert ended.value.code == 2
    assert message in capsys.readouterr().err


def test_values_in_range_are_kept() -> None:
    parser = build_parser()
    assert parser.parse_args(["eval", "T", "--timeout", "2.5"]).timeout == 2.5
    args = parser.parse_args(["check", "T", "--mutants", "0", "--reruns", "1", "--workers", "2"])
    assert (args.mutants, args.reruns, args.workers) == (0, 1, 2)
    assert parser.parse_args(["serve", "--port", "0"]).port == 0
