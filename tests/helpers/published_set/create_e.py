# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 5: a catch game and rain made of clones (own projects).

- create_catch_apple: the Bowl moves with the arrow keys, the Apple falls from a random x and
  scores when it touches the Bowl; a missed Apple starts again at the top.
- create_rain_clones: the hidden Drop makes a clone every 0.2 s; clones fall and delete
  themselves at the bottom.
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    backdrop,
    changevar,
    changex,
    changey,
    clone,
    delete_clone,
    flag,
    forever,
    goto,
    hide,
    if_,
    key_pressed,
    look,
    lt,
    on_clone,
    project,
    random,
    setvar,
    show,
    touching,
    until,
    wait,
    ypos,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def catch_apple(golden: bool) -> ProjectBuilder:
    p = project(backdrop("orchard", "#d8f3dc", bitmap=True))
    apple = p.add_sprite("Apple", [look("apple", 30, 30, "#d62828", "circle", bitmap=True)], 0, 170)
    bowl = p.add_sprite("Bowl", [look("bowl", 100, 30, "#8d5524", bitmap=True)], 0, -140)
    if golden:
        p.add_variable("score", 0)
        top = goto(random(-200, 200), 170)
        bowl.add_script(
            flag(),
            goto(0, -140),
            forever(
                if_(key_pressed("left arrow"), changex(-8)),
                if_(key_pressed("right arrow"), changex(8)),
            ),
        )
        apple.add_script(
            flag(),
            setvar("score", 0),
            top,
            forever(
                changey(-5),
                if_(touching("Bowl"), changevar("score", 1), goto(random(-200, 200), 170)),
                if_(lt(ypos(), -170), goto(random(-200, 200), 170)),
            ),
        )
    return p


def rain(golden: bool, splashes: bool = False) -> ProjectBuilder:
    """The rain; `splashes` adds the counter of the extend task (+1 per drop at the bottom)."""
    p = project(backdrop("storm", "#495057"))
    drop = p.add_sprite(
        "Drop", [look("drop", 10, 16, "#48cae4", bitmap=True, resolution=1)], 0, 170
    )
    if golden:
        start = [flag(), hide()]
        end = [delete_clone()]
        if splashes:
            p.add_variable("splashes", 0)
            start.insert(1, setvar("splashes", 0))
            end.insert(0, changevar("splashes", 1))
        drop.add_script(*start, forever(clone(), wait(0.2)))
        drop.add_script(
            on_clone(),
            goto(random(-220, 220), 170),
            show(),
            until(lt(ypos(), -170), changey(-6)),
            *end,
        )
    return p


CATCH = [
    Case(
        "score starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'score', 9);
        await EU.start(vm, 600);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} after the flag`);
        """,
    ),
    Case(
        "the Bowl moves with the arrow keys",
        9,
        4.0,
        """
        const bowl = EU.sprite(vm, 'Bowl');
        await EU.start(vm, 400);
        EU.assert(EU.near(bowl.x, 0, 0.5) && EU.near(bowl.y, -140, 0.5), `the Bowl starts at (${bowl.x}, ${bowl.y})`);
        await EU.holdKey(vm, 'ArrowRight', 1000);
        meta.after_right = Math.round(bowl.x);
        EU.assert(meta.after_right > 40, `holding right for 1 s moved the Bowl to x ${meta.after_right}`);
        await EU.holdKey(vm, 'ArrowLeft', 2000);
        meta.after_left = Math.round(bowl.x);
        EU.assert(meta.after_left < meta.after_right - 80, `holding left moved the Bowl to x ${meta.after_left}`);
        EU.assert(EU.near(bowl.y, -140, 0.5), 'the Bowl left its row');
        """,
    ),
    Case(
        "the Apple falls from the top",
        7,
        2.5,
        """
        const apple = EU.sprite(vm, 'Apple');
        await EU.start(vm, 100);
        const ys = await EU.sample(2000, 100, () => apple.y);
        EU.assert(ys[0] > 110, `the Apple started at y ${Math.round(ys[0])}`);
        EU.assert(ys[0] - ys[ys.length - 1] > 60, `the Apple fell only ${Math.round(ys[0] - ys[ys.length - 1])} px in 2 s`);
        """,
    ),
    Case(
        "a missed Apple comes back to the top",
        13,
        8.0,
        """
        const apple = EU.sprite(vm, 'Apple');
        const bowl = EU.sprite(vm, 'Bowl');
        await EU.start(vm, 300);
        bowl.setXY(-230, -140);
        const seen = await EU.sample(8000, 50, () => ({ x: apple.x, y: apple.y }));
        const resets = seen.filter((p, i) => i > 0 && p.y - seen[i - 1].y > 200);
        meta.resets = resets.length;
        EU.assert(resets.length >= 1, `the Apple never came back to the top (lowest y ${Math.round(Math.min(...seen.map((p) => p.y)))})`);
        EU.assert(resets.every((p) => p.y > 140), 'the Apple did not restart at the top');
        EU.assert(Math.min(...seen.map((p) => p.y)) > -190, 'the Apple fell off the stage');
        """,
    ),
    Case(
        "catching the Apple scores a point",
        10,
        1.0,
        """
        const apple = EU.sprite(vm, 'Apple');
        const bowl = EU.sprite(vm, 'Bowl');
        await EU.start(vm, 500);
        const before = EU.numberVariable(vm, 'score');
        apple.setXY(bowl.x, bowl.y + 50);
        const scored = await EU.waitUntil(() => EU.numberVariable(vm, 'score') > before, 3000, 20);
        EU.assert(scored, 'the score did not change when the Apple fell into the Bowl');
        EU.assert(EU.numberVariable(vm, 'score') === before + 1, `score went from ${before} to ${EU.variable(vm, 'score')}`);
        await EU.sleep(100);
        EU.assert(apple.y > 100, `after the catch the Apple is at y ${Math.round(apple.y)}, not back at the top`);
        """,
    ),
]

RAIN = [
    Case(
        "the Drop sprite itself hides",
        5,
        1.0,
        """
        const drop = EU.sprite(vm, 'Drop');
        drop.setVisible(true);
        await EU.start(vm, 700);
        EU.assert(!drop.visible, 'the original Drop is still showing');
        """,
    ),
    Case(
        "drops appear as clones at the top",
        8,
        3.0,
        """
        const firstYs = new Map();
        await EU.start(vm, 0);
        await EU.sample(3000, 30, () => {
          for (const c of EU.clones(vm, 'Drop')) if (!firstYs.has(c)) firstYs.set(c, c.y);
        });
        EU.assert(firstYs.size >= 6, `only ${firstYs.size} Drop clones in 3 s`);
        const low = [...firstYs.values()].filter((y) => y < 120).length;
        EU.assert(low <= 1, `${low} drops appeared below the top of the stage`);
        const hidden = EU.clones(vm, 'Drop').filter((c) => !c.visible).length;
        EU.assert(hidden <= 1, `${hidden} Drop clones are hidden`);
        """,
    ),
    Case(
        "drops fall down",
        7,
        2.5,
        """
        await EU.start(vm, 500);
        const drop = EU.clones(vm, 'Drop')[0];
        EU.assert(drop, 'no Drop clone after 0.5 s');
        const y0 = drop.y;
        await EU.sleep(1000);
        EU.assert(y0 - drop.y > 40, `a drop fell only ${Math.round(y0 - drop.y)} px in 1 s`);
        EU.assert(Math.abs(drop.x) <= 240, 'the drop left the stage sideways');
        """,
    ),
    Case(
        "drops are deleted at the bottom",
        13,
        8.0,
        """
        await EU.start(vm, 1000);
        const early = EU.clones(vm, 'Drop');
        EU.assert(early.length >= 2, `only ${early.length} clones after 1 s`);
        const counts = await EU.sample(7000, 200, () => EU.clones(vm, 'Drop').length);
        meta.most = Math.max(...counts);
        const left = early.filter((c) => vm.runtime.targets.includes(c)).length;
        EU.assert(left === 0, `${left} of the first drops were never deleted`);
        EU.assert(meta.most <= 60, `${meta.most} clones at once: drops pile up`);
        """,
    ),
    Case(
        "new drops keep coming",
        10,
        5.0,
        """
        let made = 0;
        const onCreated = (t) => { if (!t.isOriginal && t.sprite.name === 'Drop') made += 1; };
        vm.runtime.on('targetWasCreated', onCreated);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5000);
        } finally { vm.runtime.removeListener('targetWasCreated', onCreated); }
        meta.made = made;
        EU.assert(made >= 10 && made <= 30, `${made} drops were made in 5 s (about 22 expected)`);
        """,
    ),
    Case(
        "it rains steadily for 20 seconds",
        27,
        20.0,
        """
        let made = 0;
        const onCreated = (t) => { if (!t.isOriginal && t.sprite.name === 'Drop') made += 1; };
        vm.runtime.on('targetWasCreated', onCreated);
        try {
          await EU.start(vm, 1000);
          const counts = await EU.sample(19000, 500, () => EU.clones(vm, 'Drop').length);
          meta.most = Math.max(...counts);
          meta.least = Math.min(...counts);
          EU.assert(meta.least >= 1, 'the rain stopped for a while');
          EU.assert(meta.most <= 60, `${meta.most} drops at once: they pile up`);
        } finally { vm.runtime.removeListener('targetWasCreated', onCreated); }
        meta.made = made;
        EU.assert(made >= 40, `only ${made} drops in 20 s (about 90 expected)`);
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_catch_apple",
            catch_apple,
            CATCH,
            instruction=(
                "Make a catch game with the Apple and the Bowl. When the green flag is "
                "clicked: set a variable score to 0; the Bowl goes to x: 0, y: -140 and "
                "forever changes x by -8 while the left arrow is pressed and by 8 while the "
                "right arrow is pressed. The Apple goes to a random x between -200 and 200 at "
                "y: 170 and forever changes y by -5; if it touches the Bowl, score goes up by "
                "1 and the Apple goes back to a random x at y: 170; if its y position is below "
                "-170 it also goes back to a random x at y: 170."
            ),
            description="A catch game: a falling apple, a bowl on the arrow keys and a score.",
            check="score resets; the Bowl follows held arrow keys; the Apple falls from the "
            "top, comes back after a miss and a catch adds exactly 1.",
            timeout=30,
        ),
        task(
            "create",
            "create_rain_clones",
            rain,
            RAIN,
            instruction=(
                "Make it rain with clones of the Drop sprite. When the green flag is clicked, "
                "the Drop hides and then forever creates a clone of itself and waits 0.2 "
                "seconds. When a Drop starts as a clone, it goes to a random x between -220 "
                "and 220 at y: 170, shows, changes y by -6 until its y position is below -170, "
                "and then deletes this clone."
            ),
            description="Rain drops made of clones that fall and disappear.",
            check="The Drop hides; visible clones appear at the top about five per second, "
            "fall, and are deleted at the bottom so that they never pile up.",
            timeout=25,
        ),
    ]
