# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 2: clicks, timing, the mouse and gliding (all from the default project).

create_click_grow (each click: size +10 and "Ouch!" for 1 s), create_countdown (5 to 0 once a
second, then "Liftoff!"), create_follow_mouse (go to the mouse pointer forever) and
create_square_glide (glide around a square, one second per side).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import on_default, task
from tests.helpers.published_set.kit import (
    b,
    changevar,
    flag,
    forever,
    glide,
    go_to,
    goto,
    on_click,
    repeat,
    say,
    setvar,
    size,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def click_grow(p: ProjectBuilder) -> None:
    s = p.sprite("Sprite1")
    s.add_script(flag(), goto(0, 0), size(100))
    s.add_script(on_click(), b("looks_changesizeby", CHANGE=10), say("Ouch!", 1))


def countdown(p: ProjectBuilder) -> None:
    p.add_variable("countdown", 0)
    p.sprite("Sprite1").add_script(
        flag(),
        setvar("countdown", 5),
        repeat(5, wait(1), changevar("countdown", -1)),
        say("Liftoff!"),
    )


def follow_mouse(p: ProjectBuilder) -> None:
    p.sprite("Sprite1").add_script(flag(), forever(go_to("_mouse_")))


def square_glide(p: ProjectBuilder) -> None:
    corners = [(-100, 100), (100, 100), (100, -100), (-100, -100)]
    p.sprite("Sprite1").add_script(
        flag(), goto(-100, -100), forever(*(glide(1, x, y) for x, y in corners))
    )


GROW = [
    Case(
        "the green flag sets the size to 100%",
        5,
        1.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        s.setSize(150);
        await EU.start(vm, 1000);
        EU.assert(EU.near(s.size, 100, 0.5), `size after the flag is ${s.size}`);
        """,
    ),
    Case(
        "each click grows Sprite1 by 10",
        8,
        3.5,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 500);
        for (let i = 0; i < 3; i++) {
          await EU.clickSprite(vm, 'Sprite1');
          await EU.sleep(900);
        }
        meta.size = s.size;
        EU.assert(EU.near(s.size, 130, 0.5), `size after 3 clicks is ${s.size}, expected 130`);
        """,
    ),
    Case(
        "a click makes it say Ouch! for about 1 second",
        7,
        3.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 500);
          await EU.clickSprite(vm, 'Sprite1');
          EU.assert(await says.waitFor((t) => t === 'Ouch!', 800), `no Ouch!; said ${JSON.stringify(says.texts())}`);
          const shown = Date.now();
          EU.assert(await EU.waitUntil(() => EU.bubble(vm, 'Sprite1') === '', 2500), 'Ouch! never went away');
          meta.shown_ms = Date.now() - shown;
          EU.assert(meta.shown_ms > 600 && meta.shown_ms < 1800, `Ouch! showed for ${meta.shown_ms} ms`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "clicking the stage away from Sprite1 does nothing",
        7,
        3.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 500);
          for (let i = 0; i < 3; i++) {
            await EU.click(vm, 200, 150);
            await EU.sleep(700);
          }
          EU.assert(EU.near(s.size, 100, 0.5), `size became ${s.size} without clicking Sprite1`);
          EU.assert(says.texts().length === 0, `said ${JSON.stringify(says.texts())}`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "fast clicks all count",
        8,
        3.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 500);
        for (let i = 0; i < 5; i++) {
          await EU.clickSprite(vm, 'Sprite1', 60);
          await EU.sleep(300);
        }
        await EU.sleep(500);
        EU.assert(EU.near(s.size, 150, 0.5), `size after 5 quick clicks is ${s.size}, expected 150`);
        """,
    ),
]

COUNT = [
    Case(
        "countdown starts at 5",
        5,
        1.0,
        """
        EU.setVariable(vm, 'countdown', 42);
        await EU.start(vm, 500);
        const value = EU.numberVariable(vm, 'countdown');
        EU.assert(value === 5, `countdown is ${value} right after the flag`);
        """,
    ),
    Case(
        "counts down by one each second",
        11,
        6.5,
        """
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(6500, 100, () => ({ v: EU.numberVariable(vm, 'countdown'), at: Date.now() - t0 }));
        const values = seen.map((p) => p.v).filter((v, i, all) => i === 0 || v !== all[i - 1]);
        meta.values = values;
        EU.assert(JSON.stringify(values) === '[5,4,3,2,1,0]', `values went ${values.join(', ')}`);
        const zero = seen.find((p) => p.v === 0);
        meta.zero_at_ms = zero.at;
        EU.assert(zero.at > 4400 && zero.at < 6000, `countdown reached 0 after ${zero.at} ms`);
        """,
    ),
    Case(
        "says Liftoff! when it reaches 0",
        12,
        6.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          const t0 = Date.now();
          EU.assert(await says.waitFor((t) => t === 'Liftoff!', 7000), `no Liftoff!; said ${JSON.stringify(says.texts())}`);
          meta.after_ms = says.find((t) => t === 'Liftoff!').at - t0;
          EU.assert(meta.after_ms > 4400, `Liftoff! came too early (${meta.after_ms} ms)`);
          EU.assert(EU.numberVariable(vm, 'countdown') === 0, 'countdown is not 0 at Liftoff!');
          await EU.sleep(800);
          EU.assert(EU.bubble(vm, 'Sprite1') === 'Liftoff!', 'Liftoff! did not stay');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "the green flag restarts the countdown",
        8,
        4.0,
        """
        await EU.start(vm, 2200);
        EU.assert(EU.numberVariable(vm, 'countdown') === 3, `after 2.2 s countdown is ${EU.numberVariable(vm, 'countdown')}`);
        await EU.start(vm, 400);
        EU.assert(EU.numberVariable(vm, 'countdown') === 5, 'the second green flag did not reset countdown to 5');
        await EU.sleep(1000);
        EU.assert(EU.numberVariable(vm, 'countdown') === 4, 'the restarted countdown did not tick');
        """,
    ),
]

MOUSE = [
    Case(
        "goes to the mouse pointer",
        6,
        2.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 200);
        for (const [x, y] of [[100, 80], [-60, -120]]) {
          EU.moveMouse(vm, x, y);
          await EU.sleep(800);
          EU.assert(EU.near(s.x, x, 2) && EU.near(s.y, y, 2), `mouse at (${x}, ${y}), Sprite1 at (${s.x}, ${s.y})`);
        }
        """,
    ),
    Case(
        "follows the pointer to many places",
        10,
        5.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 200);
        const points = [[0, 0], [150, 100], [-150, 100], [-150, -100], [150, -100], [30, -40], [-90, 60], [60, 120]];
        for (const [x, y] of points) {
          EU.moveMouse(vm, x, y);
          await EU.sleep(600);
          EU.assert(EU.near(s.x, x, 2) && EU.near(s.y, y, 2), `mouse at (${x}, ${y}), Sprite1 at (${s.x}, ${s.y})`);
        }
        """,
    ),
    Case(
        "keeps up with a moving pointer",
        11,
        6.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 200);
        const t0 = Date.now();
        const gaps = await EU.sample(6000, 60, () => {
          const angle = (Date.now() - t0) / 1000 * 2;
          const m = { x: Math.round(120 * Math.cos(angle)), y: Math.round(100 * Math.sin(angle)) };
          const gap = EU.distance(s, m);
          EU.moveMouse(vm, m.x, m.y);
          return gap;
        });
        gaps.sort((a, c) => a - c);
        meta.median_gap = Math.round(gaps[Math.floor(gaps.length / 2)]);
        EU.assert(meta.median_gap < 45, `Sprite1 trails the pointer by ${meta.median_gap} px (median)`);
        """,
    ),
    Case(
        "stays with a still pointer",
        9,
        4.5,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 200);
        EU.moveMouse(vm, -150, -100);
        await EU.sleep(500);
        const seen = await EU.sample(4000, 100, () => EU.distance(s, { x: -150, y: -100 }));
        EU.assert(Math.max(...seen) < 2, `Sprite1 wandered ${Math.round(Math.max(...seen))} px from a still pointer`);
        """,
    ),
]

SQUARE = [
    Case(
        "starts at the bottom-left corner and glides up",
        5,
        1.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        s.setXY(50, 50);
        await EU.start(vm, 0);
        await EU.sleep(400);
        EU.assert(EU.near(s.x, -100, 0.5), `x is ${s.x} while gliding up the left side`);
        EU.assert(s.y > -100 && s.y < 20, `y is ${s.y} 0.4 s after the flag`);
        """,
    ),
    Case(
        "visits the corners in order",
        11,
        6.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        const path = EU.track(s);
        try {
          await EU.start(vm, 0);
          await EU.sleep(6000);
        } finally { path.stop(); }
        const names = { '-100,100': 'TL', '100,100': 'TR', '100,-100': 'BR', '-100,-100': 'BL' };
        const corners = path.points.map((p) => names[`${Math.round(p.x)},${Math.round(p.y)}`])
          .filter((c, i, all) => c && c !== all[i - 1]);
        meta.corners = corners.join(' ');
        EU.assert(meta.corners.includes('BL TL TR BR BL'), `corners visited: ${meta.corners}`);
        """,
    ),
    Case(
        "each side takes about one second",
        12,
        7.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        const path = EU.track(s);
        try {
          await EU.start(vm, 0);
          await EU.sleep(7000);
        } finally { path.stop(); }
        const isCorner = (p) => Math.abs(Math.abs(p.x) - 100) < 0.5 && Math.abs(Math.abs(p.y) - 100) < 0.5;
        const arrivals = path.points.filter((p, i, all) => isCorner(p) && !(i > 0 && isCorner(all[i - 1])));
        const sides = arrivals.slice(1).map((p, i) => p.at - arrivals[i].at);
        meta.sides_ms = sides;
        EU.assert(sides.length >= 4, `only ${sides.length} sides glided in 7 s`);
        EU.assert(sides.every((ms) => ms > 750 && ms < 1500), `sides took ${sides.join(', ')} ms`);
        """,
    ),
    Case(
        "moves only along the sides of the square",
        10,
        5.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        const path = EU.track(s);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5000);
        } finally { path.stop(); }
        const inside = path.points.slice(1);
        const off = inside.find((p) => !(EU.near(Math.abs(p.x), 100, 1) || EU.near(Math.abs(p.y), 100, 1)));
        EU.assert(inside.length > 20, `Sprite1 hardly moved (${inside.length} moves)`);
        EU.assert(!off, `Sprite1 left the square's sides at (${off && off.x}, ${off && off.y})`);
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_click_grow",
            on_default(click_grow),
            GROW,
            instruction=(
                "When the green flag is clicked, Sprite1 goes to x: 0, y: 0 and sets its size "
                "to 100%. Each time Sprite1 is clicked, it grows by 10 (change size by 10) and "
                "says 'Ouch!' for 1 second."
            ),
            description="A sprite that grows when it is clicked.",
            check="The flag resets the size; every click on Sprite1 (and only on Sprite1) adds "
            "10 to the size and shows Ouch! for about a second.",
            timeout=20,
            shared_initial=True,
        ),
        task(
            "create",
            "create_countdown",
            on_default(countdown),
            COUNT,
            instruction=(
                "Make a countdown. When the green flag is clicked, set a variable named "
                "countdown to 5, then 5 times: wait 1 second and change countdown by -1. When "
                "it reaches 0, Sprite1 says 'Liftoff!'."
            ),
            description="Count down from 5 once a second and announce the liftoff.",
            check="countdown starts at 5, goes 5 4 3 2 1 0 about once a second, Liftoff! is "
            "said at 0 and stays, and a new green flag starts over.",
            timeout=15,
            shared_initial=True,
        ),
        task(
            "create",
            "create_follow_mouse",
            on_default(follow_mouse),
            MOUSE,
            instruction=(
                "When the green flag is clicked, Sprite1 should forever go to the mouse pointer."
            ),
            description="A sprite that follows the mouse pointer around the stage.",
            check="Sprite1 reaches the pointer wherever it is, keeps up with a moving pointer "
            "and stays put under a still one.",
            timeout=20,
            shared_initial=True,
        ),
        task(
            "create",
            "create_square_glide",
            on_default(square_glide),
            SQUARE,
            instruction=(
                "When the green flag is clicked, Sprite1 goes to x: -100, y: -100 and then "
                "forever glides for 1 second to x: -100, y: 100, then 1 second to x: 100, "
                "y: 100, then 1 second to x: 100, y: -100, and then 1 second back to x: -100, "
                "y: -100."
            ),
            description="Glide around a square, one second per side.",
            check="The glide starts at the bottom-left corner, visits the corners in order, "
            "each side takes about a second and the path stays on the square.",
            timeout=20,
            shared_initial=True,
        ),
    ]
