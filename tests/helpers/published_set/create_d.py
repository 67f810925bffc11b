# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 4: animation, backdrops and gravity (each with its own starting project).

- create_bird_flap: the Bird flaps (next costume every 0.25 s) and flies, turning at the edges.
- create_backdrop_slideshow: Morning, Noon, Night backdrops two seconds apart; the Sun says
  "Good night!" when the Night backdrop is shown (broadcast "night").
- create_frog_jump: gravity with a velocity variable; space makes the Frog jump.

The sprites and backdrops are PNG bitmaps (some at bitmap resolution 1).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder, Var
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    bounce,
    broadcast,
    changevar,
    changey,
    costume,
    flag,
    forever,
    goto,
    if_,
    look,
    lt,
    move,
    next_costume,
    on_key,
    on_message,
    point,
    project,
    say,
    setvar,
    sety,
    switch_backdrop,
    wait,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def bird(golden: bool) -> ProjectBuilder:
    p = project(backdrop("sky", "#bde0fe", bitmap=True))
    wings = [
        look("wings up", 60, 44, "#e63946", bitmap=True),
        look("wings down", 60, 36, "#c1121f", bitmap=True),
    ]
    s = p.add_sprite("Bird", wings, x=-150, y=50)
    if golden:
        s.add_script(
            flag(),
            goto(-150, 50),
            point(90),
            b("motion_setrotationstyle", STYLE="left-right"),
            costume("wings up"),
            forever(next_costume(), move(6), bounce(), wait(0.25)),
        )
    return p


def slideshow(golden: bool) -> ProjectBuilder:
    p = project(
        backdrop("Morning", "#ffe08a", bitmap=True),
        backdrop("Noon", "#8ecae6", bitmap=True),
        backdrop("Night", "#14213d", bitmap=True),
    )
    sun = p.add_sprite("Sun", [look("sun", 70, 70, "#ffb703", "circle", bitmap=True)], 150, 110)
    if golden:
        p.add_broadcast("night")
        p.stage.add_script(
            flag(),
            switch_backdrop("Morning"),
            wait(2),
            switch_backdrop("Noon"),
            wait(2),
            switch_backdrop("Night"),
            broadcast("night"),
        )
        sun.add_script(on_message("night"), say("Good night!", 2))
    return p


def frog(golden: bool) -> ProjectBuilder:
    p = project(backdrop("pond", "#caf0f8", bitmap=True))
    f = p.add_sprite("Frog", [look("frog", 50, 40, "#2a9d8f", bitmap=True, resolution=1)], 0, 100)
    p.add_sprite("Ground", [look("ground", 480, 40, "#8d6e63", bitmap=True)], 0, -150)
    if golden:
        f.add_variable("vy", 0)
        f.add_script(
            flag(),
            goto(0, 100),
            setvar("vy", 0),
            forever(
                changevar("vy", -1),
                changey(Var("vy")),
                if_(lt(ypos(), -100), sety(-100), setvar("vy", 0)),
            ),
        )
        f.add_script(on_key("space"), setvar("vy", 12))
    return p


BIRD = [
    Case(
        "the green flag puts the Bird at the left",
        5,
        1.0,
        """
        const bird = EU.sprite(vm, 'Bird');
        bird.setXY(100, -100);
        await EU.start(vm, 150);
        EU.assert(EU.near(bird.x, -150, 20) && EU.near(bird.y, 50, 0.5), `the Bird is at (${bird.x}, ${bird.y})`);
        EU.assert(bird.rotationStyle === 'left-right', `rotation style is ${bird.rotationStyle}`);
        """,
    ),
    Case(
        "flaps: the costume changes about 4 times a second",
        11,
        6.0,
        """
        const bird = EU.sprite(vm, 'Bird');
        await EU.start(vm, 100);
        const names = await EU.sample(6000, 40, () => EU.costume(bird));
        const changes = names.filter((n, i) => i > 0 && n !== names[i - 1]).length;
        meta.changes = changes;
        EU.assert(new Set(names).size === 2, `costumes seen: ${[...new Set(names)].join(', ')}`);
        EU.assert(changes >= 12 && changes <= 32, `${changes} costume changes in 6 s (about 24 expected)`);
        """,
    ),
    Case(
        "flies forward while flapping",
        9,
        4.0,
        """
        const bird = EU.sprite(vm, 'Bird');
        await EU.start(vm, 100);
        const xs = await EU.sample(4000, 200, () => bird.x);
        meta.first_x = Math.round(xs[0]);
        meta.last_x = Math.round(xs[xs.length - 1]);
        EU.assert(meta.last_x - meta.first_x > 50, `the Bird went from x ${meta.first_x} to ${meta.last_x} in 4 s`);
        EU.assert(xs.every((x, i) => i === 0 || x >= xs[i - 1]), 'the Bird did not fly steadily to the right');
        """,
    ),
    Case(
        "turns around at the edge of the stage",
        12,
        7.0,
        """
        const bird = EU.sprite(vm, 'Bird');
        await EU.start(vm, 300);
        bird.setXY(170, 50);
        const seen = await EU.sample(7000, 100, () => ({ x: bird.x, d: bird.direction }));
        const turned = seen.findIndex((p) => p.d === -90);
        EU.assert(turned >= 0, 'the Bird never turned around');
        const after = seen.slice(turned);
        EU.assert(after[after.length - 1].x < after[0].x - 30, 'the Bird did not fly back to the left');
        EU.assert(Math.max(...seen.map((p) => p.x)) <= 240, 'the Bird flew off the stage');
        """,
    ),
]

SLIDES = [
    Case(
        "starts with the Morning backdrop",
        5,
        1.0,
        """
        EU.stage(vm).setCostume(2);
        await EU.start(vm, 500);
        EU.assert(EU.backdrop(vm) === 'Morning', `the backdrop is ${EU.backdrop(vm)} after the flag`);
        """,
    ),
    Case(
        "switches to Noon after about 2 seconds",
        9,
        3.5,
        """
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(3500, 50, () => ({ name: EU.backdrop(vm), at: Date.now() - t0 }));
        const noon = seen.find((p) => p.name === 'Noon');
        EU.assert(noon, `no Noon backdrop in 3.5 s: ${[...new Set(seen.map((p) => p.name))].join(', ')}`);
        meta.noon_ms = noon.at;
        EU.assert(noon.at > 1600 && noon.at < 2700, `Noon came after ${noon.at} ms`);
        EU.assert(seen.filter((p) => p.at < 1500).every((p) => p.name === 'Morning'), 'Morning did not last 2 s');
        """,
    ),
    Case(
        "switches to Night after about 4 seconds and stays",
        12,
        7.0,
        """
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(7000, 50, () => ({ name: EU.backdrop(vm), at: Date.now() - t0 }));
        const night = seen.find((p) => p.name === 'Night');
        EU.assert(night, 'the Night backdrop never showed');
        meta.night_ms = night.at;
        EU.assert(night.at > 3600 && night.at < 4900, `Night came after ${night.at} ms`);
        EU.assert(seen.filter((p) => p.at >= night.at).every((p) => p.name === 'Night'), 'Night did not stay');
        """,
    ),
    Case(
        "the Sun says Good night! when the night comes",
        11,
        6.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          let nightAt = null;
          await EU.sample(6000, 50, () => { if (!nightAt && EU.backdrop(vm) === 'Night') nightAt = Date.now(); });
          const said = says.find((t, e) => t === 'Good night!' && e.sprite === 'Sun');
          EU.assert(said, `the Sun did not say Good night!; said ${JSON.stringify(says.texts())}`);
          EU.assert(nightAt && said.at >= nightAt - 100 && said.at < nightAt + 800, 'Good night! did not come with the Night backdrop');
          EU.assert(says.texts('Sun').length === 1, `the Sun said ${JSON.stringify(says.texts('Sun'))}`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "the message night is broadcast once",
        10,
        5.5,
        """
        const messages = EU.recordBroadcasts(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5500);
        } finally { messages.stop(); }
        const nights = messages.messages().filter((m) => m === 'night');
        EU.assert(nights.length === 1, `night was broadcast ${nights.length} times`);
        """,
    ),
]

FROG = [
    Case(
        "falls down faster and faster from y 100",
        6,
        1.5,
        """
        const frog = EU.sprite(vm, 'Frog');
        await EU.start(vm, 0);
        const ys = await EU.sample(1500, 50, () => frog.y);
        EU.assert(ys[0] > 50, `the Frog started at y ${Math.round(ys[0])}, expected near 100`);
        const drops = ys.slice(1).map((y, i) => ys[i] - y);
        const early = drops.slice(0, 6).reduce((a, c) => a + c, 0);
        const late = drops.slice(6, 12).reduce((a, c) => a + c, 0);
        EU.assert(late > early && early > 0, `the fall does not speed up (${Math.round(early)} px then ${Math.round(late)} px)`);
        """,
    ),
    Case(
        "lands on the ground at y -100 and stays",
        10,
        5.0,
        """
        const frog = EU.sprite(vm, 'Frog');
        await EU.start(vm, 0);
        const ys = await EU.sample(5000, 100, () => frog.y);
        meta.lowest = Math.round(Math.min(...ys));
        EU.assert(meta.lowest >= -100, `the Frog sank to y ${meta.lowest}`);
        const last = ys.slice(-20);
        EU.assert(last.every((y) => EU.near(y, -100, 0.5)), `the Frog is not resting at -100: ${last.map(Math.round).join(', ')}`);
        """,
    ),
    Case(
        "space makes the Frog jump and come back down",
        11,
        6.0,
        """
        const frog = EU.sprite(vm, 'Frog');
        await EU.start(vm, 2500);
        EU.assert(EU.near(frog.y, -100, 0.5), `the Frog is at y ${frog.y} before the jump`);
        await EU.pressKey(vm, ' ', 80);
        const ys = await EU.sample(3500, 40, () => frog.y);
        meta.peak = Math.round(Math.max(...ys));
        EU.assert(meta.peak > -60, `the jump only reached y ${meta.peak}`);
        EU.assert(EU.near(ys[ys.length - 1], -100, 0.5), `the Frog did not come back down (y ${ys[ys.length - 1]})`);
        """,
    ),
    Case(
        "every jump is as high as the first",
        14,
        9.0,
        """
        const frog = EU.sprite(vm, 'Frog');
        await EU.start(vm, 2500);
        const peaks = [];
        for (let i = 0; i < 3; i++) {
          await EU.pressKey(vm, ' ', 80);
          const ys = await EU.sample(2200, 40, () => frog.y);
          peaks.push(Math.round(Math.max(...ys)));
        }
        meta.peaks = peaks;
        EU.assert(peaks.every((p) => p > -60), `jump peaks ${peaks.join(', ')}`);
        EU.assert(Math.max(...peaks) - Math.min(...peaks) <= 15, `the jumps differ: ${peaks.join(', ')}`);
        """,
    ),
    Case(
        "ten jumps in a row, each landing on the ground",
        22,
        14.0,
        """
        const frog = EU.sprite(vm, 'Frog');
        await EU.start(vm, 2500);
        let landed = 0;
        for (let i = 0; i < 10; i++) {
          await EU.pressKey(vm, ' ', 60);
          EU.assert(await EU.waitUntil(() => frog.y > -80, 1000, 20), `jump ${i + 1} did not leave the ground`);
          if (await EU.waitUntil(() => EU.near(frog.y, -100, 0.5), 2500, 20)) landed += 1;
          await EU.sleep(100);
        }
        meta.landed = landed;
        EU.assert(landed === 10, `only ${landed} of 10 jumps landed on y -100`);
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_bird_flap",
            bird,
            BIRD,
            instruction=(
                "The project has a Bird sprite with two costumes, 'wings up' and 'wings down'. "
                "When the green flag is clicked, the Bird goes to x: -150, y: 50, points in "
                "direction 90, sets its rotation style to left-right and switches to 'wings "
                "up'. Then, forever: next costume, move 6 steps, bounce if on edge, wait 0.25 "
                "seconds."
            ),
            description="Animate a flying bird with two costumes.",
            check="The Bird starts at the left, alternates its two costumes about 4 times a "
            "second, flies to the right and turns around at the edge.",
            timeout=20,
        ),
        task(
            "create",
            "create_backdrop_slideshow",
            slideshow,
            SLIDES,
            instruction=(
                "The stage has three backdrops: Morning, Noon and Night. When the green flag "
                "is clicked, the stage switches to Morning, waits 2 seconds, switches to Noon, "
                "waits 2 seconds, switches to Night and broadcasts the message 'night'. When "
                "the Sun receives 'night', it says 'Good night!' for 2 seconds."
            ),
            description="A day passing: three backdrops and a broadcast to the Sun.",
            check="Morning first, Noon after about 2 s, Night after about 4 s and it stays; "
            "night is broadcast once and the Sun says Good night! when it comes.",
            timeout=25,
        ),
        task(
            "create",
            "create_frog_jump",
            frog,
            FROG,
            instruction=(
                "Give the Frog gravity. When the green flag is clicked, the Frog goes to x: 0, "
                "y: 100 and sets a variable vy to 0. Then forever: change vy by -1, change y "
                "by vy, and if y position < -100, set y to -100 and set vy to 0. When the "
                "space key is pressed, set vy to 12 so that the Frog jumps."
            ),
            description="Gravity and jumping with a velocity variable.",
            check="The Frog falls faster and faster, rests on y -100, jumps above y -60 on "
            "space and lands again; every jump reaches the same height.",
            timeout=30,
        ),
    ]
