# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Extend tasks, part 6: a working project plus one feature.

- extend_owl_day_night: keys n and d switch night and day; the Owl wakes up at night (the
  "when backdrop switches to" hat).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    costume,
    flag,
    forever,
    look,
    on_key,
    project,
    say,
    switch_backdrop,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def owl(golden: bool) -> ProjectBuilder:
    p = project(backdrop("day", "#8ecae6", bitmap=True), backdrop("night", "#03045e", bitmap=True))
    looks = [
        look("asleep", 60, 60, "#7f5539", bitmap=True),
        look("awake", 60, 70, "#b08968", bitmap=True),
    ]
    bird = p.add_sprite("Owl", looks, 0, 20)
    p.stage.add_script(flag(), switch_backdrop("day"))
    bird.add_script(flag(), costume("asleep"), forever(say("Zzz...", 1), wait(1)))
    if golden:
        p.stage.add_script(on_key("n"), switch_backdrop("night"))
        p.stage.add_script(on_key("d"), switch_backdrop("day"))
        for scene, pose in (("night", "awake"), ("day", "asleep")):
            bird.add_script(b("event_whenbackdropswitchesto", BACKDROP=scene), costume(pose))
    return p


OWL = [
    Case(
        "the green flag starts the day with the Owl asleep",
        5,
        1.0,
        """
        const owl = EU.sprite(vm, 'Owl');
        EU.stage(vm).setCostume(1);
        owl.setCostume(1);
        await EU.start(vm, 600);
        EU.assert(EU.backdrop(vm) === 'day', `the backdrop is ${EU.backdrop(vm)} after the flag`);
        EU.assert(EU.costume(owl) === 'asleep', `the Owl is ${EU.costume(owl)} after the flag`);
        """,
    ),
    Case(
        "n makes it night and wakes the Owl",
        7,
        2.0,
        """
        const owl = EU.sprite(vm, 'Owl');
        await EU.start(vm, 500);
        await EU.pressKey(vm, 'n', 100);
        await EU.sleep(500);
        EU.assert(EU.backdrop(vm) === 'night', `after n the backdrop is ${EU.backdrop(vm)}`);
        EU.assert(EU.costume(owl) === 'awake', `at night the Owl is ${EU.costume(owl)}`);
        await EU.sleep(800);
        """,
    ),
    Case(
        "d makes it day again and the Owl sleeps",
        8,
        3.0,
        """
        const owl = EU.sprite(vm, 'Owl');
        await EU.start(vm, 500);
        await EU.pressKey(vm, 'n', 100);
        await EU.sleep(800);
        await EU.pressKey(vm, 'd', 100);
        await EU.sleep(500);
        EU.assert(EU.backdrop(vm) === 'day', `after n, d the backdrop is ${EU.backdrop(vm)}`);
        EU.assert(EU.costume(owl) === 'asleep', `in the day the Owl is ${EU.costume(owl)}`);
        await EU.sleep(800);
        """,
    ),
    Case(
        "the keys work again and again",
        10,
        5.0,
        """
        const owl = EU.sprite(vm, 'Owl');
        await EU.start(vm, 500);
        const seen = [];
        for (const key of ['n', 'd', 'n', 'n', 'd', 'n']) {
          await EU.pressKey(vm, key, 100);
          await EU.sleep(600);
          seen.push(`${EU.backdrop(vm)}/${EU.costume(owl)}`);
        }
        const expected = ['night/awake', 'day/asleep', 'night/awake', 'night/awake', 'day/asleep', 'night/awake'];
        EU.assert(JSON.stringify(seen) === JSON.stringify(expected), `n d n n d n gave ${seen.join(' ')}`);
        """,
    ),
    Case(
        "the Owl still says Zzz... every 2 seconds",
        10,
        5.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5000);
          const zzz = says.texts('Owl').filter((t) => t === 'Zzz...').length;
          EU.assert(zzz >= 2 && zzz <= 4, `the Owl said Zzz... ${zzz} times in 5 s`);
        } finally { says.stop(); }
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "extend",
            "extend_owl_day_night",
            owl,
            OWL,
            instruction=(
                "The Owl sleeps and says 'Zzz...'. Add day and night: when the n key is "
                "pressed the stage switches to the backdrop 'night', when the d key is pressed "
                "it switches to 'day'. When the backdrop switches to night the Owl switches to "
                "its costume 'awake', and when it switches to day, to 'asleep'."
            ),
            description="Switch between day and night with keys; the owl follows.",
            check="Day with a sleeping Owl at the start; n gives night and an awake Owl, d "
            "the day and a sleeping Owl, again and again; the Owl still snores.",
            timeout=15,
        ),
    ]
