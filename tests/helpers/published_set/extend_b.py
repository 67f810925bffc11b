# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Extend tasks, part 2: a working project plus one feature.

- extend_flappy_add_score: the flappy game; score +1 each time the Pipe comes back.
- extend_rain_add_splash_counter: the rain; count the drops that reach the bottom.
- extend_walker_add_animation: a walker on the arrow keys; animate and face the way it walks.
- extend_quiz_add_question: the two-question quiz; add a third question.
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set import create_c, create_e, debug_flappy
from tests.helpers.published_set.common import default_project, task
from tests.helpers.published_set.kit import (
    b,
    backdrop,
    changex,
    flag,
    forever,
    goto,
    if_,
    key_pressed,
    look,
    next_costume,
    op,
    point,
    project,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def flappy(golden: bool) -> ProjectBuilder:
    return debug_flappy.flappy(None, score=golden)


def rain(golden: bool) -> ProjectBuilder:
    return create_e.rain(True, splashes=golden)


def walker(golden: bool) -> ProjectBuilder:
    p = project(backdrop("park", "#caffbf", bitmap=True))
    steps = [look(f"step{i}", 40, 70 + 4 * i, "#4361ee", bitmap=True) for i in (1, 2, 3)]
    w = p.add_sprite("Walker", steps, 0, -100)
    right = [changex(4)]
    left = [changex(-4)]
    if golden:
        right.insert(0, point(90))
        left.insert(0, point(-90))
        moving = op("or", key_pressed("right arrow"), key_pressed("left arrow"))
        w.add_script(
            flag(),
            b("motion_setrotationstyle", STYLE="left-right"),
            forever(if_(moving, next_costume(), wait(0.15))),
        )
    w.add_script(
        flag(),
        goto(0, -100),
        forever(if_(key_pressed("right arrow"), *right), if_(key_pressed("left arrow"), *left)),
    )
    return p


def quiz(golden: bool) -> ProjectBuilder:
    p = default_project()
    questions = create_c.QUESTIONS + ([("What is 12 - 5?", 7)] if golden else [])
    create_c.quiz(p, questions)
    return p


FLAP = debug_flappy.FLAP
SCORE = [
    Case(
        "score starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'score', 6);
        await EU.start(vm, 400);
        EU.assert(EU.numberVariable(vm, 'score') === 0, `score is ${EU.variable(vm, 'score')} after the flag`);
        """,
    ),
    Case(
        "score goes up by 1 each time the Pipe comes back",
        14,
        8.0,
        FLAP
        + """
        const pipe = EU.sprite(vm, 'Pipe');
        await EU.start(vm, 100);
        const seen = [];
        const watch = setInterval(() => seen.push({ x: pipe.x, score: EU.numberVariable(vm, 'score') }), 50);
        await flapFor(8000);
        clearInterval(watch);
        const returns = seen.filter((p, i) => i > 0 && p.x - seen[i - 1].x > 200).length;
        meta.returns = returns;
        meta.score = EU.numberVariable(vm, 'score');
        EU.assert(returns >= 1, 'the Pipe never came back in 8 s');
        EU.assert(meta.score === returns, `score is ${meta.score} after ${returns} Pipe returns`);
        """,
    ),
    Case(
        "no points after a crash",
        9,
        4.5,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          EU.assert(await says.waitFor((t) => t === 'Ouch!', 3000), 'the Bird did not crash without flapping');
          const after = await EU.sample(3000, 200, () => EU.numberVariable(vm, 'score'));
          EU.assert(after.every((s) => s === after[0]), `score changed after the crash: ${[...new Set(after)].join(', ')}`);
        } finally { says.stop(); }
        """,
    ),
    debug_flappy.CASES["flap"],
    Case(
        "the score keeps counting during a long flight",
        30,
        22.0,
        FLAP
        + """
        const pipe = EU.sprite(vm, 'Pipe');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 100);
          let returns = 0;
          let last = pipe.x;
          const watch = setInterval(() => { if (pipe.x - last > 200) returns += 1; last = pipe.x; }, 50);
          await flapFor(22000);
          clearInterval(watch);
          meta.returns = returns;
          meta.score = EU.numberVariable(vm, 'score');
          EU.assert(!says.find((t) => t === 'Ouch!'), 'the Bird crashed while flapping');
          EU.assert(returns >= 3, `the Pipe came back only ${returns} times in 22 s`);
          EU.assert(meta.score === returns, `score is ${meta.score} after ${returns} Pipe returns`);
        } finally { says.stop(); }
        """,
    ),
]

SPLASH = [
    Case(
        "splashes starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'splashes', 40);
        await EU.start(vm, 300);
        EU.assert(EU.numberVariable(vm, 'splashes') === 0, `splashes is ${EU.variable(vm, 'splashes')} after the flag`);
        """,
    ),
    Case(
        "every drop that reaches the bottom counts once",
        13,
        8.0,
        """
        const gone = [];
        const made = [];
        const onCreated = (t) => { if (!t.isOriginal && t.sprite.name === 'Drop') made.push(t); };
        vm.runtime.on('targetWasCreated', onCreated);
        try {
          await EU.start(vm, 0);
          await EU.sample(8000, 50, () => {
            for (const c of made) if (!gone.includes(c) && !vm.runtime.targets.includes(c)) gone.push(c);
          });
        } finally { vm.runtime.removeListener('targetWasCreated', onCreated); }
        meta.splashes = EU.numberVariable(vm, 'splashes');
        meta.deleted = gone.length;
        EU.assert(meta.deleted >= 5, `only ${meta.deleted} drops reached the bottom in 8 s`);
        EU.assert(Math.abs(meta.splashes - meta.deleted) <= 1, `splashes is ${meta.splashes}, ${meta.deleted} drops reached the bottom`);
        """,
    ),
    Case(
        "drops in the air are not counted",
        7,
        1.0,
        """
        await EU.start(vm, 1000);
        EU.assert(EU.clones(vm, 'Drop').length >= 3, 'no rain after 1 s');
        EU.assert(EU.numberVariable(vm, 'splashes') === 0, `splashes is ${EU.variable(vm, 'splashes')} before any drop reached the bottom`);
        """,
    ),
    Case(
        "the rain still falls and is deleted",
        12,
        7.0,
        """
        await EU.start(vm, 1000);
        const early = EU.clones(vm, 'Drop');
        const counts = await EU.sample(6000, 200, () => EU.clones(vm, 'Drop').length);
        EU.assert(early.every((c) => !vm.runtime.targets.includes(c)), 'some drops were never deleted');
        EU.assert(Math.max(...counts) <= 60 && Math.min(...counts) >= 1, `drops on screen: ${Math.min(...counts)}..${Math.max(...counts)}`);
        """,
    ),
]

WALK = [
    Case(
        "the arrow keys still move the Walker",
        8,
        3.0,
        """
        const w = EU.sprite(vm, 'Walker');
        await EU.start(vm, 300);
        await EU.holdKey(vm, 'ArrowRight', 1000);
        const right = w.x;
        await EU.holdKey(vm, 'ArrowLeft', 1500);
        EU.assert(right > 30, `holding right moved the Walker to x ${Math.round(right)}`);
        EU.assert(w.x < right - 40, `holding left moved the Walker back only to x ${Math.round(w.x)}`);
        EU.assert(EU.near(w.y, -100, 0.5), 'the Walker left the path');
        """,
    ),
    Case(
        "the costume changes while walking",
        8,
        3.0,
        """
        const w = EU.sprite(vm, 'Walker');
        await EU.start(vm, 300);
        EU.keyDown(vm, 'ArrowRight');
        const names = await EU.sample(2500, 30, () => EU.costume(w));
        EU.keyUp(vm, 'ArrowRight');
        const changes = names.filter((n, i) => i > 0 && n !== names[i - 1]).length;
        meta.changes = changes;
        EU.assert(changes >= 7 && changes <= 24, `${changes} costume changes in 2.5 s of walking (about 15 expected)`);
        """,
    ),
    Case(
        "the costume stays while standing still",
        8,
        3.5,
        """
        const w = EU.sprite(vm, 'Walker');
        await EU.start(vm, 500);
        const names = await EU.sample(3000, 50, () => EU.costume(w));
        EU.assert(new Set(names).size === 1, `the Walker animates while standing: ${[...new Set(names)].join(', ')}`);
        """,
    ),
    Case(
        "the Walker faces the way it walks, upright",
        9,
        4.0,
        """
        const w = EU.sprite(vm, 'Walker');
        await EU.start(vm, 300);
        await EU.holdKey(vm, 'ArrowLeft', 800);
        await EU.sleep(300);
        EU.assert(w.direction === -90, `walking left the Walker points in direction ${w.direction}`);
        EU.assert(w.rotationStyle === 'left-right', `rotation style is ${w.rotationStyle}, the Walker is upside down`);
        await EU.holdKey(vm, 'ArrowRight', 800);
        await EU.sleep(300);
        EU.assert(w.direction === 90, `walking right the Walker points in direction ${w.direction}`);
        await EU.sleep(1500);
        """,
    ),
]


def _quiz_case(name: str, replies: list[str], final: str, program: float) -> Case:
    return Case(
        name,
        program + 5,
        program,
        f"""
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, {replies!r}, 400);
        try {{
          await EU.start(vm, 0);
          const done = await says.waitFor((t) => t.startsWith('Score'), 8000);
          meta.said = says.texts('Sprite1');
          EU.assert(done, `no final score; said ${{JSON.stringify(meta.said)}}`);
          EU.assert(answers.count() === 3, `${{answers.count()}} questions were asked`);
          EU.assert(says.last('Sprite1') === '{final}', `the final message is ${{says.last('Sprite1')}}`);
          await EU.sleep(1000);
        }} finally {{ says.stop(); answers.stop(); }}
        """,
    )


QUIZ = [
    Case(
        "asks the three questions in order",
        10,
        5.0,
        """
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, ['7', '30', '7'], 400);
        try {
          await EU.start(vm, 0);
          await EU.waitUntil(() => answers.count() >= 3, 6000);
          const questions = says.texts('Sprite1').filter((t) => t.endsWith('?'));
          meta.questions = questions;
          EU.assert(JSON.stringify(questions) === '["What is 3 + 4?","What is 5 x 6?","What is 12 - 5?"]', `asked ${JSON.stringify(questions)}`);
        } finally { says.stop(); answers.stop(); }
        """,
    ),
    _quiz_case("three right answers give Score: 3", ["7", "30", "7"], "Score: 3", 5.0),
    _quiz_case("a wrong third answer gives Score: 2", ["7", "30", "17"], "Score: 2", 5.0),
    _quiz_case("only the third right gives Score: 1", ["1", "2", "7"], "Score: 1", 5.0),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "extend",
            "extend_flappy_add_score",
            flappy,
            SCORE,
            instruction=(
                "Add a score to this flappy game: make a variable score, set it to 0 when the "
                "green flag is clicked, and change it by 1 each time the Pipe goes back to the "
                "right edge (the Bird has passed it). The game must work as before."
            ),
            description="Count the pipes the Bird passes.",
            check="score starts at 0 and equals the number of times the Pipe came back; it "
            "stops after a crash; flapping still works.",
            timeout=25,
        ),
        task(
            "extend",
            "extend_rain_add_splash_counter",
            rain,
            SPLASH,
            instruction=(
                "The rain works. Add a variable named splashes: set it to 0 when the green "
                "flag is clicked, and each Drop clone changes splashes by 1 when it reaches "
                "the bottom, just before it deletes itself."
            ),
            description="Count the rain drops that reach the ground.",
            check="splashes starts at 0, is 0 while drops are in the air and equals the "
            "number of drops deleted at the bottom; the rain still works.",
            timeout=25,
        ),
        task(
            "extend",
            "extend_walker_add_animation",
            walker,
            WALK,
            instruction=(
                "The Walker moves with the left and right arrow keys. Make it walk for real: "
                "while the right or left arrow is pressed it switches to the next costume "
                "every 0.15 seconds, it points in direction 90 when walking right and -90 when "
                "walking left, and its rotation style is left-right so it never turns upside "
                "down."
            ),
            description="Animate a walking character and make it face its way.",
            check="The keys still move the Walker; costumes change about 6 times a second "
            "while walking and not while standing; it faces its way, upright.",
            timeout=20,
        ),
        task(
            "extend",
            "extend_quiz_add_question",
            quiz,
            QUIZ,
            instruction=(
                "Add a third question to this quiz: after the second one, ask 'What is 12 - "
                "5?'; if the answer is 7 change score by 1 and say 'Correct!' for 1 second, "
                "otherwise say 'Wrong!' for 1 second. The final message 'Score: ...' must "
                "count all three questions."
            ),
            description="Add a question to a quiz.",
            check="Three questions in order and the final score counts all three.",
            timeout=30,
        ),
    ]
