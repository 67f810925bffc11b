# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Extend tasks, part 5: a working project plus one feature.

- extend_dance_add_party: the Dancer dances; clicking the DJ starts a 3-second party (disco
  backdrop, faster dancing). This task has no golden project.
- extend_spaceship_add_boost: the Spaceship flies up and down; holding b boosts it.
- extend_pet_add_feeding: the Pet gets hungry; clicking the Food feeds it (a "chomp" sound).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder, Var
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    broadcast,
    changevar,
    changey,
    costume,
    flag,
    forever,
    goto,
    gt,
    if_,
    if_else,
    key_pressed,
    look,
    lt,
    next_costume,
    on_click,
    on_message,
    project,
    repeat,
    say,
    setvar,
    switch_backdrop,
    tone,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def dance(golden: bool) -> ProjectBuilder:
    p = project(
        backdrop("stage", "#ffe5ec", bitmap=True), backdrop("disco", "#7209b7", bitmap=True)
    )
    moves = [look(f"move{i}", 50, 80 + 6 * i, "#f72585", bitmap=True) for i in (1, 2, 3)]
    dancer = p.add_sprite("Dancer", moves, -60, -40)
    dj = p.add_sprite("DJ", [look("dj", 70, 50, "#3a0ca3", bitmap=True, resolution=1)], 150, -120)
    p.stage.add_script(flag(), switch_backdrop("stage"))
    dancer.add_script(flag(), forever(next_costume(), wait(0.5)))
    if golden:
        p.add_broadcast("party")
        dj.add_script(on_click(), broadcast("party"))
        p.stage.add_script(
            on_message("party"), switch_backdrop("disco"), wait(3), switch_backdrop("stage")
        )
        dancer.add_script(on_message("party"), repeat(30, next_costume(), wait(0.1)))
    return p


def spaceship(golden: bool) -> ProjectBuilder:
    p = project(backdrop("space", "#000814", bitmap=True))
    ship = p.add_sprite(
        "Spaceship",
        [
            look("normal", 50, 40, "#adb5bd", bitmap=True),
            look("boost", 50, 56, "#ff7b00", bitmap=True),
        ],
        -150,
        -100,
    )
    p.add_variable("speed", 4)
    loop = [
        if_(key_pressed("up arrow"), changey(Var("speed"))),
        if_(key_pressed("down arrow"), changey(b("operator_subtract", NUM1=0, NUM2=Var("speed")))),
    ]
    if golden:
        boost = [costume("boost"), setvar("speed", 10)]
        loop.insert(0, if_else(key_pressed("b"), boost, [costume("normal"), setvar("speed", 4)]))
    ship.add_script(flag(), goto(-150, -100), costume("normal"), setvar("speed", 4), forever(*loop))
    return p


def pet(golden: bool) -> ProjectBuilder:
    p = project(backdrop("room", "#fff1e6", bitmap=True))
    p.add_variable("hunger", 0)
    cat = p.add_sprite("Pet", [look("pet", 80, 70, "#f4a261", bitmap=True, resolution=1)], -80, -60)
    food = p.add_sprite("Food", [look("food", 40, 30, "#6a994e", bitmap=True)], 140, -120)
    food.add_sound(tone("chomp", 0.2, hz=330))
    hungry = if_(gt(Var("hunger"), 5), say("I'm hungry!", 0.8))
    cat.add_script(flag(), setvar("hunger", 0), forever(wait(1), changevar("hunger", 1), hungry))
    if golden:
        p.add_broadcast("fed")
        food.add_script(
            on_click(),
            b("sound_play", SOUND_MENU="chomp"),
            changevar("hunger", -3),
            if_(lt(Var("hunger"), 0), setvar("hunger", 0)),
            broadcast("fed"),
        )
        cat.add_script(on_message("fed"), say("Yum!", 1))
    return p


PARTY = [
    Case(
        "the Dancer dances slowly before the party",
        9,
        4.0,
        """
        const dancer = EU.sprite(vm, 'Dancer');
        await EU.start(vm, 100);
        const names = await EU.sample(4000, 50, () => EU.costume(dancer));
        const changes = names.filter((n, i) => i > 0 && n !== names[i - 1]).length;
        meta.changes = changes;
        EU.assert(changes >= 5 && changes <= 10, `${changes} moves in 4 s before the party (about 8 expected)`);
        EU.assert(EU.backdrop(vm) === 'stage', `the backdrop is ${EU.backdrop(vm)} before the party`);
        """,
    ),
    Case(
        "clicking the DJ starts the party with the disco backdrop",
        8,
        2.0,
        """
        const messages = EU.recordBroadcasts(vm);
        try {
          await EU.start(vm, 500);
          await EU.clickSprite(vm, 'DJ');
          EU.assert(await EU.waitUntil(() => EU.backdrop(vm) === 'disco', 800), `the backdrop is ${EU.backdrop(vm)} after clicking the DJ`);
          EU.assert(messages.messages().includes('party'), `broadcasts: ${JSON.stringify(messages.messages())}`);
          await EU.sleep(1000);
        } finally { messages.stop(); }
        """,
    ),
    Case(
        "the Dancer dances fast during the party",
        8,
        3.0,
        """
        const dancer = EU.sprite(vm, 'Dancer');
        await EU.start(vm, 500);
        await EU.clickSprite(vm, 'DJ');
        await EU.sleep(200);
        const names = await EU.sample(2000, 25, () => EU.costume(dancer));
        const changes = names.filter((n, i) => i > 0 && n !== names[i - 1]).length;
        meta.changes = changes;
        EU.assert(changes >= 12, `only ${changes} moves in 2 s of party (about 20 expected)`);
        """,
    ),
    Case(
        "the party ends after about 3 seconds",
        11,
        6.0,
        """
        await EU.start(vm, 500);
        await EU.clickSprite(vm, 'DJ');
        const t0 = Date.now();
        EU.assert(await EU.waitUntil(() => EU.backdrop(vm) === 'disco', 800), 'no disco backdrop');
        EU.assert(await EU.waitUntil(() => EU.backdrop(vm) === 'stage', 5000), 'the party never ended');
        meta.party_ms = Date.now() - t0;
        EU.assert(meta.party_ms > 2500 && meta.party_ms < 4000, `the party lasted ${meta.party_ms} ms`);
        const after = await EU.sample(1500, 100, () => EU.backdrop(vm));
        EU.assert(after.every((n) => n === 'stage'), 'the disco came back without a click');
        """,
    ),
]

BOOST = [
    Case(
        "the arrows still fly the Spaceship at normal speed",
        8,
        3.0,
        """
        const ship = EU.sprite(vm, 'Spaceship');
        await EU.start(vm, 300);
        await EU.holdKey(vm, 'ArrowUp', 1000);
        EU.assert(ship.y > -70, `holding up moved the Spaceship to y ${Math.round(ship.y)}`);
        const y = ship.y;
        await EU.holdKey(vm, 'ArrowDown', 800);
        EU.assert(ship.y < y - 20, 'the down arrow does not move the Spaceship down');
        EU.assert(EU.costume(ship) === 'normal', `the costume is ${EU.costume(ship)} without b`);
        """,
    ),
    Case(
        "holding b makes it fly more than twice as fast",
        11,
        5.0,
        """
        const ship = EU.sprite(vm, 'Spaceship');
        await EU.start(vm, 300);
        // the median step per frame while flying up, with or without b
        const stepUp = async (withB) => {
          const path = EU.track(ship);
          if (withB) EU.keyDown(vm, 'b');
          await EU.holdKey(vm, 'ArrowUp', 700);
          if (withB) EU.keyUp(vm, 'b');
          path.stop();
          const steps = path.points.slice(1).map((p, i) => Math.round(p.y - path.points[i].y)).filter((d) => d > 0);
          steps.sort((a, c) => a - c);
          return steps.length ? steps[Math.floor(steps.length / 2)] : 0;
        };
        meta.slow = await stepUp(false);
        ship.setXY(-150, -100);
        await EU.sleep(200);
        meta.fast = await stepUp(true);
        EU.assert(meta.slow > 0, 'without b the Spaceship does not fly up');
        EU.assert(meta.fast >= 2 * meta.slow, `with b it flies ${meta.fast} per frame, without b ${meta.slow}`);
        await EU.sleep(2500);
        """,
    ),
    Case(
        "the boost costume shows only while b is held",
        9,
        4.0,
        """
        const ship = EU.sprite(vm, 'Spaceship');
        await EU.start(vm, 300);
        EU.keyDown(vm, 'b');
        await EU.sleep(600);
        const during = EU.costume(ship);
        EU.keyUp(vm, 'b');
        await EU.sleep(600);
        EU.assert(during === 'boost', `while b is held the costume is ${during}`);
        EU.assert(EU.costume(ship) === 'normal', `after b the costume is ${EU.costume(ship)}`);
        const names = await EU.sample(2000, 100, () => EU.costume(ship));
        EU.assert(names.every((n) => n === 'normal'), 'the costume flickers without b');
        """,
    ),
    Case(
        "b alone does not move the Spaceship",
        7,
        2.0,
        """
        const ship = EU.sprite(vm, 'Spaceship');
        await EU.start(vm, 300);
        await EU.holdKey(vm, 'b', 1500);
        await EU.sleep(200);
        EU.assert(EU.near(ship.y, -100, 0.5) && EU.near(ship.x, -150, 0.5), `b alone moved the Spaceship to (${ship.x}, ${ship.y})`);
        """,
    ),
]

FEED = [
    Case(
        "hunger still grows once a second",
        10,
        5.0,
        """
        await EU.start(vm, 0);
        const seen = await EU.sample(5000, 100, () => EU.numberVariable(vm, 'hunger'));
        const values = seen.filter((v, i) => i === 0 || v !== seen[i - 1]);
        EU.assert(values.every((v, i) => v === i) && values.length >= 5, `hunger went ${values.join(', ')}`);
        """,
    ),
    Case(
        "feeding lowers hunger by 3 and the Pet says Yum!",
        8,
        3.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 300);
          EU.setVariable(vm, 'hunger', 8);
          await EU.clickSprite(vm, 'Food');
          EU.assert(await says.waitFor((t, e) => t === 'Yum!' && e.sprite === 'Pet', 1000), `said ${JSON.stringify(says.texts())}`);
          const h = EU.numberVariable(vm, 'hunger');
          EU.assert(h === 5 || h === 6, `hunger is ${h} after feeding at 8`);
          await EU.sleep(1500);
          EU.assert(EU.bubble(vm, 'Pet') !== 'Yum!', 'Yum! stayed too long');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "hunger never goes below 0",
        8,
        3.0,
        """
        await EU.start(vm, 300);
        EU.setVariable(vm, 'hunger', 1);
        await EU.clickSprite(vm, 'Food');
        await EU.sleep(300);
        EU.assert(EU.numberVariable(vm, 'hunger') === 0, `hunger is ${EU.variable(vm, 'hunger')} after feeding at 1`);
        await EU.clickSprite(vm, 'Food');
        await EU.sleep(300);
        EU.assert(EU.numberVariable(vm, 'hunger') >= 0, 'hunger went below 0');
        await EU.sleep(1500);
        """,
    ),
    Case(
        "the Food makes a chomp sound",
        7,
        2.0,
        """
        const sounds = EU.spyOpcode(vm, 'sound_play');
        try {
          await EU.start(vm, 300);
          await EU.clickSprite(vm, 'Food');
          await EU.sleep(500);
          const chomps = sounds.calls.filter((c) => c.args.SOUND_MENU === 'chomp' && c.sprite === 'Food');
          EU.assert(chomps.length === 1, `${chomps.length} chomp sounds for one click`);
          await EU.sleep(1000);
        } finally { sounds.stop(); }
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "extend",
            "extend_dance_add_party",
            dance,
            PARTY,
            instruction=(
                "The Dancer dances (next costume every 0.5 seconds). Add a party: when the DJ "
                "is clicked it broadcasts 'party'. When the stage receives 'party' it switches "
                "to the backdrop 'disco', waits 3 seconds and switches back to 'stage'. When "
                "the Dancer receives 'party' it does next costume and waits 0.1 seconds, 30 "
                "times."
            ),
            description="Start a short dance party with a click and a broadcast.",
            check="Slow dancing before; a click on the DJ broadcasts party, shows the disco "
            "backdrop, speeds the Dancer up and ends after about 3 s.",
            timeout=20,
            golden=False,
        ),
        task(
            "extend",
            "extend_spaceship_add_boost",
            spaceship,
            BOOST,
            instruction=(
                "The Spaceship flies up and down with the arrow keys at the speed in the "
                "variable speed (4). Add a boost: forever, if the b key is pressed switch to "
                "the costume 'boost' and set speed to 10, otherwise switch to 'normal' and set "
                "speed to 4."
            ),
            description="Add a boost key to a spaceship.",
            check="The arrows still fly at normal speed; with b held it flies 10 per frame "
            "in the boost costume; b alone does not move it.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_pet_add_feeding",
            pet,
            FEED,
            instruction=(
                "The Pet's hunger goes up by 1 every second. Add feeding: when the Food is "
                "clicked it starts the sound 'chomp', changes hunger by -3 (if hunger is then "
                "below 0, set it to 0) and broadcasts 'fed'. When the Pet receives 'fed' it "
                "says 'Yum!' for 1 second."
            ),
            description="Feed a virtual pet with a click.",
            check="Hunger still grows once a second; a click on the Food lowers it by 3 but "
            "never below 0, plays chomp and the Pet says Yum!.",
            timeout=20,
        ),
    ]
