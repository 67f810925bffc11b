# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 6: clicking, chasing and a traffic light (own projects).

- create_cookie_clicker: clicking the Cookie counts clicks and says the count.
- create_ghost_chase: the Ghost forever glides to the Player, who moves with the arrow keys.
- create_traffic_light: the Light goes from red to green and broadcasts "go"; the Car drives.
"""

from __future__ import annotations

from studio.services.core.projectbuild import Block, ProjectBuilder, Var
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    broadcast,
    changevar,
    changex,
    changey,
    costume,
    flag,
    forever,
    goto,
    if_,
    key_pressed,
    look,
    on_click,
    on_message,
    project,
    repeat,
    say,
    setvar,
    touching,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def clicker(golden: bool) -> ProjectBuilder:
    p = project(backdrop("bakery", "#fefae0", bitmap=True))
    cookie = p.add_sprite("Cookie", [look("cookie", 120, 120, "#bc6c25", "circle", bitmap=True)])
    if golden:
        p.add_variable("clicks", 0)
        cookie.add_script(flag(), goto(0, 0), setvar("clicks", 0))
        cookie.add_script(on_click(), changevar("clicks", 1), say(Var("clicks")))
    return p


def arrows(step: int) -> list[Block]:
    keys = [("right", changex(step)), ("left", changex(-step))]
    keys += [("up", changey(step)), ("down", changey(-step))]
    return [if_(key_pressed(f"{k} arrow"), blk) for k, blk in keys]


def ghost_chase(golden: bool, catch: bool = False) -> ProjectBuilder:
    """The chase; `catch` adds the extend task's catches (count, "Caught!", both back)."""
    p = project(backdrop("haunted house", "#3c096c", bitmap=True))
    player = p.add_sprite("Player", [look("player", 40, 40, "#ffd60a", "circle", bitmap=True)])
    player.add_script(flag(), goto(-150, -100), forever(*arrows(5)))
    ghost = p.add_sprite(
        "Ghost", [look("ghost", 50, 56, "#e0e1dd", bitmap=True, resolution=1)], 200, 150
    )
    if golden:
        chase = [b("motion_glideto", SECS=0.5, TO="Player")]
        start = [flag(), goto(200, 150)]
        if catch:
            p.add_variable("caught", 0)
            p.add_broadcast("caught")
            start.insert(1, setvar("caught", 0))
            got = [changevar("caught", 1), broadcast("caught"), goto(200, 150)]
            chase.append(if_(touching("Player"), *got))
            player.add_script(on_message("caught"), goto(-150, -100), say("Caught!", 1))
        ghost.add_script(*start, forever(*chase))
    return p


def traffic(golden: bool) -> ProjectBuilder:
    p = project(backdrop("road", "#adb5bd", bitmap=True))
    lights = [
        look("red", 50, 50, "#e63946", "circle", bitmap=True),
        look("green", 50, 50, "#2a9d8f", "circle", bitmap=True),
    ]
    light = p.add_sprite("Light", lights, 150, 100)
    car = p.add_sprite(
        "Car", [look("car", 80, 40, "#1d3557", bitmap=True, resolution=1)], -180, -80
    )
    if golden:
        p.add_broadcast("go")
        light.add_script(flag(), costume("red"), wait(2), costume("green"), broadcast("go"))
        car.add_script(flag(), goto(-180, -80))
        car.add_script(on_message("go"), repeat(40, changex(5)))
    return p


CLICKS = [
    Case(
        "clicks starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'clicks', 12);
        await EU.start(vm, 600);
        EU.assert(EU.numberVariable(vm, 'clicks') === 0, `clicks is ${EU.variable(vm, 'clicks')} after the flag`);
        """,
    ),
    Case(
        "each click on the Cookie adds 1",
        9,
        4.0,
        """
        await EU.start(vm, 400);
        for (let i = 1; i <= 5; i++) {
          await EU.clickSprite(vm, 'Cookie');
          await EU.sleep(600);
          EU.assert(EU.numberVariable(vm, 'clicks') === i, `after ${i} clicks, clicks is ${EU.variable(vm, 'clicks')}`);
        }
        """,
    ),
    Case(
        "the Cookie says the number of clicks",
        8,
        3.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 400);
          for (let i = 0; i < 3; i++) {
            await EU.clickSprite(vm, 'Cookie');
            await EU.sleep(700);
          }
          meta.said = says.texts('Cookie');
          EU.assert(JSON.stringify(meta.said) === '["1","2","3"]', `the Cookie said ${JSON.stringify(meta.said)}`);
          EU.assert(EU.bubble(vm, 'Cookie') === '3', 'the count does not stay on the Cookie');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "clicks beside the Cookie do not count",
        8,
        3.0,
        """
        await EU.start(vm, 400);
        for (const [x, y] of [[-200, 150], [200, -150], [0, 120]]) {
          await EU.click(vm, x, y);
          await EU.sleep(800);
        }
        EU.assert(EU.numberVariable(vm, 'clicks') === 0, `clicks is ${EU.variable(vm, 'clicks')} without a click on the Cookie`);
        """,
    ),
    Case(
        "ten quick clicks count ten",
        9,
        3.5,
        """
        await EU.start(vm, 400);
        for (let i = 0; i < 10; i++) {
          await EU.clickSprite(vm, 'Cookie', 50);
          await EU.sleep(200);
        }
        await EU.sleep(500);
        EU.assert(EU.numberVariable(vm, 'clicks') === 10, `10 quick clicks gave clicks = ${EU.variable(vm, 'clicks')}`);
        """,
    ),
]

CHASE = [
    Case(
        "the Ghost starts at the top right",
        5,
        1.0,
        """
        const ghost = EU.sprite(vm, 'Ghost');
        ghost.setXY(0, 0);
        const path = EU.track(ghost);
        try {
          await EU.start(vm, 1000);
        } finally { path.stop(); }
        const first = path.points[0];
        EU.assert(first && EU.near(first.x, 200, 0.5) && EU.near(first.y, 150, 0.5),
          `the Ghost's first move after the flag went to (${first && Math.round(first.x)}, ${first && Math.round(first.y)})`);
        """,
    ),
    Case(
        "the Ghost reaches a Player who stands still",
        8,
        4.0,
        """
        const ghost = EU.sprite(vm, 'Ghost');
        const player = EU.sprite(vm, 'Player');
        await EU.start(vm, 0);
        const gaps = await EU.sample(4000, 100, () => EU.distance(ghost, player));
        meta.final_gap = Math.round(gaps[gaps.length - 1]);
        EU.assert(gaps[0] > 200, 'the Ghost started next to the Player');
        EU.assert(gaps.slice(-10).every((g) => g < 5), `the Ghost stays ${meta.final_gap} px away`);
        EU.assert(gaps.findIndex((g) => g < 5) > 3, 'the Ghost jumped to the Player instead of gliding');
        """,
    ),
    Case(
        "the Ghost follows the moving Player",
        12,
        7.0,
        """
        const ghost = EU.sprite(vm, 'Ghost');
        const player = EU.sprite(vm, 'Player');
        await EU.start(vm, 2500);
        const x0 = ghost.x;
        await EU.holdKey(vm, 'ArrowRight', 2000);
        const moved = player.x + 150;
        EU.assert(moved > 60, `the Player moved only ${Math.round(moved)} px to the right`);
        await EU.sleep(1500);
        meta.gap = Math.round(EU.distance(ghost, player));
        EU.assert(ghost.x - x0 > 50, 'the Ghost did not follow to the right');
        EU.assert(meta.gap < 10, `the Ghost is ${meta.gap} px from the Player 1.5 s after it stopped`);
        await EU.holdKey(vm, 'ArrowUp', 1000);
        EU.assert(ghost.y > -90, 'the Ghost did not follow the Player up');
        """,
    ),
    Case(
        "the Player still moves with the arrow keys",
        8,
        3.0,
        """
        const player = EU.sprite(vm, 'Player');
        await EU.start(vm, 300);
        EU.assert(EU.near(player.x, -150, 0.5) && EU.near(player.y, -100, 0.5), 'the Player does not start at (-150, -100)');
        await EU.holdKey(vm, 'ArrowUp', 1000);
        EU.assert(player.y > -60, `holding up for 1 s moved the Player to y ${Math.round(player.y)}`);
        await EU.holdKey(vm, 'ArrowLeft', 1000);
        EU.assert(player.x < -190, `holding left for 1 s moved the Player to x ${Math.round(player.x)}`);
        """,
    ),
]


LIGHT = [
    Case(
        "the Light starts red and the Car waits at the start",
        6,
        1.5,
        """
        const light = EU.sprite(vm, 'Light');
        const car = EU.sprite(vm, 'Car');
        light.setCostume(1);
        car.setXY(50, -80);
        await EU.start(vm, 300);
        EU.assert(EU.costume(light) === 'red', `the Light shows ${EU.costume(light)}`);
        const xs = await EU.sample(1200, 100, () => Math.round(car.x));
        EU.assert(xs.every((x) => x === -180), `the Car should wait at x -180 while red: ${xs.join(', ')}`);
        """,
    ),
    Case(
        "the Light turns green after about 2 seconds",
        9,
        4.0,
        """
        const light = EU.sprite(vm, 'Light');
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(4000, 50, () => ({ c: EU.costume(light), at: Date.now() - t0 }));
        const green = seen.find((p) => p.c === 'green');
        EU.assert(green, 'the Light never turned green');
        meta.green_ms = green.at;
        EU.assert(green.at > 1600 && green.at < 2700, `green came after ${green.at} ms`);
        """,
    ),
    Case(
        "go is broadcast once when the light turns green",
        9,
        4.0,
        """
        const light = EU.sprite(vm, 'Light');
        const messages = EU.recordBroadcasts(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(1500);
          EU.assert(messages.messages().length === 0, `broadcast too early: ${messages.messages()}`);
          await EU.sleep(2500);
        } finally { messages.stop(); }
        EU.assert(EU.costume(light) === 'green', 'the Light is not green');
        EU.assert(JSON.stringify(messages.messages()) === '["go"]', `broadcasts: ${JSON.stringify(messages.messages())}`);
        """,
    ),
    Case(
        "the Car drives 200 steps to the right after green",
        12,
        7.0,
        """
        const car = EU.sprite(vm, 'Car');
        const light = EU.sprite(vm, 'Light');
        await EU.start(vm, 0);
        EU.assert(await EU.waitUntil(() => EU.costume(light) === 'green', 3500), 'the Light never turned green');
        const xs = await EU.sample(5000, 100, () => Math.round(car.x));
        meta.final_x = xs[xs.length - 1];
        EU.assert(xs.some((x) => x > -180 && x < 20), 'the Car did not drive gradually');
        EU.assert(xs.slice(-5).every((x) => x === 20), `the Car stopped at x ${meta.final_x}, expected 20`);
        EU.assert(EU.near(car.y, -80, 0.5), `the Car left the road (y ${car.y})`);
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_cookie_clicker",
            clicker,
            CLICKS,
            instruction=(
                "Make a clicker game. When the green flag is clicked, the Cookie goes to x: 0, "
                "y: 0 and sets a variable named clicks to 0. Each time the Cookie is clicked, "
                "change clicks by 1 and the Cookie says the value of clicks."
            ),
            description="Count clicks on a cookie and show the count.",
            check="clicks resets to 0; every click on the Cookie (and only there) adds 1, "
            "even quick ones, and the Cookie says the new count.",
            timeout=20,
        ),
        task(
            "create",
            "create_ghost_chase",
            ghost_chase,
            CHASE,
            instruction=(
                "The Player already moves with the arrow keys. Make the Ghost chase it: when "
                "the green flag is clicked, the Ghost goes to x: 200, y: 150 and then forever "
                "glides for 0.5 seconds to the Player (use the 'glide to' block with Player)."
            ),
            description="A ghost that glides after the player.",
            check="The Ghost starts at the top right, glides (not jumps) to a still Player, "
            "follows a moving one and the Player's controls still work.",
            timeout=25,
        ),
        task(
            "create",
            "create_traffic_light",
            traffic,
            LIGHT,
            instruction=(
                "When the green flag is clicked, the Light switches to its 'red' costume and "
                "the Car goes to x: -180, y: -80. After 2 seconds the Light switches to its "
                "'green' costume and broadcasts the message 'go'. When the Car receives 'go', "
                "it changes x by 5, 40 times."
            ),
            description="A traffic light that tells the car when to drive, with a broadcast.",
            check="Red first while the Car waits; green after about 2 s with one go "
            "broadcast; then the Car drives to x 20 and stops.",
            timeout=20,
        ),
    ]
