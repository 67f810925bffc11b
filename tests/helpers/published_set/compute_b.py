# ruff: noqa: E501  (one-line programs and instructions read best unwrapped)
"""Compute tasks, part 2: words, lists and formats.

reverse a word, count vowels, palindrome test, sum of digits, count a letter, average of three,
leap year, Collatz steps (no golden project) from the default project; and with their own
starting projects (bitmap sprites): the smallest number of a list (the list `numbers` already
holds old items), a times table, a clock format (125 -> "2:05") and a grade letter.
"""

from __future__ import annotations

from studio.services.core.projectbuild import Block, ProjectBuilder, Target, Var
from tests.helpers.published_set.compute_common import compute_task
from tests.helpers.published_set.kit import (
    answer,
    ask,
    b,
    backdrop,
    changevar,
    eq,
    flag,
    if_,
    if_else,
    length,
    letter,
    look,
    lt,
    not_,
    op,
    project,
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


def _reverse_into(name: str) -> list[Block]:
    """Blocks that set `name` to the variable word reversed (i counts down)."""
    word = V("word")
    step = [setvar(name, op("join", V(name), letter(V("i"), word))), changevar("i", -1)]
    return [setvar(name, ""), setvar("i", length(word)), repeat(length(word), *step)]


def reverse_word(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "word", "i", "out")
    s.add_script(
        flag(), ask("Enter a word"), setvar("word", answer()), *_reverse_into("out"), say(V("out"))
    )


def palindrome(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "word", "i", "back")
    same = if_else(eq(V("back"), V("word")), [say("yes")], [say("no")])
    s.add_script(
        flag(), ask("Enter a word"), setvar("word", answer()), *_reverse_into("back"), same
    )


def _count(p: ProjectBuilder, s: Target, test: Block, *asks: Block) -> None:
    _vars(p, "word", "i", "count")
    step = [if_(test, changevar("count", 1)), changevar("i", 1)]
    s.add_script(
        flag(),
        *asks,
        setvar("count", 0),
        setvar("i", 1),
        repeat(length(V("word")), *step),
        say(V("count")),
    )


def count_vowels(p: ProjectBuilder, s: Target) -> None:
    vowel = b("operator_contains", STRING1="aeiou", STRING2=letter(V("i"), V("word")))
    _count(p, s, vowel, ask("Enter a word"), setvar("word", answer()))


def count_letter(p: ProjectBuilder, s: Target) -> None:
    p.add_variable("letter", "")
    same = eq(letter(V("i"), V("word")), V("letter"))
    _count(
        p,
        s,
        same,
        ask("Enter a word"),
        setvar("word", answer()),
        ask("Which letter?"),
        setvar("letter", answer()),
    )


def sum_of_digits(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "word", "i", "total")
    step = [changevar("total", letter(V("i"), V("word"))), changevar("i", 1)]
    s.add_script(
        flag(),
        ask("Enter a whole number"),
        setvar("word", answer()),
        setvar("total", 0),
        setvar("i", 1),
        repeat(length(V("word")), *step),
        say(V("total")),
    )


def average(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "sum")
    steps = [flag(), setvar("sum", 0)]
    for word in ("First", "Second", "Third"):
        steps += [ask(f"{word} number?"), changevar("sum", answer())]
    s.add_script(*steps, say(op("divide", V("sum"), 3)))


def leap_year(p: ProjectBuilder, s: Target) -> None:
    y = answer()
    by4 = op("and", eq(op("mod", y, 4), 0), not_(eq(op("mod", y, 100), 0)))
    leap = op("or", by4, eq(op("mod", y, 400), 0))
    s.add_script(flag(), ask("Which year?"), if_else(leap, [say("leap")], [say("not leap")]))


def collatz(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "n", "steps")
    n = V("n")
    half = if_else(
        eq(op("mod", n, 2), 0),
        [setvar("n", op("divide", n, 2))],
        [setvar("n", op("add", op("multiply", n, 3), 1))],
    )
    s.add_script(
        flag(),
        ask("Enter a number"),
        setvar("n", answer()),
        setvar("steps", 0),
        until(eq(n, 1), half, changevar("steps", 1)),
        say(V("steps")),
    )


# ---- tasks with their own starting project ------------------------------------------------
def robot_project() -> ProjectBuilder:
    p = project(backdrop("lab", "#e0fbfc", bitmap=True))
    p.add_list("numbers", [99, 1])  # left over from an earlier run
    p.add_sprite("Robot", [look("robot", 70, 90, "#3d5a80", bitmap=True, resolution=1)], -120, -40)
    return p


def min_of_list(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "count", "min", "i")
    item = b("data_itemoflist", INDEX=V("i"), LIST="numbers")
    scan = [if_(lt(item, V("min")), setvar("min", item)), changevar("i", 1)]
    s.add_script(
        flag(),
        b("data_deletealloflist", LIST="numbers"),
        ask("How many numbers?"),
        setvar("count", answer()),
        repeat(V("count"), ask("Next number?"), b("data_addtolist", ITEM=answer(), LIST="numbers")),
        setvar("min", b("data_itemoflist", INDEX=1, LIST="numbers")),
        setvar("i", 2),
        repeat(op("subtract", V("count"), 1), *scan),
        say(V("min")),
    )


def calculator_project() -> ProjectBuilder:
    p = project()
    p.add_sprite("Calculator", [look("calculator", 80, 100, "#8d99ae", bitmap=True)], 0, 0)
    return p


def times_table(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "n", "i", "row")
    more = op("join", op("join", V("row"), " "), op("multiply", V("n"), V("i")))
    s.add_script(
        flag(),
        ask("Which times table?"),
        setvar("n", answer()),
        setvar("row", answer()),
        setvar("i", 2),
        repeat(4, setvar("row", more), changevar("i", 1)),
        say(V("row")),
    )


def clock_project() -> ProjectBuilder:
    p = project(backdrop("wall", "#f8edeb", bitmap=True))
    p.add_sprite("Clock", [look("clock", 90, 90, "#ffffff", "circle", bitmap=True)], 0, 30)
    return p


def clock_format(p: ProjectBuilder, s: Target) -> None:
    _vars(p, "hours", "minutes")
    floor = b("operator_mathop", OPERATOR="floor", NUM=op("divide", answer(), 60))
    h, m = V("hours"), V("minutes")
    show = if_else(
        lt(m, 10),
        [say(op("join", op("join", h, ":0"), m))],
        [say(op("join", op("join", h, ":"), m))],
    )
    s.add_script(
        flag(),
        ask("How many minutes?"),
        setvar("hours", floor),
        setvar("minutes", op("mod", answer(), 60)),
        show,
    )


def teacher_project() -> ProjectBuilder:
    p = project(backdrop("classroom", "#ccd5ae", bitmap=True))
    p.add_sprite(
        "Teacher", [look("teacher", 60, 110, "#6d597a", bitmap=True, resolution=1)], 100, -30
    )
    return p


def grade_letter(p: ProjectBuilder, s: Target) -> None:
    grade: list[Block] = [say("F")]
    for limit, name in ((60, "D"), (70, "C"), (80, "B"), (90, "A")):
        grade = [if_else(not_(lt(answer(), limit)), [say(name)], grade)]
    s.add_script(flag(), ask("What is the score?"), *grade)


def tasks() -> list[TaskSpec]:
    return [
        compute_task(
            "compute_reverse_word",
            reverse_word,
            [
                ("scratch", "hctarcs"),
                ("abc", "cba"),
                ("a", "a"),
                ("level", "level"),
                ("Hello", "olleH"),
            ],
            instruction="Ask 'Enter a word' and say the word backwards (for example 'abc' becomes 'cba').",
            description="Reverse a word letter by letter.",
            check="Five words, one letter long to seven; upper case letters are kept.",
            timeout=15,
        ),
        compute_task(
            "compute_count_vowels",
            count_vowels,
            [("banana", 3), ("Scratch", 1), ("rhythm", 0), ("EDUCATION", 5), ("aeiou", 5)],
            instruction="Ask 'Enter a word' and say how many vowels (a, e, i, o, u, upper or lower case) it has.",
            description="Count the vowels of a word.",
            check="Words with 0 to 5 vowels, capitals included.",
            timeout=15,
        ),
        compute_task(
            "compute_palindrome",
            palindrome,
            [("racecar", "yes"), ("scratch", "no"), ("noon", "yes"), ("ab", "no"), ("a", "yes")],
            instruction="Ask 'Enter a word' and say 'yes' if it reads the same backwards and 'no' if it does not.",
            description="Recognise palindromes.",
            check="Odd and even palindromes, a single letter and two non-palindromes.",
            timeout=15,
        ),
        compute_task(
            "compute_sum_of_digits",
            sum_of_digits,
            [(123, 6), (9999, 36), (0, 0), (505, 10), (1000001, 2)],
            instruction="Ask 'Enter a whole number' and say the sum of its digits.",
            description="Add up the digits of a number.",
            check="Five numbers from one to seven digits.",
            timeout=15,
        ),
        compute_task(
            "compute_count_letter",
            count_letter,
            [
                (["banana", "a"], 3),
                (["mississippi", "s"], 4),
                (["hello", "z"], 0),
                (["Scratch", "c"], 2),
                (["aaaa", "a"], 4),
            ],
            instruction="Ask 'Enter a word' and then 'Which letter?' and say how many times the letter appears in the word (upper and lower case count the same).",
            description="Count one letter in a word.",
            check="Five word/letter pairs, a missing letter and capitals included.",
            timeout=20,
        ),
        compute_task(
            "compute_average_of_three",
            average,
            [
                ([4, 8, 9], 7),
                ([0, 0, 3], 1),
                ([-3, 3, 6], 2),
                ([2.5, 3.5, 6], 4),
                ([10, 20, 30], 20),
            ],
            instruction="Ask 'First number?', 'Second number?' and 'Third number?' and say the average of the three numbers.",
            description="Average of three numbers.",
            check="Five triples with zeros, negatives and decimals.",
            timeout=20,
        ),
        compute_task(
            "compute_leap_year",
            leap_year,
            [
                (2024, "leap"),
                (1900, "not leap"),
                (2000, "leap"),
                (2023, "not leap"),
                (2400, "leap"),
            ],
            instruction="Ask 'Which year?' and say 'leap' if it is a leap year (divisible by 4 but not by 100, or divisible by 400) and 'not leap' otherwise.",
            description="Decide whether a year is a leap year.",
            check="Ordinary years, centuries and multiples of 400.",
            timeout=10,
        ),
        compute_task(
            "compute_collatz_steps",
            collatz,
            [(1, 0), (6, 8), (7, 16), (27, 111), (16, 4)],
            instruction="Ask 'Enter a number'. Then, until the number is 1: if it is even halve it, otherwise multiply it by 3 and add 1. Say how many steps it took.",
            description="Count the steps of the Collatz sequence.",
            check="1 needs no step; 6, 7, 27 and 16 need 8, 16, 111 and 4.",
            timeout=15,
            golden=False,
        ),
        compute_task(
            "compute_min_of_list",
            min_of_list,
            [
                ([3, 5, 2, 8], 2),
                ([1, 42], 42),
                ([4, -1, -7, 3, 0], -7),
                ([2, 10, 10], 10),
                ([5, 9, 8, 7, 6, 5], 5),
            ],
            instruction="The Robot collects numbers in the list 'numbers'. When the green flag is clicked it empties the list, asks 'How many numbers?', then asks 'Next number?' that many times and adds each answer to the list. Then it says the smallest number in the list.",
            description="Collect numbers in a list and find the smallest.",
            check="Lists of one to five numbers, negatives and ties; old items must not count.",
            timeout=25,
            sprite="Robot",
            initial=robot_project,
        ),
        compute_task(
            "compute_times_table",
            times_table,
            [
                (3, "3 6 9 12 15"),
                (1, "1 2 3 4 5"),
                (7, "7 14 21 28 35"),
                (0, "0 0 0 0 0"),
                (12, "12 24 36 48 60"),
            ],
            instruction="The Calculator asks 'Which times table?' and says the first five multiples of the answer separated by single spaces, for example '3 6 9 12 15'.",
            description="The first five multiples of a number on one line.",
            check="Five tables; the text must match exactly.",
            timeout=15,
            sprite="Calculator",
            initial=calculator_project,
        ),
        compute_task(
            "compute_clock_format",
            clock_format,
            [(125, "2:05"), (60, "1:00"), (59, "0:59"), (0, "0:00"), (600, "10:00")],
            instruction="The Clock asks 'How many minutes?' and says the time in hours and minutes as h:mm, with two digits for the minutes (125 minutes is '2:05').",
            description="Format minutes as hours and minutes.",
            check="Less than an hour, whole hours and minutes below 10.",
            timeout=15,
            sprite="Clock",
            initial=clock_project,
        ),
        compute_task(
            "compute_grade_letter",
            grade_letter,
            [(95, "A"), (80, "B"), (79, "C"), (60, "D"), (42, "F")],
            instruction="The Teacher asks 'What is the score?' and says the grade: 'A' for 90 or more, 'B' for 80 to 89, 'C' for 70 to 79, 'D' for 60 to 69 and 'F' below 60.",
            description="Turn a score into a grade letter.",
            check="One score per grade, on and next to the limits.",
            timeout=10,
            sprite="Teacher",
            initial=teacher_project,
        ),
    ]
