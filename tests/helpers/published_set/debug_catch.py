# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Debug family "catch_game": catch the falling fruit, with one injected bug per task.

The working game (catch_game_golden.sb3): the Basket follows the mouse's x at y -140; the
Fruit falls 4 steps per frame from a random x at the top; touching the Basket adds 1 to score,
broadcasts "caught" (the Basket says "Yum!") and sends the Fruit back to the top; below y -170
it costs one of the 3 lives and goes back to the top; at 0 lives "game over" is broadcast and
the stage switches to the backdrop "the end" and stops everything.

Bugs: wrong_broadcast (the Fruit broadcasts "catch", nobody listens), lives_not_initialised,
basket_wrong_axis (the Basket's x follows the mouse's y), no_reset_after_miss (a missed Fruit
stays at the bottom and loses every life at once).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder, Var
from tests.helpers.published_set.common import debug_family
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    broadcast,
    changevar,
    changey,
    eq,
    flag,
    forever,
    goto,
    if_,
    look,
    lt,
    on_message,
    project,
    random,
    say,
    setvar,
    setx,
    stop,
    switch_backdrop,
    touching,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec

FAMILY = "catch_game"


def catch(bug: str | None) -> ProjectBuilder:
    p = project(
        backdrop("garden", "#b7e4c7", bitmap=True), backdrop("the end", "#343a40", bitmap=True)
    )
    p.add_variable("score", 0)
    p.add_variable("lives", 3)
    for message in ("caught", "game over", "catch" if bug == "wrong_broadcast" else "caught"):
        p.add_broadcast(message)
    p.stage.add_script(flag(), switch_backdrop("garden"))
    p.stage.add_script(on_message("game over"), switch_backdrop("the end"), stop("all"))
    basket = p.add_sprite("Basket", [look("basket", 90, 30, "#bc6c25", bitmap=True)], 0, -140)
    mouse = b("sensing_mousey" if bug == "basket_wrong_axis" else "sensing_mousex")
    basket.add_script(flag(), goto(0, -140), forever(setx(mouse)))
    basket.add_script(on_message("caught"), say("Yum!", 0.5))
    fruit = p.add_sprite(
        "Fruit", [look("fruit", 28, 28, "#f77f00", "circle", bitmap=True, resolution=1)], 0, 180
    )
    start = [flag(), setvar("score", 0)]
    if bug != "lives_not_initialised":
        start.append(setvar("lives", 3))
    missed = [changevar("lives", -1)]
    if bug != "no_reset_after_miss":
        missed.append(goto(random(-200, 200), 180))
    fruit.add_script(
        *start,
        goto(random(-200, 200), 180),
        forever(
            changey(-4),
            if_(
                touching("Basket"),
                changevar("score", 1),
                broadcast("catch" if bug == "wrong_broadcast" else "caught"),
                goto(random(-200, 200), 180),
            ),
            if_(lt(ypos(), -170), *missed),
            if_(eq(Var("lives"), 0), broadcast("game over")),
        ),
    )
    return p


CASES = {
    "mouse": Case(
        "the Basket follows the mouse left and right",
        8,
        3.0,
        """
        const basket = EU.sprite(vm, 'Basket');
        await EU.start(vm, 300);
        for (const [x, y] of [[-150, 50], [120, -20], [0, 100], [200, 160]]) {
          EU.moveMouse(vm, x, y);
          await EU.sleep(600);
          EU.assert(EU.near(basket.x, x, 2), `mouse at x ${x}, the Basket at x ${Math.round(basket.x)}`);
          EU.assert(EU.near(basket.y, -140, 0.5), `the Basket left its row (y ${Math.round(basket.y)})`);
        }
        """,
    ),
    "start": Case(
        "lives start at 3 and score at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'lives', 1);
        EU.setVariable(vm, 'score', 5);
        await EU.start(vm, 400);
        EU.assert(EU.numberVariable(vm, 'lives') === 3, `lives is ${EU.variable(vm, 'lives')} after the flag`);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} after the flag`);
        EU.assert(EU.backdrop(vm) === 'garden', `the backdrop is ${EU.backdrop(vm)}`);
        """,
    ),
    "falls": Case(
        "the Fruit falls from the top",
        7,
        2.0,
        """
        const fruit = EU.sprite(vm, 'Fruit');
        await EU.start(vm, 100);
        const ys = await EU.sample(2000, 100, () => fruit.y);
        EU.assert(ys[0] > 140, `the Fruit started at y ${Math.round(ys[0])}`);
        EU.assert(ys.every((y, i) => i === 0 || y <= ys[i - 1]), 'the Fruit went up while falling');
        EU.assert(ys[0] - ys[ys.length - 1] > 50, `the Fruit fell only ${Math.round(ys[0] - ys[ys.length - 1])} px in 2 s`);
        """,
    ),
    "catch": Case(
        "catching the Fruit scores 1 and the Basket says Yum!",
        8,
        3.0,
        """
        const fruit = EU.sprite(vm, 'Fruit');
        const basket = EU.sprite(vm, 'Basket');
        const says = EU.recordSays(vm);
        try {
          EU.moveMouse(vm, 0, 0);
          await EU.start(vm, 500);
          const before = EU.numberVariable(vm, 'score');
          fruit.setXY(basket.x, -90);
          EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'score') > before, 2000, 20), 'no point for a caught Fruit');
          EU.assert(EU.numberVariable(vm, 'score') === before + 1, `score went from ${before} to ${EU.variable(vm, 'score')}`);
          EU.assert(await says.waitFor((t, e) => t === 'Yum!' && e.sprite === 'Basket', 1000), 'the Basket did not say Yum!');
          EU.assert(fruit.y > 100, 'the Fruit did not go back to the top');
          await EU.sleep(1000);
        } finally { says.stop(); }
        """,
    ),
    "miss": Case(
        "a miss costs exactly one life and the Fruit starts again at the top",
        8,
        2.5,
        """
        const fruit = EU.sprite(vm, 'Fruit');
        EU.moveMouse(vm, -220, 0);
        await EU.start(vm, 500);
        fruit.setXY(150, -150);
        EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'lives') < 3, 1500, 20), 'a missed Fruit did not cost a life');
        await EU.sleep(150);
        EU.assert(fruit.y > 100, `after the miss the Fruit is at y ${Math.round(fruit.y)}`);
        const lives = await EU.sample(1500, 100, () => EU.numberVariable(vm, 'lives'));
        EU.assert(lives.every((l) => l === 2), `lives after one miss: ${[...new Set(lives)].join(', ')}`);
        """,
    ),
    "end": Case(
        "three misses end the game",
        12,
        3.0,
        """
        const fruit = EU.sprite(vm, 'Fruit');
        EU.moveMouse(vm, -220, 0);
        await EU.start(vm, 500);
        for (let i = 0; i < 3; i++) {
          EU.assert(await EU.waitUntil(() => fruit.y > 100, 1500, 20), `the Fruit is not at the top before miss ${i + 1}`);
          fruit.setXY(150, -150);
          EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'lives') === 2 - i, 1500, 20), `lives is ${EU.variable(vm, 'lives')} after miss ${i + 1}`);
        }
        EU.assert(await EU.waitUntil(() => EU.backdrop(vm) === 'the end', 1000), `the backdrop is ${EU.backdrop(vm)} after three misses`);
        const ys = await EU.sample(1500, 100, () => Math.round(fruit.y));
        EU.assert(new Set(ys).size === 1, 'the Fruit keeps falling after the game ended');
        """,
    ),
}

GAME = (
    "In this catch game the Basket follows the mouse left and right at y: -140. The Fruit "
    "falls from a random x at the top, 4 steps at a time. When it touches the Basket, score "
    "goes up by 1, the message 'caught' is broadcast (the Basket says 'Yum!') and the Fruit "
    "goes back to the top. When it falls below y -170 the player loses one of 3 lives and the "
    "Fruit goes back to the top. At 0 lives the message 'game over' is broadcast: the stage "
    "shows the backdrop 'the end' and everything stops."
)
BUGS = [
    (
        "wrong_broadcast",
        "The Basket never says 'Yum!' when it catches the Fruit.",
        ["catch", "mouse", "falls", "miss"],
    ),
    (
        "lives_not_initialised",
        "When the game is played again it does not start with 3 lives.",
        ["start", "miss", "end", "catch"],
    ),
    (
        "basket_wrong_axis",
        "The Basket does not follow the mouse left and right.",
        ["mouse", "catch", "falls", "start"],
    ),
    (
        "no_reset_after_miss",
        "After the first missed Fruit the game is over at once.",
        ["miss", "end", "falls", "mouse"],
    ),
]


def tasks() -> list[TaskSpec]:
    return debug_family(
        FAMILY,
        GAME,
        "Catch game",
        catch,
        CASES,
        BUGS,
        check="Basket on the mouse's x; score, Yum! and a new Fruit on a catch; one life "
        "per miss; three misses show the end and stop the game.",
        timeout=15,
    )
