"""Cases whose scripts are written in the published ScratchWorld style: no helper library,
the VM's own API, waits built from Date.now() / performance.now() loops and setTimeout,
`Date()` called without `new`, setInterval polling, a SAY listener, and many cases sampled
for seconds each. Each script builds its result object itself."""

from __future__ import annotations

from studio.services.core.projectbuild import Block, Costume, ProjectBuilder, Var, block
from tests.corpus.case import Case, Variant, right_and_wrong, verdicts
from tests.corpus.shortcuts import flag, setvar

b = block


def sprite_project(name: str, fill: str, *scripts: list[Block], x: float = 0) -> ProjectBuilder:
    p = ProjectBuilder()
    sprite = p.add_sprite(name, [Costume.circle(name.lower(), 15, fill)], x=x)
    for script in scripts:
        sprite.add_script(*script)
    return p


# ---- waits from Date.now() and performance.now() loops ------------------------------------


def glide_project(right: bool) -> ProjectBuilder:
    glide = b("motion_glidesecstoxy", SECS=1 if right else 3, X=100, Y=0)
    return sprite_project(
        "Runner", "#4c97ff", [flag(), b("motion_gotoxy", X=-100, Y=0), glide], x=-100
    )


GLIDE = right_and_wrong(
    "sw_glide_timing",
    "The Runner glides from x -100 to x 100 in one second.",
    glide_project,
    (
        "the runner reaches x 100 within 2 s",
        "the glide takes about one second (performance.now)",
        "the runner is on its way after half a second (Date.now loop)",
    ),
    (False, False, True),
    real_s=2.1,
)


def busy_project(right: bool) -> ProjectBuilder:
    step = [b("motion_changexby", DX=10)]
    loop = b("control_repeat", TIMES=10 if right else 5, SUBSTACK=step)
    return sprite_project("Stepper", "#0fbd8c", [flag(), b("motion_gotoxy", X=0, Y=0), loop])


BUSY = right_and_wrong(
    "sw_busy_wait",
    "Synchronous busy-waits on Date.now() and performance.now() end; the program then runs.",
    busy_project,
    (
        "a synchronous Date.now() busy-wait ends",
        "a synchronous performance.now() busy-wait ends",
        "the program ran to x 100 after the busy-waits",
    ),
    (True, True, False),
    real_s=1.8,
)


# ---- Date() without new, and the program's own clock blocks -------------------------------


def date_project(right: bool) -> ProjectBuilder:
    p = sprite_project(
        "Calendar",
        "#ffab19",
        [
            flag(),
            setvar("year", b("sensing_current", CURRENTMENU="YEAR" if right else "MONTH")),
            setvar(
                "days",
                b("sensing_dayssince2000") if right else b("sensing_current", CURRENTMENU="DATE"),
            ),
            setvar("done", 1),
        ],
    )
    for name in ("year", "days", "done"):
        p.add_variable(name, 0)
    return p


DATE = right_and_wrong(
    "sw_date_without_new",
    "The program stores the current year and the days since 2000.",
    date_project,
    (
        "Date() without new returns the date as a string",
        "the program's year is this year",
        "days since 2000 agrees with Date.now()",
    ),
    (False, False, False),
    real_s=0.1,
)


# ---- setInterval polling -------------------------------------------------------------------


def interval_project(right: bool) -> ProjectBuilder:
    step = [b("motion_changexby", DX=10), b("control_wait", DURATION=0.1 if right else 0.5)]
    return sprite_project(
        "Mover",
        "#ff6680",
        [flag(), b("motion_gotoxy", X=-150, Y=0), b("control_forever", SUBSTACK=step)],
        x=-150,
    )


INTERVAL = right_and_wrong(
    "sw_interval_polling",
    "The Mover moves right 10 steps every 0.1 s; a setInterval samples it for 2 s.",
    interval_project,
    ("the mover keeps moving right at 100 steps per second", "it moves in steps of 10"),
    (False, True),
    real_s=2.4,
)


# ---- a SAY listener --------------------------------------------------------------------------


def say_project(right: bool) -> ProjectBuilder:
    where = b("motion_xposition") if right else b("motion_yposition")
    return sprite_project(
        "Speaker",
        "#9966ff",
        [
            flag(),
            b("motion_gotoxy", X=30, Y=-40),
            b("looks_sayforsecs", MESSAGE="Hello!" if right else "Hi!", SECS=0.5),
            b("looks_thinkforsecs", MESSAGE="Hmm...", SECS=0.3),
            b("looks_say", MESSAGE=b("operator_join", STRING1="x is ", STRING2=where)),
        ],
    )


SAY = right_and_wrong(
    "sw_say_listener",
    "The Speaker says Hello! for 0.5 s, thinks Hmm... for 0.3 s, then says its x position.",
    say_project,
    (
        "says Hello! first",
        "thinks Hmm... half a second later",
        "says its x position last",
    ),
    (False, True, False),
    real_s=1.6,
)


# ---- six cases sampled for three seconds each ------------------------------------------------

SAMPLED_DIRECTIONS = (90, -90, 45, -135, 0, 180)


def sampling_project() -> ProjectBuilder:
    """A ball that turns back at the side walls only: it bounces for every start direction
    with a sideways part and gets stuck at the top or bottom edge when started straight up or
    down (the bug the last two cases catch)."""
    p = ProjectBuilder()
    p.add_variable("speed", 20)
    ball = p.add_sprite("Ball", [Costume.circle("ball", 15, "#ff8c1a")])
    turn = [
        b(
            "control_if",
            CONDITION=b("operator_gt", OPERAND1=b("motion_xposition"), OPERAND2=200),
            SUBSTACK=[b("motion_pointindirection", DIRECTION=-90)],
        ),
        b(
            "control_if",
            CONDITION=b("operator_lt", OPERAND1=b("motion_xposition"), OPERAND2=-200),
            SUBSTACK=[b("motion_pointindirection", DIRECTION=90)],
        ),
    ]
    ball.add_script(
        flag(),
        b("control_forever", SUBSTACK=[b("motion_movesteps", STEPS=Var("speed")), *turn]),
    )
    return p


SAMPLING = Case(
    id="sw_sampling_six_cases",
    summary="Six start directions, each sampled every 100 ms for 3 s: the ball must bounce "
    "between the side walls (it cannot when started straight up or down).",
    variants=(
        Variant(
            "buggy_for_vertical_starts",
            sampling_project,
            verdicts(
                *(
                    (f"start direction {d}: bounces between the side walls", d % 180 != 0)
                    for d in SAMPLED_DIRECTIONS
                )
            ),
        ),
    ),
    real_s=20.0,
    timeout_s=60.0,
)

PUBLISHED_STYLE_CASES: tuple[Case, ...] = (GLIDE, BUSY, DATE, INTERVAL, SAY, SAMPLING)
