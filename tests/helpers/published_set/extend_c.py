# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Extend tasks, part 3: a working project plus one feature.

- extend_shooter_add_hits: the shooter with a moving Enemy; hits score and the Enemy says "Hit!".
- extend_traffic_add_yellow: the traffic light; add yellow, red again and a "stop" for the Car.
- extend_car_add_reverse: the Car drives right; add reverse on the left arrow and a horn.
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set import create_g
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    broadcast,
    changex,
    costume,
    flag,
    forever,
    goto,
    gt,
    if_,
    key_pressed,
    look,
    on_key,
    on_message,
    point,
    project,
    say,
    setx,
    stop,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def shooter(golden: bool) -> ProjectBuilder:
    return create_g.shooter(True, enemy=True, hits=golden)


def traffic(golden: bool) -> ProjectBuilder:
    p = project(backdrop("crossing", "#ced4da", bitmap=True))
    colours = [("red", "#e63946"), ("yellow", "#ffb703"), ("green", "#2a9d8f")]
    light = p.add_sprite(
        "Light", [look(n, 50, 50, c, "circle", bitmap=True) for n, c in colours], 170, 110
    )
    car = p.add_sprite("Car", [look("car", 80, 40, "#1d3557", bitmap=True)], -200, -80)
    p.add_broadcast("go")
    phases = [flag(), costume("red"), wait(2), costume("green"), broadcast("go")]
    if golden:
        p.add_broadcast("stop")
        phases += [wait(3), costume("yellow"), wait(1), costume("red"), broadcast("stop")]
        car.add_script(on_message("stop"), stop("other scripts in sprite"))
    light.add_script(*phases)
    car.add_script(flag(), goto(-200, -80))
    car.add_script(
        on_message("go"), forever(changex(3), if_(gt(b("motion_xposition"), 230), setx(-230)))
    )
    return p


def car(golden: bool) -> ProjectBuilder:
    p = project(backdrop("street", "#e9ecef", bitmap=True))
    c = p.add_sprite("Car", [look("car", 90, 44, "#d00000", bitmap=True, resolution=1)], 0, -50)
    right = [changex(5)]
    keys = [if_(key_pressed("right arrow"), *right)]
    if golden:
        right.insert(0, point(90))
        keys = [if_(key_pressed("right arrow"), *right)]
        keys.append(if_(key_pressed("left arrow"), point(-90), changex(-5)))
        c.add_script(on_key("space"), say("Beep!", 0.5))
    c.add_script(
        flag(),
        goto(0, -50),
        point(90),
        b("motion_setrotationstyle", STYLE="left-right"),
        forever(*keys),
    )
    return p


HITS = [
    Case(
        "score starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'score', 3);
        await EU.start(vm, 500);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} after the flag`);
        """,
    ),
    Case(
        "a Laser that hits the Enemy scores 1 and disappears",
        8,
        3.0,
        """
        const enemy = EU.sprite(vm, 'Enemy');
        await EU.start(vm, 500);
        await EU.pressKey(vm, ' ', 80);
        EU.assert(await EU.waitUntil(() => EU.clones(vm, 'Laser').length > 0, 800), 'no Laser after space');
        const laser = EU.clones(vm, 'Laser')[0];
        laser.setXY(enemy.x, enemy.y - 45);
        EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'score') === 1, 1500, 20), `score is ${EU.variable(vm, 'score')} after a hit`);
        await EU.sleep(100);
        EU.assert(!vm.runtime.targets.includes(laser), 'the Laser that hit the Enemy is still flying');
        await EU.sleep(1500);
        EU.assert(EU.numberVariable(vm, 'score') === 1, 'one hit counted more than once');
        """,
    ),
    Case(
        "the Enemy says Hit! for about half a second",
        8,
        3.0,
        """
        const enemy = EU.sprite(vm, 'Enemy');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 500);
          await EU.pressKey(vm, ' ', 80);
          EU.assert(await EU.waitUntil(() => EU.clones(vm, 'Laser').length > 0, 800), 'no Laser after space');
          EU.clones(vm, 'Laser')[0].setXY(enemy.x, enemy.y - 45);
          EU.assert(await says.waitFor((t, e) => t === 'Hit!' && e.sprite === 'Enemy', 1500), `said ${JSON.stringify(says.texts())}`);
          await EU.sleep(1000);
          EU.assert(EU.bubble(vm, 'Enemy') === '', 'Hit! stayed longer than half a second');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "a Laser that misses scores nothing",
        9,
        4.0,
        """
        const ship = EU.sprite(vm, 'Ship');
        await EU.start(vm, 500);
        ship.setXY(-225, -140);
        for (let i = 0; i < 3; i++) {
          await EU.pressKey(vm, ' ', 80);
          await EU.sleep(700);
        }
        await EU.sleep(1500);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} without a hit`);
        EU.assert(EU.clones(vm, 'Laser').length === 0, 'missed Lasers were not deleted at the top');
        """,
    ),
]

LIGHTS = [
    Case(
        "red first, then green and the Car drives",
        9,
        4.0,
        """
        const light = EU.sprite(vm, 'Light');
        const car = EU.sprite(vm, 'Car');
        await EU.start(vm, 300);
        EU.assert(EU.costume(light) === 'red' && EU.near(car.x, -200, 0.5), 'the Light is not red or the Car does not wait');
        EU.assert(await EU.waitUntil(() => EU.costume(light) === 'green', 2500), 'the Light never turned green');
        const x = car.x;
        await EU.sleep(1500);
        EU.assert(car.x > x + 20, 'the Car does not drive on green');
        """,
    ),
    Case(
        "yellow comes about 3 seconds after green, then red",
        12,
        7.0,
        """
        const light = EU.sprite(vm, 'Light');
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(7000, 50, () => ({ c: EU.costume(light), at: Date.now() - t0 }));
        const order = seen.map((p) => p.c).filter((c, i, all) => i === 0 || c !== all[i - 1]);
        meta.order = order.join(' ');
        EU.assert(meta.order === 'red green yellow red', `the lights went ${meta.order}`);
        const yellow = seen.find((p) => p.c === 'yellow').at;
        const red = seen.filter((p) => p.c === 'red' && p.at > yellow)[0].at;
        meta.yellow_ms = yellow;
        EU.assert(yellow > 4500 && yellow < 5800, `yellow came after ${yellow} ms (about 5000 expected)`);
        EU.assert(red - yellow > 700 && red - yellow < 1500, `yellow lasted ${red - yellow} ms`);
        """,
    ),
    Case(
        "stop is broadcast once when the light turns red again",
        12,
        7.0,
        """
        const messages = EU.recordBroadcasts(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5500);
          EU.assert(!messages.messages().includes('stop'), 'stop was broadcast too early');
          await EU.sleep(1500);
        } finally { messages.stop(); }
        EU.assert(JSON.stringify(messages.messages()) === '["go","stop"]', `broadcasts: ${JSON.stringify(messages.messages())}`);
        """,
    ),
    Case(
        "the Car stops at the red light",
        13,
        8.0,
        """
        const car = EU.sprite(vm, 'Car');
        const light = EU.sprite(vm, 'Light');
        await EU.start(vm, 0);
        EU.assert(await EU.waitUntil(() => EU.costume(light) === 'yellow', 6500), 'the Light never turned yellow');
        EU.assert(await EU.waitUntil(() => EU.costume(light) === 'red', 2000), 'the Light never turned red again');
        await EU.sleep(300);
        const xs = await EU.sample(1500, 100, () => Math.round(car.x));
        EU.assert(new Set(xs).size === 1, `the Car keeps driving at red: ${xs.slice(0, 5).join(', ')}`);
        """,
    ),
    Case(
        "a new green flag starts the lights again from red",
        11,
        6.0,
        """
        const light = EU.sprite(vm, 'Light');
        const car = EU.sprite(vm, 'Car');
        await EU.start(vm, 3000);
        EU.assert(EU.costume(light) === 'green', 'the Light is not green after 3 s');
        await EU.start(vm, 200);
        EU.assert(EU.costume(light) === 'red' && EU.near(car.x, -200, 0.5), 'the new green flag did not start again from red');
        EU.assert(await EU.waitUntil(() => EU.costume(light) === 'green', 2600), 'the Light did not turn green again');
        const x = car.x;
        await EU.sleep(1500);
        EU.assert(car.x > x + 20, 'the Car does not drive after the restart');
        """,
    ),
]

REVERSE = [
    Case(
        "the right arrow still drives right, facing right",
        8,
        2.5,
        """
        const c = EU.sprite(vm, 'Car');
        await EU.start(vm, 300);
        await EU.holdKey(vm, 'ArrowRight', 1000);
        await EU.sleep(200);
        EU.assert(c.x > 30, `holding right moved the Car to x ${Math.round(c.x)}`);
        EU.assert(c.direction === 90, `the Car points in direction ${c.direction}`);
        """,
    ),
    Case(
        "the left arrow drives left, facing left",
        9,
        4.0,
        """
        const c = EU.sprite(vm, 'Car');
        await EU.start(vm, 300);
        await EU.holdKey(vm, 'ArrowLeft', 1200);
        await EU.sleep(200);
        meta.x = Math.round(c.x);
        EU.assert(c.x < -30, `holding left moved the Car to x ${meta.x}`);
        EU.assert(c.direction === -90, `driving left the Car points in direction ${c.direction}`);
        EU.assert(EU.near(c.y, -50, 0.5), 'the Car left the road');
        await EU.holdKey(vm, 'ArrowRight', 600);
        await EU.sleep(200);
        EU.assert(c.direction === 90 && c.x > meta.x, 'the Car does not turn back to the right');
        """,
    ),
    Case(
        "space sounds the horn: Beep! for half a second",
        7,
        2.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 300);
          await EU.pressKey(vm, ' ', 80);
          EU.assert(await says.waitFor((t, e) => t === 'Beep!' && e.sprite === 'Car', 800), `said ${JSON.stringify(says.texts())}`);
          await EU.sleep(1000);
          EU.assert(EU.bubble(vm, 'Car') === '', 'Beep! stayed longer than half a second');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "the Car stands still without keys",
        9,
        4.5,
        """
        const c = EU.sprite(vm, 'Car');
        await EU.start(vm, 500);
        const xs = await EU.sample(4000, 200, () => Math.round(c.x));
        EU.assert(new Set(xs).size === 1 && xs[0] === 0, `the Car moved by itself: ${[...new Set(xs)].join(', ')}`);
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "extend",
            "extend_shooter_add_hits",
            shooter,
            HITS,
            instruction=(
                "The Ship shoots Laser clones and an Enemy moves along the top. Make the hits "
                "count: set a variable score to 0 when the green flag is clicked; when a Laser "
                "clone touches the Enemy, change score by 1, broadcast 'hit' and delete that "
                "clone. When the Enemy receives 'hit' it says 'Hit!' for 0.5 seconds."
            ),
            description="Score hits on a moving enemy.",
            check="score starts at 0; a Laser reaching the Enemy scores exactly 1, vanishes "
            "and the Enemy says Hit! briefly; misses score nothing.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_traffic_add_yellow",
            traffic,
            LIGHTS,
            instruction=(
                "The Light goes from red to green after 2 seconds and broadcasts 'go', and the "
                "Car then drives forever. Extend it: 3 seconds after turning green, the Light "
                "switches to yellow, waits 1 second, switches to red and broadcasts 'stop'. "
                "When the Car receives 'stop' it stops driving."
            ),
            description="Add a yellow phase and a stop message to a traffic light.",
            check="red, green (the Car drives), yellow about 3 s later, red 1 s after that "
            "with one stop broadcast, and the Car stops.",
            timeout=30,
        ),
        task(
            "extend",
            "extend_car_add_reverse",
            car,
            REVERSE,
            instruction=(
                "The Car drives right while the right arrow is held. Add reverse: while the "
                "left arrow is held it points in direction -90 and changes x by -5, and when "
                "driving right it points in direction 90. Also add a horn: when space is "
                "pressed the Car says 'Beep!' for 0.5 seconds."
            ),
            description="Let the car drive both ways and honk.",
            check="Right still works and faces right; left drives left facing left; space "
            "says Beep! for half a second; no keys, no motion.",
            timeout=20,
        ),
    ]
