# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Debug family "pong_starter": a Pong game with one injected bug per task.

The working game (the family golden, pong_starter_golden.sb3): the Paddle moves 10 steps per
frame while an arrow key is held; the Ball starts at (0, 100) in direction 150, moves 8 steps
per frame and bounces off the edges; touching the Paddle sends it back up (direction 180 -
direction, move 15) and adds 1 to score; below y -165 it broadcasts "game over" and hides, and
the Paddle says "Game over!" and stops its other scripts.

Bugs: paddle_moving_error (right arrow moves left), ball_no_forever (the Ball's loop is gone:
it moves once), score_not_reset (score keeps its old value), gameover_comparator (> instead of
<: the game ends at once), wrong_key (the left move listens to the a key).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import debug_family
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    bounce,
    broadcast,
    changevar,
    changex,
    flag,
    forever,
    goto,
    gt,
    hide,
    if_,
    key_pressed,
    look,
    lt,
    move,
    on_message,
    op,
    point,
    project,
    say,
    setvar,
    show,
    stop,
    touching,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec

FAMILY = "pong_starter"


def pong(bug: str | None) -> ProjectBuilder:
    """The game with `bug`; bug "no_score" is the game before it kept a score (an extend task)."""
    p = project(backdrop("court", "#1b4332", bitmap=True))
    scoring = bug != "no_score"
    if scoring:
        p.add_variable("score", 0)
    p.add_broadcast("game over")
    paddle = p.add_sprite("Paddle", [look("paddle", 100, 16, "#f1faee", bitmap=True)], 0, -150)
    ball = p.add_sprite("Ball", [look("ball", 24, 24, "#ffb703", "circle", bitmap=True)], 0, 100)
    right = -10 if bug == "paddle_moving_error" else 10
    left_key = "a" if bug == "wrong_key" else "left arrow"
    paddle.add_script(
        flag(),
        goto(0, -150),
        forever(
            if_(key_pressed("right arrow"), changex(right)),
            if_(key_pressed(left_key), changex(-10)),
        ),
    )
    paddle.add_script(on_message("game over"), say("Game over!"), stop("other scripts in sprite"))
    start = [flag(), show()]
    if scoring and bug != "score_not_reset":
        start.append(setvar("score", 0))
    start += [goto(0, 100), point(150)]
    bottom = gt(ypos(), -165) if bug == "gameover_comparator" else lt(ypos(), -165)
    up = op("subtract", 180, b("motion_direction"))
    body = [
        move(8),
        bounce(),
        if_(touching("Paddle"), point(up), move(15), *([changevar("score", 1)] if scoring else [])),
        if_(bottom, broadcast("game over"), stop("this script")),
    ]
    start += body if bug == "ball_no_forever" else [forever(*body)]
    ball.add_script(*start)
    ball.add_script(on_message("game over"), hide())
    return p


def _paddle_case(key: str, sign: str) -> Case:
    word = "right" if sign == ">" else "left"
    bound = "60" if sign == ">" else "-60"
    return Case(
        f"the {word} arrow moves the Paddle {word}",
        9,
        3.5,
        f"""
        const paddle = EU.sprite(vm, 'Paddle');
        const ball = EU.sprite(vm, 'Ball');
        await EU.start(vm, 200);
        ball.setXY(0, 100);
        ball.setDirection(90);
        EU.assert(EU.near(paddle.x, 0, 0.5) && EU.near(paddle.y, -150, 0.5), `the Paddle starts at (${{paddle.x}}, ${{paddle.y}})`);
        await EU.holdKey(vm, '{key}', 1000);
        meta.x = Math.round(paddle.x);
        EU.assert(paddle.x {sign} {bound}, `holding the {word} arrow for 1 s moved the Paddle to x ${{meta.x}}`);
        EU.assert(EU.near(paddle.y, -150, 0.5), 'the Paddle left its row');
        await EU.sleep(300);
        const x = paddle.x;
        await EU.sleep(1200);
        EU.assert(paddle.x === x, 'the Paddle keeps moving after the key is released');
        """,
    )


CASES = {
    "right": _paddle_case("ArrowRight", ">"),
    "left": _paddle_case("ArrowLeft", "<"),
    "walls": Case(
        "the Ball keeps moving and bounces off the walls",
        11,
        6.5,
        """
        const ball = EU.sprite(vm, 'Ball');
        await EU.start(vm, 200);
        ball.setXY(0, 100);
        ball.setDirection(90);
        const seen = await EU.sample(6000, 100, () => ({ x: ball.x, d: Math.round(ball.direction) }));
        const xs = seen.map((p) => p.x);
        meta.span = Math.round(Math.max(...xs) - Math.min(...xs));
        EU.assert(meta.span > 200, `the Ball only covered ${meta.span} px in 6 s`);
        const dirs = new Set(seen.map((p) => p.d));
        EU.assert(dirs.has(90) && dirs.has(-90), `the Ball never bounced off a wall (directions ${[...dirs]})`);
        EU.assert(xs.every((x) => Math.abs(x) <= 240) && ball.visible, 'the Ball left the court');
        """,
    ),
    "reset": Case(
        "score starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'score', 7);
        await EU.start(vm, 300);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} after the flag`);
        """,
    ),
    "hit": Case(
        "bouncing off the Paddle sends the Ball up and scores 1",
        8,
        3.0,
        """
        const paddle = EU.sprite(vm, 'Paddle');
        const ball = EU.sprite(vm, 'Ball');
        await EU.start(vm, 300);
        const before = EU.numberVariable(vm, 'score');
        ball.setXY(paddle.x, -100);
        ball.setDirection(180);
        const scored = await EU.waitUntil(() => EU.numberVariable(vm, 'score') > before, 2000, 20);
        EU.assert(scored, 'the score did not change when the Ball hit the Paddle');
        EU.assert(EU.numberVariable(vm, 'score') === before + 1, `score went from ${before} to ${EU.variable(vm, 'score')}`);
        await EU.sleep(600);
        EU.assert(ball.y > -90 && ball.visible, `the Ball did not bounce up (y ${Math.round(ball.y)})`);
        await EU.sleep(1500);
        """,
    ),
    "miss": Case(
        "missing the Ball ends the game",
        9,
        2.0,
        """
        const paddle = EU.sprite(vm, 'Paddle');
        const ball = EU.sprite(vm, 'Ball');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 300);
          paddle.setXY(-190, -150);
          ball.setXY(150, -120);
          ball.setDirection(180);
          const over = await says.waitFor((t, e) => t === 'Game over!' && e.sprite === 'Paddle', 2000);
          EU.assert(over, `no Game over! from the Paddle; said ${JSON.stringify(says.texts())}`);
          await EU.sleep(300);
          EU.assert(!ball.visible, 'the Ball is still showing after the game ended');
          await EU.holdKey(vm, 'ArrowRight', 800);
          EU.assert(EU.near(paddle.x, -190, 0.5), 'the Paddle still moves after the game ended');
        } finally { says.stop(); }
        """,
    ),
    "alive": Case(
        "the game does not end while the Ball is in play",
        11,
        6.0,
        """
        const ball = EU.sprite(vm, 'Ball');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 200);
          ball.setXY(0, 100);
          ball.setDirection(90);
          const visible = await EU.sample(6000, 100, () => ball.visible);
          EU.assert(!says.find((t) => t === 'Game over!'), 'Game over! while the Ball was still in play');
          EU.assert(visible.every(Boolean), 'the Ball disappeared while in play');
        } finally { says.stop(); }
        """,
    ),
}

GAME = (
    "In this Pong game the Paddle moves left and right while the arrow keys are held; the Ball "
    "starts at x: 0, y: 100 pointing in direction 150, moves 8 steps at a time and bounces off "
    "the edges; when it touches the Paddle it points in direction (180 - direction), moves 15 "
    "steps and score goes up by 1; when its y position goes below -165 it broadcasts 'game "
    "over' and hides, and the Paddle says 'Game over!' and stops moving."
)
BUGS = [
    (
        "paddle_moving_error",
        "Pressing the right arrow moves the Paddle to the left.",
        ["right", "left", "walls", "hit"],
    ),
    (
        "ball_no_forever",
        "The Ball moves a tiny bit at the start and then stops.",
        ["walls", "hit", "alive", "right"],
    ),
    (
        "score_not_reset",
        "When the game is played again, score does not start from 0.",
        ["reset", "hit", "walls", "miss"],
    ),
    (
        "gameover_comparator",
        "The game is over as soon as it starts.",
        ["alive", "miss", "walls", "reset"],
    ),
    (
        "wrong_key",
        "The Paddle does not move left when the left arrow is pressed.",
        ["left", "right", "alive", "hit"],
    ),
]


def tasks() -> list[TaskSpec]:
    return debug_family(
        FAMILY,
        GAME,
        "Pong",
        pong,
        CASES,
        BUGS,
        check="The Paddle follows the arrow keys, the Ball bounces off walls and the "
        "Paddle, scores and ends the game only when it is missed.",
        timeout=20,
    )
