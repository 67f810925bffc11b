# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Debug family "flappy_bird": a flappy game with gravity, one injected bug per task.

The working game (flappy_bird_golden.sb3): the Bird starts at (-100, 0) with vy 0; every frame
vy goes down by 1 and y changes by vy; space sets vy to 9 (a flap). Touching the Pipe or going
below y -165 broadcasts "crash" and stops the Bird; on "crash" the Bird says "Ouch!" and the
Pipe stops. The Pipe (a low block, its top at y -60) moves left 6 steps per frame and comes
back at the right edge when it is past x -230.

Bugs: gravity_sign (vy goes up by 1: the Bird flies away), jump_key (the flap listens to the
up arrow), velocity_not_reset (vy keeps its old value at the start).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder, Var
from tests.helpers.published_set.common import debug_family
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    broadcast,
    changevar,
    changex,
    changey,
    flag,
    forever,
    goto,
    if_,
    look,
    lt,
    on_key,
    on_message,
    op,
    project,
    say,
    setvar,
    setx,
    stop,
    touching,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec, snippet

FAMILY = "flappy_bird"


def flappy(bug: str | None, score: bool = False) -> ProjectBuilder:
    """The game with `bug`; `score` adds the score of the extend task (+1 per returning Pipe)."""
    p = project(backdrop("sky", "#a2d2ff", bitmap=True))
    p.add_broadcast("crash")
    bird = p.add_sprite(
        "Bird", [look("bird", 34, 26, "#fb8500", bitmap=True, resolution=1)], -100, 0
    )
    pipe = p.add_sprite("Pipe", [look("pipe", 40, 200, "#38b000", bitmap=True)], 240, -160)
    bird.add_variable("vy", 0)
    start = [flag(), goto(-100, 0)]
    if bug != "velocity_not_reset":
        start.append(setvar("vy", 0))
    crashed = op("or", touching("Pipe"), lt(ypos(), -165))
    bird.add_script(
        *start,
        forever(
            changevar("vy", 1 if bug == "gravity_sign" else -1),
            changey(Var("vy")),
            if_(crashed, broadcast("crash"), stop("this script")),
        ),
    )
    bird.add_script(on_key("up arrow" if bug == "jump_key" else "space"), setvar("vy", 9))
    bird.add_script(on_message("crash"), say("Ouch!"))
    back = [setx(240)]
    start = [flag(), goto(240, -160)]
    if score:
        p.add_variable("score", 0)
        back.append(changevar("score", 1))
        start.append(setvar("score", 0))
    pipe.add_script(*start, forever(changex(-6), if_(lt(b("motion_xposition"), -230), *back)))
    pipe.add_script(on_message("crash"), stop("other scripts in sprite"))
    return p


# Press space every 350 ms while `ms` pass (keeps the Bird in the air).
FLAP = snippet(
    """
const flapFor = async (ms) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await EU.pressKey(vm, ' ', 60);
    await EU.sleep(290);
  }
};
"""
)

CASES = {
    "fall": Case(
        "the Bird starts at (-100, 0) and falls",
        6,
        1.5,
        """
        const bird = EU.sprite(vm, 'Bird');
        EU.setVariable(vm, 'vy', 30);
        bird.setXY(50, 100);
        const path = EU.track(bird);
        try {
          await EU.start(vm, 1200);
        } finally { path.stop(); }
        const at = path.points.findIndex((p) => EU.near(p.x, -100, 0.5) && EU.near(p.y, 0, 0.5));
        EU.assert(at >= 0, 'the Bird never went to (-100, 0)');
        const ys = path.points.slice(at).map((p) => Math.round(p.y));
        meta.ys = ys.slice(0, 6);
        EU.assert(Math.max(...ys) <= 0, `the Bird went up to y ${Math.max(...ys)} without a flap`);
        EU.assert(ys[ys.length - 1] < -20, `the Bird did not fall (y ${ys[ys.length - 1]})`);
        """,
    ),
    "flap": Case(
        "flapping with space keeps the Bird in the air",
        10,
        5.0,
        FLAP
        + """
        const bird = EU.sprite(vm, 'Bird');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 100);
          const low = [];
          const watch = setInterval(() => low.push(bird.y), 100);
          await flapFor(4500);
          clearInterval(watch);
          meta.lowest = Math.round(Math.min(...low));
          EU.assert(!says.find((t) => t === 'Ouch!'), 'the Bird crashed while flapping');
          EU.assert(meta.lowest > -60, `the Bird sank to y ${meta.lowest} while flapping`);
          EU.assert(bird.y > 40, `after flapping the Bird is only at y ${Math.round(bird.y)}`);
        } finally { says.stop(); }
        """,
    ),
    "crash": Case(
        "without flapping the Bird crashes and stops",
        8,
        2.5,
        """
        const bird = EU.sprite(vm, 'Bird');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          EU.assert(await says.waitFor((t, e) => t === 'Ouch!' && e.sprite === 'Bird', 3000), `no Ouch! (the Bird is at y ${Math.round(bird.y)})`);
          const ys = await EU.sample(1000, 100, () => Math.round(bird.y));
          EU.assert(new Set(ys).size === 1 && ys[0] >= -180, `the Bird keeps moving after the crash: ${ys.join(', ')}`);
          await EU.pressKey(vm, ' ', 80);
          await EU.sleep(400);
          EU.assert(Math.round(bird.y) === ys[0], 'the Bird still flaps after the crash');
        } finally { says.stop(); }
        """,
    ),
    "pipe_stops": Case(
        "a crash stops the Pipe",
        8,
        2.5,
        """
        const bird = EU.sprite(vm, 'Bird');
        const pipe = EU.sprite(vm, 'Pipe');
        await EU.start(vm, 0);
        EU.assert(await EU.waitUntil(() => EU.bubble(vm, 'Bird') === 'Ouch!', 3000), 'the Bird never crashed');
        const xs = await EU.sample(1500, 100, () => Math.round(pipe.x));
        EU.assert(new Set(xs).size === 1, `the Pipe keeps moving after the crash: ${xs.slice(0, 5).join(', ')}`);
        EU.assert(bird.y < -150 || EU.touching(vm, 'Bird', 'Pipe'), 'the crash happened in mid-air');
        """,
    ),
    "pipe": Case(
        "the Pipe moves left and comes back on the right",
        14,
        8.0,
        FLAP
        + """
        const pipe = EU.sprite(vm, 'Pipe');
        await EU.start(vm, 100);
        const xs = [];
        const watch = setInterval(() => xs.push(Math.round(pipe.x)), 100);
        await flapFor(8000);
        clearInterval(watch);
        const jumps = xs.filter((x, i) => i > 0 && x - xs[i - 1] > 200).length;
        const steps = xs.filter((x, i) => i > 0 && x < xs[i - 1]).length;
        meta.jumps = jumps;
        EU.assert(steps > xs.length / 2, 'the Pipe does not move left');
        EU.assert(jumps >= 1, `the Pipe never came back on the right (x went ${xs.slice(0, 6).join(', ')} ...)`);
        """,
    ),
}

GAME = (
    "In this flappy game the Bird starts at x: -100, y: 0 with its variable vy set to 0. "
    "Forever, vy changes by -1 and the Bird changes y by vy; pressing space sets vy to 9 (a "
    "flap). If the Bird touches the Pipe or falls below y -165, it broadcasts 'crash' and "
    "stops: it says 'Ouch!' and the Pipe stops. The Pipe moves left 6 steps at a time and "
    "starts again at the right edge."
)
BUGS = [
    (
        "gravity_sign",
        "The Bird flies up to the sky by itself instead of falling.",
        ["fall", "crash", "flap", "pipe"],
    ),
    (
        "jump_key",
        "Pressing space does not make the Bird flap.",
        ["flap", "fall", "crash", "pipe_stops"],
    ),
    (
        "velocity_not_reset",
        "When the game is played again, the Bird sometimes shoots up at the start.",
        ["fall", "flap", "crash", "pipe_stops"],
    ),
]


def tasks() -> list[TaskSpec]:
    return debug_family(
        FAMILY,
        GAME,
        "Flappy game",
        flappy,
        CASES,
        BUGS,
        check="The Bird falls from (-100, 0), stays up while flapping, crashes without "
        "flapping (Ouch!, everything stops) and the Pipe keeps coming back.",
        timeout=25,
    )
