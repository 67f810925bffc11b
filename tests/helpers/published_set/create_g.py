# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 7: costumes on keys and shooting with clones (own projects).

- create_chameleon_colors: keys a and b change the Chameleon's costume; a click names it.
- create_space_shooter: space makes a Laser clone at the Ship that flies up and disappears.
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    broadcast,
    changevar,
    changex,
    changey,
    clone,
    costume,
    delete_clone,
    flag,
    forever,
    glide,
    go_to,
    goto,
    gt,
    hide,
    if_,
    key_pressed,
    look,
    next_costume,
    on_click,
    on_clone,
    on_key,
    on_message,
    project,
    say,
    setvar,
    show,
    touching,
    until,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec

COLOURS = [("green", "#38b000"), ("red", "#d00000"), ("blue", "#0077b6"), ("yellow", "#ffd000")]


def chameleon(golden: bool) -> ProjectBuilder:
    p = project()
    looks = [look(n, 80, 50, c, bitmap=True, resolution=1) for n, c in COLOURS]
    s = p.add_sprite("Chameleon", looks)
    if golden:
        s.add_script(flag(), goto(0, 0), costume("green"))
        s.add_script(on_key("a"), next_costume())
        s.add_script(on_key("b"), costume("green"))
        s.add_script(on_click(), say(b("looks_costumenumbername", NUMBER_NAME="name"), 1))
    return p


def shooter(golden: bool, enemy: bool = False, hits: bool = False) -> ProjectBuilder:
    """The shooter; `enemy` adds the moving Enemy and `hits` the extend task's scoring."""
    p = project(backdrop("space", "#03071e", bitmap=True))
    ship = p.add_sprite("Ship", [look("ship", 60, 30, "#90e0ef", bitmap=True)], 0, -140)
    ship.add_script(
        flag(),
        goto(0, -140),
        forever(
            if_(key_pressed("left arrow"), changex(-6)),
            if_(key_pressed("right arrow"), changex(6)),
        ),
    )
    laser = p.add_sprite(
        "Laser",
        [look("laser", 6, 20, "#ff006e", bitmap=True, resolution=1)],
        0,
        -140,
        visible=False,
    )
    if enemy:
        foe = p.add_sprite("Enemy", [look("enemy", 80, 40, "#ff5400", bitmap=True)], 0, 120)
        foe.add_script(flag(), goto(-150, 120), forever(glide(2, 150, 120), glide(2, -150, 120)))
    if golden:
        laser.add_script(flag(), hide())
        ship.add_script(on_key("space"), clone("Laser"))
        fly = [changey(10)]
        if hits:
            p.add_variable("score", 0)
            p.add_broadcast("hit")
            laser.add_script(flag(), setvar("score", 0))
            fly.append(
                if_(touching("Enemy"), changevar("score", 1), broadcast("hit"), delete_clone())
            )
            foe.add_script(on_message("hit"), say("Hit!", 0.5))
        laser.add_script(
            on_clone(), go_to("Ship"), show(), until(gt(ypos(), 170), *fly), delete_clone()
        )
    return p


CHAMELEON = [
    Case(
        "the green flag shows the green costume",
        5,
        1.0,
        """
        const c = EU.sprite(vm, 'Chameleon');
        c.setCostume(2);
        await EU.start(vm, 600);
        EU.assert(EU.costume(c) === 'green', `the Chameleon is ${EU.costume(c)} after the flag`);
        """,
    ),
    Case(
        "the a key shows the next colour",
        8,
        3.0,
        """
        const c = EU.sprite(vm, 'Chameleon');
        await EU.start(vm, 400);
        const seen = [];
        for (let i = 0; i < 3; i++) {
          await EU.pressKey(vm, 'a', 100);
          await EU.sleep(500);
          seen.push(EU.costume(c));
        }
        EU.assert(JSON.stringify(seen) === '["red","blue","yellow"]', `a, a, a showed ${seen.join(', ')}`);
        """,
    ),
    Case(
        "after yellow comes green again",
        9,
        4.0,
        """
        const c = EU.sprite(vm, 'Chameleon');
        await EU.start(vm, 400);
        for (let i = 0; i < 4; i++) {
          await EU.pressKey(vm, 'a', 100);
          await EU.sleep(500);
        }
        EU.assert(EU.costume(c) === 'green', `four presses of a end on ${EU.costume(c)}`);
        const still = await EU.sample(1000, 100, () => EU.costume(c));
        EU.assert(still.every((n) => n === 'green'), 'the costume changes without a key press');
        """,
    ),
    Case(
        "the b key goes back to green",
        8,
        3.0,
        """
        const c = EU.sprite(vm, 'Chameleon');
        await EU.start(vm, 400);
        await EU.pressKey(vm, 'a', 100);
        await EU.sleep(400);
        await EU.pressKey(vm, 'a', 100);
        await EU.sleep(400);
        EU.assert(EU.costume(c) === 'blue', `a, a showed ${EU.costume(c)}`);
        await EU.pressKey(vm, 'b', 100);
        await EU.sleep(500);
        EU.assert(EU.costume(c) === 'green', `b showed ${EU.costume(c)}`);
        """,
    ),
    Case(
        "a click says the colour's name for 1 second",
        8,
        3.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 400);
          await EU.pressKey(vm, 'a', 100);
          await EU.sleep(400);
          await EU.clickSprite(vm, 'Chameleon');
          EU.assert(await says.waitFor((t) => t === 'red', 1000), `said ${JSON.stringify(says.texts())}`);
          await EU.sleep(1600);
          EU.assert(EU.bubble(vm, 'Chameleon') === '', 'the name is still shown after 1.6 s');
        } finally { says.stop(); }
        """,
    ),
]

LASER = [
    Case(
        "the Laser hides at the start",
        5,
        1.0,
        """
        const laser = EU.sprite(vm, 'Laser');
        laser.setVisible(true);
        await EU.start(vm, 600);
        EU.assert(!laser.visible, 'the Laser sprite is showing');
        EU.assert(EU.clones(vm, 'Laser').length === 0, 'there are Laser clones before space');
        """,
    ),
    Case(
        "space makes one Laser clone at the Ship",
        7,
        2.0,
        """
        const ship = EU.sprite(vm, 'Ship');
        await EU.start(vm, 400);
        await EU.pressKey(vm, ' ', 80);
        EU.assert(await EU.waitUntil(() => EU.clones(vm, 'Laser').length > 0, 800), 'no Laser clone after space');
        await EU.sleep(100);
        const lasers = EU.clones(vm, 'Laser');
        EU.assert(lasers.length === 1, `one press made ${lasers.length} Laser clones`);
        EU.assert(EU.near(lasers[0].x, ship.x, 1), `the Laser is at x ${lasers[0].x}, the Ship at ${ship.x}`);
        EU.assert(lasers[0].visible, 'the Laser clone is hidden');
        await EU.sleep(1500);
        """,
    ),
    Case(
        "the Laser flies straight up and disappears at the top",
        9,
        4.0,
        """
        await EU.start(vm, 400);
        await EU.pressKey(vm, ' ', 80);
        EU.assert(await EU.waitUntil(() => EU.clones(vm, 'Laser').length > 0, 800), 'no Laser clone after space');
        const laser = EU.clones(vm, 'Laser')[0];
        const path = EU.track(laser);
        const gone = await EU.waitUntil(() => !vm.runtime.targets.includes(laser), 3500);
        path.stop();
        const ys = path.points.map((p) => Math.round(p.y));
        meta.top = Math.max(...ys);
        EU.assert(ys.length > 5 && ys.every((y, i) => i === 0 || y > ys[i - 1]), `the Laser did not fly up: ${ys.slice(0, 8).join(', ')}`);
        EU.assert(new Set(path.points.slice(1).map((p) => Math.round(p.x))).size === 1, 'the Laser drifted sideways');
        EU.assert(gone && meta.top > 150, `the Laser was not deleted at the top (highest y ${meta.top})`);
        """,
    ),
    Case(
        "each press fires from where the Ship is",
        11,
        6.0,
        """
        const ship = EU.sprite(vm, 'Ship');
        let made = [];
        const onCreated = (t) => { if (!t.isOriginal && t.sprite.name === 'Laser') made.push(t); };
        vm.runtime.on('targetWasCreated', onCreated);
        try {
          await EU.start(vm, 400);
          const xs = [];
          for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowLeft']) {
            await EU.holdKey(vm, key, 700);
            await EU.pressKey(vm, ' ', 80);
            await EU.sleep(300);
            xs.push([Math.round(ship.x), made.length ? Math.round(made[made.length - 1].x) : null]);
          }
          meta.ship_and_laser_x = xs;
          EU.assert(made.length === 3, `three presses made ${made.length} Laser clones`);
          EU.assert(xs.every(([s, l]) => l !== null && Math.abs(s - l) <= 1), `ship/laser x: ${JSON.stringify(xs)}`);
          await EU.sleep(3000);
          EU.assert(EU.clones(vm, 'Laser').length === 0, 'Laser clones are left after 3 s');
        } finally { vm.runtime.removeListener('targetWasCreated', onCreated); made = []; }
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_chameleon_colors",
            chameleon,
            CHAMELEON,
            instruction=(
                "The Chameleon has four costumes: green, red, blue and yellow. When the green "
                "flag is clicked it goes to x: 0, y: 0 and switches to green. Pressing the a "
                "key switches to the next costume; pressing the b key switches back to green. "
                "When the Chameleon is clicked, it says the name of its costume for 1 second."
            ),
            description="Change colours with keys and say the colour's name.",
            check="Green after the flag; a steps through red, blue, yellow and back to green; "
            "b goes to green; a click says the costume name for a second.",
            timeout=20,
        ),
        task(
            "create",
            "create_space_shooter",
            shooter,
            LASER,
            instruction=(
                "The Ship already moves with the left and right arrow keys. When the green "
                "flag is clicked, the Laser hides. When the space key is pressed, the Ship "
                "creates a clone of the Laser. When the Laser starts as a clone, it goes to "
                "the Ship, shows, changes y by 10 until its y position is greater than 170, "
                "and then deletes this clone."
            ),
            description="Fire lasers from a ship with clones.",
            check="The Laser hides; each space press makes one visible clone at the Ship that "
            "flies straight up and is deleted at the top.",
            timeout=25,
        ),
    ]
