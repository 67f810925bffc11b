# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Debug family "star_shooter": shoot falling stars with clones, one injected bug per task.

The working game (star_shooter_golden.sb3): the Rocket moves with the left and right arrows
and space makes a clone of the Bullet, which goes to the Rocket, shows, flies up 12 steps per
frame until y > 170 and deletes itself. The Star hides and makes a clone every 0.5 s; a Star
clone starts at a random x at the top and falls 3 steps per frame until y < -170; hit by a
Bullet it adds 1 to score and deletes itself; at the bottom it deletes itself too.

Bugs: bullet_not_deleted (bullets stay at the top), spawn_wait_removed (a Star clone every
frame), bullet_wrong_direction (bullets fly down), original_star_visible (no hide for the
Star sprite itself).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import debug_family
from tests.helpers.published_set.kit import (
    backdrop,
    changevar,
    changex,
    changey,
    clone,
    delete_clone,
    flag,
    forever,
    go_to,
    goto,
    gt,
    hide,
    if_,
    key_pressed,
    look,
    lt,
    on_clone,
    on_key,
    project,
    random,
    setvar,
    show,
    touching,
    until,
    wait,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec, snippet

FAMILY = "star_shooter"


def shooter(bug: str | None) -> ProjectBuilder:
    p = project(backdrop("night sky", "#10002b", bitmap=True))
    p.add_variable("score", 0)
    rocket = p.add_sprite("Rocket", [look("rocket", 40, 50, "#e0aaff", bitmap=True)], 0, -150)
    bullet = p.add_sprite(
        "Bullet", [look("bullet", 8, 16, "#ffea00", bitmap=True, resolution=1)], 0, -150
    )
    star = p.add_sprite(
        "Star", [look("star", 36, 36, "#fcbf49", "circle", bitmap=True, resolution=1)], 0, 170
    )
    rocket.add_script(
        flag(),
        goto(0, -150),
        forever(
            if_(key_pressed("left arrow"), changex(-8)),
            if_(key_pressed("right arrow"), changex(8)),
        ),
    )
    rocket.add_script(on_key("space"), clone("Bullet"))
    bullet.add_script(flag(), hide())
    fly = changey(-12 if bug == "bullet_wrong_direction" else 12)
    bullet_clone = [on_clone(), go_to("Rocket"), show(), until(gt(ypos(), 170), fly)]
    if bug != "bullet_not_deleted":
        bullet_clone.append(delete_clone())
    bullet.add_script(*bullet_clone)
    spawn = [clone()] if bug == "spawn_wait_removed" else [clone(), wait(0.5)]
    start = [flag()] if bug == "original_star_visible" else [flag(), hide()]
    star.add_script(*start, setvar("score", 0), forever(*spawn))
    star.add_script(
        on_clone(),
        goto(random(-200, 200), 170),
        show(),
        until(
            lt(ypos(), -170),
            changey(-3),
            if_(touching("Bullet"), changevar("score", 1), delete_clone()),
        ),
        delete_clone(),
    )
    return p


# Count the clones of `name` made from now on: {made(), stop()}.
WATCH = snippet(
    """
const watchClones = (name) => {
  const made = [];
  const onCreated = (t) => { if (!t.isOriginal && t.sprite.name === name) made.push(t); };
  vm.runtime.on('targetWasCreated', onCreated);
  return { made, stop: () => vm.runtime.removeListener('targetWasCreated', onCreated) };
};
"""
)

CASES = {
    "hidden": Case(
        "the Star and Bullet sprites themselves stay hidden",
        6,
        1.5,
        """
        const star = EU.sprite(vm, 'Star');
        const bullet = EU.sprite(vm, 'Bullet');
        star.setVisible(true);
        bullet.setVisible(true);
        await EU.start(vm, 1500);
        EU.assert(!star.visible, 'the Star sprite itself is showing');
        EU.assert(!bullet.visible, 'the Bullet sprite itself is showing');
        """,
    ),
    "stars": Case(
        "stars fall from the top about twice a second",
        10,
        5.0,
        WATCH
        + """
        const stars = watchClones('Star');
        try {
          await EU.start(vm, 0);
          await EU.sleep(1000);
          const first = stars.made[stars.made.length - 1];  // the newest star
          EU.assert(first, 'no Star clone after 1 s');
          const y0 = first.y;
          await EU.sleep(4000);
          meta.made = stars.made.length;
          EU.assert(meta.made >= 6 && meta.made <= 14, `${meta.made} stars in 5 s (about 10 expected)`);
          const fell = first.y < y0 - 60 || !vm.runtime.targets.includes(first);
          EU.assert(y0 > 100 && fell, `a new star at y ${Math.round(y0)} did not fall (now at y ${Math.round(first.y)})`);
        } finally { stars.stop(); }
        """,
    ),
    "fire": Case(
        "space fires a Bullet that flies up and is deleted at the top",
        9,
        3.5,
        """
        const rocket = EU.sprite(vm, 'Rocket');
        await EU.start(vm, 300);
        await EU.pressKey(vm, ' ', 80);
        EU.assert(await EU.waitUntil(() => EU.clones(vm, 'Bullet').length > 0, 800), 'no Bullet clone after space');
        const bullet = EU.clones(vm, 'Bullet')[0];
        EU.assert(EU.near(bullet.x, rocket.x, 1) && bullet.visible, 'the Bullet does not start visible at the Rocket');
        const path = EU.track(bullet);
        const gone = await EU.waitUntil(() => !vm.runtime.targets.includes(bullet), 3000);
        path.stop();
        const ys = path.points.map((p) => Math.round(p.y));
        EU.assert(ys.length > 3 && ys.every((y, i) => i === 0 || y > ys[i - 1]), `the Bullet did not fly up: ${ys.slice(0, 8).join(', ')}`);
        EU.assert(gone, `the Bullet was not deleted (it is at y ${Math.round(bullet.y)})`);
        """,
    ),
    "pile": Case(
        "bullets do not pile up",
        10,
        5.0,
        """
        await EU.start(vm, 300);
        for (let i = 0; i < 4; i++) {
          await EU.pressKey(vm, ' ', 80);
          await EU.sleep(400);
        }
        EU.assert(EU.clones(vm, 'Bullet').length <= 4, `${EU.clones(vm, 'Bullet').length} Bullet clones after 4 shots`);
        await EU.sleep(3000);
        meta.left = EU.clones(vm, 'Bullet').length;
        EU.assert(meta.left === 0, `${meta.left} Bullet clones are still there 3 s after the last shot`);
        """,
    ),
    "hit": Case(
        "hitting a star scores a point",
        9,
        3.5,
        """
        const rocket = EU.sprite(vm, 'Rocket');
        await EU.start(vm, 1200);
        const star = EU.clones(vm, 'Star').find((s) => s.y > 0);
        EU.assert(star, 'no falling star to shoot at');
        star.setXY(rocket.x, 40);
        const before = EU.numberVariable(vm, 'score');
        await EU.pressKey(vm, ' ', 80);
        EU.assert(await EU.waitUntil(() => EU.numberVariable(vm, 'score') > before, 2000, 20), 'no point for a hit');
        await EU.sleep(100);
        EU.assert(!vm.runtime.targets.includes(star), 'the star that was hit is still there');
        await EU.sleep(1500);
        """,
    ),
    "flood": Case(
        "the number of stars stays small",
        11,
        6.0,
        """
        await EU.start(vm, 0);
        const counts = await EU.sample(6000, 200, () => EU.clones(vm, 'Star').length);
        meta.most = Math.max(...counts);
        EU.assert(meta.most >= 3, `only ${meta.most} stars at once`);
        EU.assert(meta.most <= 40, `${meta.most} stars at once: far too many`);
        """,
    ),
}

GAME = (
    "In this shooting game the Rocket moves with the left and right arrow keys and the space "
    "key makes a clone of the Bullet, which goes to the Rocket, shows, flies up 12 steps at a "
    "time until its y is above 170 and then deletes itself. The Star sprite hides and makes a "
    "clone of itself every 0.5 seconds; each Star clone starts at a random x at the top and "
    "falls 3 steps at a time; when a Bullet hits it, score goes up by 1 and it deletes itself, "
    "and at the bottom it deletes itself too."
)
BUGS = [
    (
        "bullet_not_deleted",
        "Bullets never disappear: they stay at the top of the stage.",
        ["pile", "fire", "hidden", "hit"],
    ),
    (
        "spawn_wait_removed",
        "The sky fills with far too many stars.",
        ["flood", "stars", "hidden", "fire"],
    ),
    ("bullet_wrong_direction", "Bullets go down instead of up.", ["fire", "hit", "pile", "hidden"]),
    (
        "original_star_visible",
        "A star hangs at the top of the stage and never moves.",
        ["hidden", "stars", "hit", "flood"],
    ),
]


def tasks() -> list[TaskSpec]:
    return debug_family(
        FAMILY,
        GAME,
        "Star shooter",
        shooter,
        CASES,
        BUGS,
        check="Stars fall twice a second and stay few; bullets fly up from the Rocket and "
        "vanish at the top; a hit scores; the originals stay hidden.",
        timeout=20,
    )
