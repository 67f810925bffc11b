# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Extend tasks, part 4: a working project plus one feature.

- extend_rocket_add_sounds: the rocket countdown; a "beep" each second and "launch" at liftoff.
- extend_chase_add_catch: the ghost chase; catching the Player counts and starts over.
- extend_balloon_add_pop: rising balloons; a click pops one for a point and a new one rises.

The rocket project carries two sounds (WAV tones); scripts watch the sound blocks run.
"""

from __future__ import annotations

from studio.services.core.projectbuild import Block, ProjectBuilder
from tests.helpers.published_set import create_f
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    changevar,
    changey,
    flag,
    forever,
    glide,
    goto,
    gt,
    hide,
    if_,
    look,
    on_click,
    project,
    random,
    repeat,
    say,
    setvar,
    show,
    tone,
    wait,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec, snippet


def play(name: str) -> Block:
    return b("sound_play", SOUND_MENU=name)


def rocket(golden: bool) -> ProjectBuilder:
    p = project(backdrop("launch pad", "#023e8a", bitmap=True))
    p.add_variable("countdown", 5)
    r = p.add_sprite("Rocket", [look("rocket", 40, 90, "#e5e5e5", bitmap=True)], 0, -110)
    r.add_sound(tone("beep", 0.15, hz=880))
    r.add_sound(tone("launch", 0.8, hz=220))
    tick = [wait(1), changevar("countdown", -1)]
    liftoff = [say("Liftoff!", 1), glide(2, 0, 150)]
    if golden:
        tick.insert(0, play("beep"))
        liftoff.insert(0, play("launch"))
    r.add_script(flag(), goto(0, -110), setvar("countdown", 5), repeat(5, *tick), *liftoff)
    return p


def chase(golden: bool) -> ProjectBuilder:
    return create_f.ghost_chase(True, catch=golden)


def balloon(golden: bool) -> ProjectBuilder:
    p = project(backdrop("sky", "#caf0f8", bitmap=True))
    ball = p.add_sprite(
        "Balloon", [look("balloon", 50, 64, "#ef476f", "circle", bitmap=True)], 0, -170
    )
    bottom = goto(random(-200, 200), -170)
    start = [flag(), bottom, show()]
    if golden:
        p.add_variable("score", 0)
        start.insert(1, setvar("score", 0))
        ball.add_script(
            on_click(),
            changevar("score", 1),
            hide(),
            wait(0.5),
            goto(random(-200, 200), -170),
            show(),
        )
    ball.add_script(
        *start, forever(changey(2), if_(gt(ypos(), 170), goto(random(-200, 200), -170)))
    )
    return p


# Spy on the sound blocks: sound.calls lists {sprite, args, at} for each block that ran.
SPY = snippet(
    """
const sounds = EU.spyOpcode(vm, 'sound_play');
const played = (name) => sounds.calls.filter((c) => String(c.args.SOUND_MENU) === name);
"""
)

SOUNDS = [
    Case(
        "the countdown still goes 5 to 0 and says Liftoff!",
        12,
        7.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          const seen = await EU.sample(6000, 100, () => EU.numberVariable(vm, 'countdown'));
          const values = seen.filter((v, i) => i === 0 || v !== seen[i - 1]);
          EU.assert(JSON.stringify(values) === '[5,4,3,2,1,0]', `countdown went ${values.join(', ')}`);
          EU.assert(await says.waitFor((t) => t === 'Liftoff!', 1000), 'no Liftoff!');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "a beep sounds once each second of the countdown",
        11,
        6.0,
        SPY
        + """
        try {
          await EU.start(vm, 0);
          await EU.sleep(6000);
          const beeps = played('beep');
          meta.beeps = beeps.length;
          EU.assert(beeps.length === 5, `${beeps.length} beeps during the countdown (5 expected)`);
          const gaps = beeps.slice(1).map((c, i) => c.at - beeps[i].at);
          EU.assert(gaps.every((g) => g > 750 && g < 1400), `beeps came ${gaps.join(', ')} ms apart`);
        } finally { sounds.stop(); }
        """,
    ),
    Case(
        "the launch sound plays at liftoff",
        12,
        7.0,
        SPY
        + """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          EU.assert(await says.waitFor((t) => t === 'Liftoff!', 7000), 'no Liftoff!');
          const liftoff = says.find((t) => t === 'Liftoff!').at;
          await EU.sleep(500);
          const launch = played('launch');
          EU.assert(launch.length === 1, `the launch sound played ${launch.length} times`);
          EU.assert(Math.abs(launch[0].at - liftoff) < 400, 'the launch sound did not come with Liftoff!');
          EU.assert(played('beep').every((c) => c.at < launch[0].at), 'a beep came after the launch');
        } finally { sounds.stop(); says.stop(); }
        """,
    ),
    Case(
        "the Rocket still flies up after liftoff",
        14,
        9.0,
        """
        const r = EU.sprite(vm, 'Rocket');
        await EU.start(vm, 0);
        await EU.sleep(5500);
        EU.assert(EU.near(r.y, -110, 0.5), `the Rocket left before liftoff (y ${r.y})`);
        EU.assert(await EU.waitUntil(() => r.y > 140, 4000), `the Rocket only reached y ${Math.round(r.y)}`);
        """,
    ),
    Case(
        "a new green flag starts the countdown and the beeps again",
        16,
        9.5,
        SPY
        + """
        const r = EU.sprite(vm, 'Rocket');
        try {
          await EU.start(vm, 2500);
          const before = played('beep').length;
          await EU.start(vm, 0);
          EU.assert(EU.numberVariable(vm, 'countdown') === 5, 'the second green flag did not reset the countdown');
          EU.assert(EU.near(r.y, -110, 0.5), 'the Rocket did not go back to the launch pad');
          await EU.sleep(9000);
          meta.beeps_after_restart = played('beep').length - before;
          EU.assert(meta.beeps_after_restart === 5, `${meta.beeps_after_restart} beeps after the restart`);
          EU.assert(played('launch').length === 1 && r.y > 140, 'the restarted countdown did not launch the Rocket');
        } finally { sounds.stop(); }
        """,
    ),
]

CATCH = [
    Case(
        "caught starts at 0",
        5,
        0.5,
        """
        EU.setVariable(vm, 'caught', 9);
        await EU.start(vm, 100);
        EU.assert(EU.numberVariable(vm, 'caught') === 0, `caught is ${EU.variable(vm, 'caught')} after the flag`);
        """,
    ),
    Case(
        "catching the Player counts 1 and both start over",
        8,
        3.0,
        """
        const ghost = EU.sprite(vm, 'Ghost');
        const player = EU.sprite(vm, 'Player');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'caught') >= 1, 3000, 20), 'the Ghost never caught the Player');
          EU.assert(await says.waitFor((t, e) => t === 'Caught!' && e.sprite === 'Player', 500), 'the Player did not say Caught!');
          EU.assert(EU.near(player.x, -150, 0.5) && EU.near(player.y, -100, 0.5), `the Player is at (${Math.round(player.x)}, ${Math.round(player.y)}) after the catch`);
          EU.assert(EU.distance(ghost, { x: 200, y: 150 }) < 100, 'the Ghost did not go back to the top right');
          await EU.sleep(300);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "every catch counts once",
        12,
        7.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(7000);
          const caught = EU.numberVariable(vm, 'caught');
          const told = says.texts('Player').filter((t) => t === 'Caught!').length;
          meta.caught = caught;
          EU.assert(caught >= 3, `only ${caught} catches in 7 s`);
          EU.assert(Math.abs(caught - told) <= 1, `caught is ${caught} but the Player said Caught! ${told} times`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "the Player still moves with the arrow keys",
        8,
        3.0,
        """
        const player = EU.sprite(vm, 'Player');
        await EU.start(vm, 200);
        vm.runtime.stopForTarget(EU.sprite(vm, 'Ghost'));
        await EU.sleep(300);
        const y0 = player.y;
        await EU.holdKey(vm, 'ArrowUp', 1000);
        EU.assert(player.y - y0 > 40, `holding up for 1 s moved the Player by ${Math.round(player.y - y0)}`);
        const x0 = player.x;
        await EU.holdKey(vm, 'ArrowRight', 1000);
        EU.assert(player.x - x0 > 40, `holding right for 1 s moved the Player by ${Math.round(player.x - x0)}`);
        """,
    ),
]

POP = [
    Case(
        "the Balloon rises from the bottom",
        8,
        3.0,
        """
        const ball = EU.sprite(vm, 'Balloon');
        await EU.start(vm, 100);
        const ys = await EU.sample(2500, 100, () => ball.y);
        EU.assert(ys[0] < -100, `the Balloon started at y ${Math.round(ys[0])}`);
        EU.assert(ys[ys.length - 1] - ys[0] > 40 && ball.visible, 'the Balloon does not rise');
        """,
    ),
    Case(
        "clicking the Balloon pops it for a point",
        8,
        2.5,
        """
        const ball = EU.sprite(vm, 'Balloon');
        EU.setVariable(vm, 'score', 5);
        await EU.start(vm, 800);
        EU.assert(EU.numberVariable(vm, 'score') === 0, 'score does not start at 0');
        await EU.clickSprite(vm, 'Balloon');
        await EU.sleep(150);
        EU.assert(!ball.visible, 'the Balloon is still showing after the click');
        EU.assert(EU.numberVariable(vm, 'score') === 1, `score is ${EU.variable(vm, 'score')} after one pop`);
        await EU.sleep(1500);
        """,
    ),
    Case(
        "a new Balloon rises from the bottom half a second later",
        8,
        3.0,
        """
        const ball = EU.sprite(vm, 'Balloon');
        await EU.start(vm, 1200);
        await EU.clickSprite(vm, 'Balloon');
        const t0 = Date.now();
        EU.assert(await EU.waitUntil(() => ball.visible, 1500, 20), 'the Balloon never came back');
        meta.back_ms = Date.now() - t0;
        EU.assert(meta.back_ms > 300 && meta.back_ms < 1000, `the Balloon came back after ${meta.back_ms} ms`);
        EU.assert(ball.y < -120, `the new Balloon is at y ${Math.round(ball.y)}, not at the bottom`);
        await EU.sleep(1000);
        """,
    ),
    Case(
        "clicking the sky scores nothing",
        8,
        3.5,
        """
        const ball = EU.sprite(vm, 'Balloon');
        await EU.start(vm, 500);
        for (let i = 0; i < 3; i++) {
          const x = ball.x > 0 ? -200 : 200;
          await EU.click(vm, x, 150);
          await EU.sleep(800);
        }
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} without a pop`);
        EU.assert(ball.visible, 'the Balloon disappeared without a click on it');
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "extend",
            "extend_rocket_add_sounds",
            rocket,
            SOUNDS,
            instruction=(
                "The Rocket counts down from 5 (the variable countdown), says 'Liftoff!' and "
                "glides up. Add sound: at each step of the countdown, before waiting, start the "
                "sound 'beep'; at liftoff, start the sound 'launch' (use 'start sound', both "
                "sounds are already in the Rocket)."
            ),
            description="Add sound effects to a rocket countdown.",
            check="The countdown and the flight still work; five beeps about a second apart, "
            "then one launch sound at Liftoff!.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_chase_add_catch",
            chase,
            CATCH,
            instruction=(
                "The Ghost chases the Player. Make catching count: set a variable caught to 0 "
                "when the green flag is clicked; when the Ghost touches the Player, change "
                "caught by 1, broadcast 'caught' and go back to x: 200, y: 150. When the "
                "Player receives 'caught' it goes back to x: -150, y: -100 and says 'Caught!' "
                "for 1 second."
            ),
            description="Count the catches in a chase game.",
            check="caught starts at 0; each catch counts once, sends both back to their "
            "corners and the Player says Caught!; the Player's keys still work.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_balloon_add_pop",
            balloon,
            POP,
            instruction=(
                "The Balloon rises from the bottom and starts again when it reaches the top. "
                "Add popping: set a variable score to 0 when the green flag is clicked. When "
                "the Balloon is clicked, change score by 1, hide, wait 0.5 seconds, go to a "
                "random x between -200 and 200 at y: -170 and show again."
            ),
            description="Pop rising balloons with the mouse.",
            check="The Balloon still rises; a click hides it and scores 1; it comes back at "
            "the bottom about 0.5 s later; clicks on the sky score nothing.",
            timeout=20,
        ),
    ]
