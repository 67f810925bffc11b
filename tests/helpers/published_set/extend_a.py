# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Extend tasks, part 1: a working game plus one feature.

- extend_pong_add_score: Pong without a score; add score (0 at the start, +1 per Paddle hit).
- extend_catch_add_lives: the catch game; add 3 lives, one lost per miss, "Game Over!" at 0.
- extend_maze_add_timer: the maze; add a time variable counting seconds until the win.
- extend_clicker_add_upgrade: the clicker; an Upgrade for 10 clicks makes each click worth 2.
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder, Var
from tests.helpers.published_set import debug_maze, debug_pong
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    backdrop,
    changevar,
    changex,
    changey,
    eq,
    flag,
    forever,
    goto,
    if_,
    if_else,
    key_pressed,
    look,
    lt,
    on_click,
    project,
    random,
    say,
    setvar,
    stop,
    touching,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def pong(golden: bool) -> ProjectBuilder:
    return debug_pong.pong(None if golden else "no_score")


def maze(golden: bool) -> ProjectBuilder:
    return debug_maze.maze(None, timer=golden)


def catch_lives(golden: bool) -> ProjectBuilder:
    p = project(backdrop("orchard", "#d8f3dc", bitmap=True))
    p.add_variable("score", 0)
    apple = p.add_sprite("Apple", [look("apple", 30, 30, "#d62828", "circle", bitmap=True)], 0, 170)
    bowl = p.add_sprite("Bowl", [look("bowl", 100, 30, "#8d5524", bitmap=True)], 0, -140)
    bowl.add_script(
        flag(),
        goto(0, -140),
        forever(
            if_(key_pressed("left arrow"), changex(-8)),
            if_(key_pressed("right arrow"), changex(8)),
        ),
    )
    start = [flag(), setvar("score", 0)]
    missed = [goto(random(-200, 200), 170)]
    extra = []
    if golden:
        p.add_variable("lives", 3)
        start.append(setvar("lives", 3))
        missed.insert(0, changevar("lives", -1))
        extra = [if_(eq(Var("lives"), 0), say("Game Over!", 1), stop("all"))]
    apple.add_script(
        *start,
        goto(random(-200, 200), 170),
        forever(
            changey(-5),
            if_(touching("Bowl"), changevar("score", 1), goto(random(-200, 200), 170)),
            if_(lt(ypos(), -170), *missed),
            *extra,
        ),
    )
    return p


def clicker(golden: bool) -> ProjectBuilder:
    p = project(backdrop("bakery", "#fefae0", bitmap=True))
    p.add_variable("clicks", 0)
    cookie = p.add_sprite("Cookie", [look("cookie", 120, 120, "#bc6c25", "circle", bitmap=True)])
    upgrade = p.add_sprite("Upgrade", [look("upgrade", 110, 40, "#6a4c93", bitmap=True)], 150, -130)
    start = [flag(), goto(0, 0), setvar("clicks", 0)]
    if golden:
        p.add_variable("power", 1)
        start.append(setvar("power", 1))
        buy = [changevar("clicks", -10), setvar("power", 2), say("Upgraded!", 1)]
        upgrade.add_script(
            on_click(), if_else(lt(Var("clicks"), 10), [say("Need 10 clicks", 1)], buy)
        )
    cookie.add_script(*start)
    cookie.add_script(
        on_click(), changevar("clicks", Var("power") if golden else 1), say(Var("clicks"))
    )
    return p


PONG = [
    debug_pong.CASES["right"],
    debug_pong.CASES["walls"],
    debug_pong.CASES["reset"],
    debug_pong.CASES["hit"],
    Case(
        "no points while the Ball only bounces off the walls",
        10,
        5.0,
        """
        const ball = EU.sprite(vm, 'Ball');
        await EU.start(vm, 200);
        ball.setXY(0, 100);
        ball.setDirection(90);
        const scores = await EU.sample(5000, 200, () => EU.numberVariable(vm, 'score'));
        EU.assert(scores.every((s) => s === 0), `score changed without a Paddle hit: ${[...new Set(scores)].join(', ')}`);
        """,
    ),
]

LIVES = [
    Case(
        "lives start at 3 and score at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'lives', 0);
        EU.setVariable(vm, 'score', 4);
        await EU.start(vm, 500);
        EU.assert(EU.numberVariable(vm, 'lives') === 3, `lives is ${EU.variable(vm, 'lives')} after the flag`);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} after the flag`);
        """,
    ),
    Case(
        "catching the Apple still scores and costs no life",
        8,
        3.0,
        """
        const apple = EU.sprite(vm, 'Apple');
        const bowl = EU.sprite(vm, 'Bowl');
        await EU.start(vm, 500);
        apple.setXY(bowl.x, bowl.y + 50);
        EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'score') === 1, 2000, 20), 'a catch did not score');
        await EU.sleep(1500);
        EU.assert(EU.numberVariable(vm, 'lives') === 3, `lives is ${EU.variable(vm, 'lives')} after a catch`);
        """,
    ),
    Case(
        "a miss costs one life",
        8,
        3.0,
        """
        const apple = EU.sprite(vm, 'Apple');
        const bowl = EU.sprite(vm, 'Bowl');
        await EU.start(vm, 500);
        bowl.setXY(-230, -140);
        apple.setXY(150, -160);
        EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'lives') === 2, 1500, 20), `lives is ${EU.variable(vm, 'lives')} after a miss`);
        await EU.sleep(100);
        EU.assert(apple.y > 100, `after the miss the Apple is at y ${Math.round(apple.y)}, not back at the top`);
        const lives = await EU.sample(1500, 100, () => EU.numberVariable(vm, 'lives'));
        EU.assert(lives.every((l) => l === 2), 'one miss cost more than one life');
        """,
    ),
    Case(
        "after three misses the Apple says Game Over! and the game stops",
        13,
        5.5,
        """
        const apple = EU.sprite(vm, 'Apple');
        const bowl = EU.sprite(vm, 'Bowl');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 500);
          bowl.setXY(-230, -140);
          for (let i = 0; i < 3; i++) {
            EU.assert(await EU.waitUntil(() => apple.y > 100, 2000, 20), `the Apple is not at the top before miss ${i + 1}`);
            apple.setXY(150, -160);
            EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'lives') === 2 - i, 1500, 20), `lives is ${EU.variable(vm, 'lives')} after miss ${i + 1}`);
          }
          EU.assert(await says.waitFor((t) => t === 'Game Over!', 1500), `no Game Over!; said ${JSON.stringify(says.texts())}`);
          await EU.sleep(1500);
          const y = apple.y;
          await EU.holdKey(vm, 'ArrowRight', 700);
          EU.assert(apple.y === y && EU.near(bowl.x, -230, 0.5), 'the game goes on after Game Over!');
        } finally { says.stop(); }
        """,
    ),
]

TIMER = [
    Case(
        "time starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'time', 50);
        await EU.start(vm, 500);
        EU.assert(EU.numberVariable(vm, 'time') === 0, `time is ${EU.variable(vm, 'time')} after the flag`);
        """,
    ),
    Case(
        "time counts up once a second",
        11,
        6.0,
        """
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(6000, 100, () => ({ v: EU.numberVariable(vm, 'time'), at: Date.now() - t0 }));
        const values = seen.map((p) => p.v).filter((v, i, all) => i === 0 || v !== all[i - 1]);
        meta.values = values;
        EU.assert(values.every((v, i) => v === i), `time went ${values.join(', ')}`);
        EU.assert(values.length >= 5 && values.length <= 7, `time reached ${values[values.length - 1]} in 6 s`);
        """,
    ),
    Case(
        "the time stops when the Runner reaches the Goal",
        11,
        6.0,
        """
        const runner = EU.sprite(vm, 'Runner');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 1500);
          runner.setXY(120, -150);
          await EU.holdKey(vm, 'ArrowRight', 1500);
          EU.assert(await says.waitFor((t) => t === 'You win!', 1000), 'the Runner did not win');
          const stopped = EU.numberVariable(vm, 'time');
          EU.assert(stopped >= 1 && stopped <= 3, `time is ${stopped} at the win (about 2 expected)`);
          await EU.sleep(3000);
          EU.assert(EU.numberVariable(vm, 'time') === stopped, `time went on from ${stopped} to ${EU.variable(vm, 'time')} after the win`);
        } finally { says.stop(); }
        """,
    ),
    debug_maze.CASES["walls"],
]

UPGRADE = [
    Case(
        "the Cookie still counts one per click at the start",
        8,
        3.0,
        """
        EU.setVariable(vm, 'power', 2);
        await EU.start(vm, 500);
        for (let i = 0; i < 3; i++) {
          await EU.clickSprite(vm, 'Cookie');
          await EU.sleep(600);
        }
        EU.assert(EU.numberVariable(vm, 'clicks') === 3, `3 clicks gave clicks = ${EU.variable(vm, 'clicks')}`);
        EU.assert(EU.numberVariable(vm, 'power') === 1, `power is ${EU.variable(vm, 'power')} after the flag`);
        """,
    ),
    Case(
        "the Upgrade needs 10 clicks",
        8,
        3.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 500);
          EU.setVariable(vm, 'clicks', 7);
          await EU.clickSprite(vm, 'Upgrade');
          EU.assert(await says.waitFor((t, e) => t === 'Need 10 clicks' && e.sprite === 'Upgrade', 1000), `said ${JSON.stringify(says.texts())}`);
          await EU.sleep(1500);
          EU.assert(EU.numberVariable(vm, 'clicks') === 7, `clicks changed to ${EU.variable(vm, 'clicks')}`);
          EU.assert(EU.numberVariable(vm, 'power') === 1, 'the Upgrade was given for too few clicks');
          EU.assert(EU.bubble(vm, 'Upgrade') === '', 'the message stayed longer than 1 second');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "buying the Upgrade costs 10 clicks",
        7,
        2.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 500);
          EU.setVariable(vm, 'clicks', 12);
          await EU.clickSprite(vm, 'Upgrade');
          EU.assert(await says.waitFor((t, e) => t === 'Upgraded!' && e.sprite === 'Upgrade', 1000), `said ${JSON.stringify(says.texts())}`);
          EU.assert(EU.numberVariable(vm, 'clicks') === 2, `clicks is ${EU.variable(vm, 'clicks')} after buying`);
          EU.assert(EU.numberVariable(vm, 'power') === 2, `power is ${EU.variable(vm, 'power')} after buying`);
          await EU.sleep(1200);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "after the Upgrade every click adds 2",
        10,
        4.5,
        """
        await EU.start(vm, 500);
        EU.setVariable(vm, 'clicks', 10);
        await EU.clickSprite(vm, 'Upgrade');
        await EU.sleep(500);
        for (let i = 0; i < 3; i++) {
          await EU.clickSprite(vm, 'Cookie');
          await EU.sleep(600);
        }
        EU.assert(EU.numberVariable(vm, 'clicks') === 6, `after the upgrade 3 clicks gave clicks = ${EU.variable(vm, 'clicks')}`);
        EU.assert(EU.bubble(vm, 'Cookie') === '6', `the Cookie says ${EU.bubble(vm, 'Cookie')}`);
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "extend",
            "extend_pong_add_score",
            pong,
            PONG,
            instruction=(
                "This Pong game works but keeps no score. Add a variable named score: set it "
                "to 0 when the green flag is clicked and change it by 1 each time the Ball "
                "bounces off the Paddle. Everything else must keep working."
            ),
            description="Add a score to a Pong game.",
            check="The game still plays (Paddle, walls); score starts at 0 and goes up by 1 "
            "per Paddle hit only.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_catch_add_lives",
            catch_lives,
            LIVES,
            instruction=(
                "Add lives to this catch game. When the green flag is clicked set a variable "
                "named lives to 3. Each time the Apple falls below y -170 (a miss), change "
                "lives by -1. When lives is 0, the Apple says 'Game Over!' for 1 second and "
                "then all scripts stop. Catching must still score."
            ),
            description="Add three lives and a game over to a catch game.",
            check="lives starts at 3; a catch scores without costing a life; each miss costs "
            "exactly one; the third miss says Game Over! and stops the game.",
            timeout=25,
        ),
        task(
            "extend",
            "extend_maze_add_timer",
            maze,
            TIMER,
            instruction=(
                "Add a timer to this maze. Make a variable named time, set it to 0 when the "
                "green flag is clicked and then add 1 to it every second. When the Runner "
                "reaches the Goal (the message 'win'), the time must stop counting."
            ),
            description="Add a timer that stops when the maze is solved.",
            check="time starts at 0, counts once a second and stops at the win; the walls "
            "still stop the Runner.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_clicker_add_upgrade",
            clicker,
            UPGRADE,
            instruction=(
                "Add an upgrade to this clicker game. Make a variable power that is set to 1 "
                "when the green flag is clicked; each click on the Cookie must change clicks "
                "by power. When the Upgrade sprite is clicked: if clicks is less than 10 it "
                "says 'Need 10 clicks' for 1 second; otherwise clicks goes down by 10, power "
                "becomes 2 and the Upgrade says 'Upgraded!' for 1 second."
            ),
            description="Add a shop item that doubles the clicks.",
            check="One per click before the upgrade; too few clicks are refused; buying costs "
            "10 and sets power 2; then each click adds 2.",
            timeout=20,
        ),
    ]
