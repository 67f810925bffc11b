# ruff: noqa: E501  (one-line programs and instructions read best unwrapped)
"""Compute tasks, part 1: arithmetic and loops on numbers (from the default project).

sum of two numbers, factorial, maximum of three, FizzBuzz, prime test, greatest common
divisor, sum 1..n, Fibonacci, power, number of digits, Celsius to Fahrenheit, even or odd,
absolute difference. Each golden asks with `ask and wait` and says the result (it stays).
"""

from __future__ import annotations

from typing import Any

from studio.services.core.projectbuild import Block, ProjectBuilder, Target, Var
from tests.helpers.published_set.compute_common import compute_task
from tests.helpers.published_set.kit import (
    answer,
    ask,
    b,
    changevar,
    eq,
    flag,
    gt,
    if_,
    if_else,
    length,
    letter,
    lt,
    op,
    repeat,
    say,
    setvar,
    until,
)
from tests.helpers.published_set.spec import TaskSpec

V = Var


def _vars(p: ProjectBuilder, *names: str) -> None:
    for name in names:
        p.add_variable(name, 0)


def mod(a: Any, c: Any) -> Block:
    return op("mod", a, c)


def sum_two(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "a")
    s.add_script(
        flag(),
        ask("First number?"),
        setvar("a", answer()),
        ask("Second number?"),
        say(op("add", V("a"), answer())),
    )


def factorial(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "n", "result")
    step = [setvar("result", op("multiply", V("result"), V("n"))), changevar("n", -1)]
    s.add_script(
        flag(),
        ask("Enter a number"),
        setvar("n", answer()),
        setvar("result", 1),
        repeat(V("n"), *step),
        say(V("result")),
    )


def max_of_three(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "max")
    steps = [flag(), ask("First number?"), setvar("max", answer())]
    for word in ("Second", "Third"):
        steps += [ask(f"{word} number?"), if_(gt(answer(), V("max")), setvar("max", answer()))]
    s.add_script(*steps, say(V("max")))


def fizzbuzz(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "n")
    n = V("n")
    five = if_else(eq(mod(n, 5), 0), [say("Buzz")], [say(n)])
    three = if_else(eq(mod(n, 3), 0), [say("Fizz")], [five])
    s.add_script(
        flag(),
        ask("Enter a number"),
        setvar("n", answer()),
        if_else(eq(mod(n, 15), 0), [say("FizzBuzz")], [three]),
    )


def is_prime(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "n", "d", "prime")
    n, d = V("n"), V("d")
    done = op("or", gt(op("multiply", d, d), n), eq(V("prime"), "no"))
    check = [
        setvar("d", 2),
        setvar("prime", "yes"),
        until(done, if_(eq(mod(n, d), 0), setvar("prime", "no")), changevar("d", 1)),
    ]
    s.add_script(
        flag(),
        ask("Enter a number"),
        setvar("n", answer()),
        if_else(lt(n, 2), [setvar("prime", "no")], check),
        say(V("prime")),
    )


def gcd(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "a", "b", "t")
    swap = [setvar("t", mod(V("a"), V("b"))), setvar("a", V("b")), setvar("b", V("t"))]
    s.add_script(
        flag(),
        ask("First number?"),
        setvar("a", answer()),
        ask("Second number?"),
        setvar("b", answer()),
        until(eq(V("b"), 0), *swap),
        say(V("a")),
    )


def sum_to_n(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "total", "i")
    s.add_script(
        flag(),
        ask("Enter a number"),
        setvar("total", 0),
        setvar("i", 1),
        repeat(answer(), changevar("total", V("i")), changevar("i", 1)),
        say(V("total")),
    )


def fibonacci(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "a", "b", "t")
    step = [setvar("t", op("add", V("a"), V("b"))), setvar("a", V("b")), setvar("b", V("t"))]
    s.add_script(
        flag(),
        ask("Which Fibonacci number?"),
        setvar("a", 0),
        setvar("b", 1),
        repeat(op("subtract", answer(), 1), *step),
        say(V("b")),
    )


def power(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "base", "result")
    s.add_script(
        flag(),
        ask("Base?"),
        setvar("base", answer()),
        ask("Exponent?"),
        setvar("result", 1),
        repeat(answer(), setvar("result", op("multiply", V("result"), V("base")))),
        say(V("result")),
    )


def count_digits(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "n")
    n = V("n")
    s.add_script(
        flag(),
        ask("Enter a whole number"),
        setvar("n", answer()),
        if_else(eq(letter(1, n), "-"), [say(op("subtract", length(n), 1))], [say(length(n))]),
    )


def celsius(p: ProjectBuilder, s: Target) -> None:
    fahrenheit = op("add", op("divide", op("multiply", answer(), 9), 5), 32)
    s.add_script(flag(), ask("Temperature in Celsius?"), say(fahrenheit))


def even_odd(p: ProjectBuilder, s: Target) -> None:
    s.add_script(
        flag(),
        ask("Enter a whole number"),
        if_else(eq(mod(answer(), 2), 0), [say("even")], [say("odd")]),
    )


def abs_difference(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "a")
    diff = b("operator_mathop", OPERATOR="abs", NUM=op("subtract", V("a"), answer()))
    s.add_script(
        flag(), ask("First number?"), setvar("a", answer()), ask("Second number?"), say(diff)
    )


def tasks() -> list[TaskSpec]:
    return [
        compute_task(
            "compute_sum_two_numbers",
            sum_two,
            [([3, 4], 7), ([10, -2], 8), ([0, 0], 0), ([2.5, 1.5], 4), ([100, 250], 350)],
            instruction="When the green flag is clicked, Sprite1 asks 'First number?' and then 'Second number?', and says the sum of the two answers.",
            description="Add two numbers given by the user.",
            check="Five pairs, negative and decimal numbers included; the sum is said and stays.",
            timeout=15,
        ),
        compute_task(
            "compute_factorial",
            factorial,
            [(0, 1), (1, 1), (5, 120), (7, 5040), (10, 3628800)],
            instruction="When the green flag is clicked, ask 'Enter a number' and say the factorial of the answer (1 x 2 x ... x n; the factorial of 0 is 1).",
            description="Compute a factorial with a loop.",
            check="0, 1, 5, 7 and 10 give 1, 1, 120, 5040 and 3628800.",
            timeout=15,
        ),
        compute_task(
            "compute_max_of_three",
            max_of_three,
            [
                ([3, 9, 4], 9),
                ([-1, -5, -3], -1),
                ([7, 7, 2], 7),
                ([0, 10, 10], 10),
                ([2.5, 2.4, 1], 2.5),
            ],
            instruction="Ask 'First number?', 'Second number?' and 'Third number?' and say the largest of the three numbers.",
            description="The largest of three numbers.",
            check="Five triples with negatives, ties and decimals; the largest is said.",
            timeout=20,
        ),
        compute_task(
            "compute_fizzbuzz",
            fizzbuzz,
            [(3, "Fizz"), (5, "Buzz"), (15, "FizzBuzz"), (7, 7), (30, "FizzBuzz")],
            instruction="Ask 'Enter a number'. Say 'FizzBuzz' if it is divisible by 15, otherwise 'Fizz' if it is divisible by 3, 'Buzz' if it is divisible by 5, and otherwise the number itself.",
            description="The FizzBuzz word for a number.",
            check="Multiples of 3, 5 and 15 and a plain number.",
            timeout=15,
        ),
        compute_task(
            "compute_is_prime",
            is_prime,
            [(2, "yes"), (9, "no"), (13, "yes"), (1, "no"), (97, "yes")],
            instruction="Ask 'Enter a number' and say 'yes' if the number is a prime number and 'no' if it is not (1 is not a prime).",
            description="Decide whether a number is prime.",
            check="2, 13 and 97 are prime; 9 and 1 are not.",
            timeout=15,
        ),
        compute_task(
            "compute_gcd",
            gcd,
            [([12, 18], 6), ([7, 5], 1), ([100, 75], 25), ([9, 0], 9), ([21, 14], 7)],
            instruction="Ask 'First number?' and 'Second number?' and say their greatest common divisor.",
            description="Greatest common divisor of two numbers.",
            check="Five pairs, one with 0 and one of coprime numbers.",
            timeout=20,
        ),
        compute_task(
            "compute_sum_to_n",
            sum_to_n,
            [(1, 1), (10, 55), (100, 5050), (0, 0), (7, 28)],
            instruction="Ask 'Enter a number' and say the sum 1 + 2 + ... + n of all whole numbers from 1 to the answer (0 for 0).",
            description="Sum of the numbers from 1 to n.",
            check="1, 10, 100, 0 and 7 give 1, 55, 5050, 0 and 28.",
            timeout=15,
        ),
        compute_task(
            "compute_fibonacci",
            fibonacci,
            [(1, 1), (2, 1), (7, 13), (10, 55), (20, 6765)],
            instruction="Ask 'Which Fibonacci number?' and say that Fibonacci number, where the 1st and the 2nd are 1 and each next one is the sum of the two before (1, 1, 2, 3, 5, 8, ...).",
            description="The n-th Fibonacci number.",
            check="The 1st, 2nd, 7th, 10th and 20th Fibonacci numbers.",
            timeout=15,
        ),
        compute_task(
            "compute_power",
            power,
            [([2, 10], 1024), ([3, 4], 81), ([5, 0], 1), ([10, 3], 1000), ([-2, 3], -8)],
            instruction="Ask 'Base?' and then 'Exponent?' (a whole number, 0 or more) and say the base raised to the exponent.",
            description="Raise a number to a whole power.",
            check="Five base/exponent pairs, exponent 0 and a negative base included.",
            timeout=20,
        ),
        compute_task(
            "compute_count_digits",
            count_digits,
            [(7, 1), (12345, 5), (1000, 4), (-42, 2), (0, 1)],
            instruction="Ask 'Enter a whole number' and say how many digits it has (a minus sign is not a digit).",
            description="Count the digits of a whole number.",
            check="One to five digits, a negative number and 0.",
            timeout=10,
        ),
        compute_task(
            "compute_celsius_to_fahrenheit",
            celsius,
            [(0, 32), (100, 212), (-40, -40), (37, 98.6), (25, 77)],
            instruction="Ask 'Temperature in Celsius?' and say the temperature in Fahrenheit: Celsius x 9 / 5 + 32.",
            description="Convert Celsius to Fahrenheit.",
            check="Freezing, boiling, -40, body temperature and 25 degrees.",
            timeout=10,
        ),
        compute_task(
            "compute_even_or_odd",
            even_odd,
            [(4, "even"), (7, "odd"), (0, "even"), (-3, "odd"), (1000, "even")],
            instruction="Ask 'Enter a whole number' and say 'even' if it is even and 'odd' if it is odd.",
            description="Tell even numbers from odd ones.",
            check="Even, odd, zero, a negative odd number and 1000.",
            timeout=10,
        ),
        compute_task(
            "compute_absolute_difference",
            abs_difference,
            [([10, 3], 7), ([3, 10], 7), ([-5, 5], 10), ([4, 4], 0), ([2.5, -1], 3.5)],
            instruction="Ask 'First number?' and 'Second number?' and say how far apart they are: the absolute value of their difference.",
            description="Distance between two numbers.",
            check="Both orders, negatives, equal numbers and decimals.",
            timeout=20,
        ),
    ]
